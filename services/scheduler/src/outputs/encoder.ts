import {
  type FfmpegProcess,
  type FrameFormat,
  FrameSplitter,
  type Logger,
  spawnFfmpeg,
} from '@radio/core';
import { BYTES_PER_FRAME, BYTES_PER_SECOND, FFMPEG_PCM_ARGS, SAMPLE_RATE } from '../pcm.ts';

export interface EncoderOptions {
  ffmpegPath: string;
  /** For logs: the mount it feeds. */
  name: string;
  /** ffmpeg output options (codec, bitrate, container). */
  codecArgs: readonly string[];
  format: FrameFormat;
  logger: Logger;
  /**
   * Whole encoded frames as they come out; `endFrame` is the global PCM frame that the end of
   * this data corresponds to (what the clock had played when it was that far).
   */
  onFrames(data: Buffer, endFrame: number): void;
  /** PCM waiting in the pipe beyond this is dropped, never queued (default 1 s). */
  maxBacklogSeconds?: number;
  /** An encoder that cannot keep up this long is restarted (default 5 s). */
  stallRestartMs?: number;
}

interface Segment {
  /** Input frame index (since this ffmpeg started) where the segment begins. */
  input: number;
  /** Global frame it corresponds to. */
  global: number;
  length: number;
}

const RESTART_MIN_MS = 250;
const RESTART_MAX_MS = 8000;
/** An encoder that ran this long before dying is healthy: its next restart is quick again. */
const HEALTHY_RUN_MS = 30_000;

/**
 * One long-lived ffmpeg encoder fed the playout PCM on stdin. It restarts alone when it dies
 * (with a growing delay if it keeps dying), and never makes the clock wait: PCM that the pipe
 * cannot take is dropped and the gap accounted, so timing stays right.
 */
export class Encoder {
  readonly #options: EncoderOptions;
  readonly #log: Logger;
  readonly #maxBacklogBytes: number;
  readonly #stallMs: number;
  #process: FfmpegProcess | null = null;
  #splitter: FrameSplitter;
  #segments: Segment[] = [];
  #inputFrames = 0;
  #encodedFrames = 0;
  #startedAt = 0;
  #restartDelay = RESTART_MIN_MS;
  #restartTimer: NodeJS.Timeout | null = null;
  #backlogSince: number | null = null;
  #stopped = false;
  #restarts = 0;
  #droppedFrames = 0;

  constructor(options: EncoderOptions) {
    this.#options = options;
    this.#log = options.logger;
    this.#maxBacklogBytes = Math.round((options.maxBacklogSeconds ?? 1) * BYTES_PER_SECOND);
    this.#stallMs = options.stallRestartMs ?? 5000;
    this.#splitter = new FrameSplitter(options.format);
  }

  get running(): boolean {
    return this.#process !== null;
  }

  get restarts(): number {
    return this.#restarts;
  }

  get droppedSeconds(): number {
    return this.#droppedFrames / SAMPLE_RATE;
  }

  /** PCM given to ffmpeg that has not come out encoded yet, in seconds. */
  get latencySeconds(): number {
    return Math.max(0, this.#inputFrames - this.#encodedFrames) / SAMPLE_RATE;
  }

  start(): void {
    if (this.#stopped || this.#process) return;
    const { ffmpegPath, codecArgs, name } = this.#options;
    const job = spawnFfmpeg(
      [
        '-loglevel',
        'error',
        ...FFMPEG_PCM_ARGS,
        '-i',
        'pipe:0',
        '-threads',
        '1',
        ...codecArgs,
        '-flush_packets',
        '1',
        'pipe:1',
      ],
      { ffmpegPath, logger: this.#log, name: `encoder ${name}`, stdin: 'pipe', stdout: 'pipe' },
    );
    this.#process = job;
    this.#startedAt = Date.now();
    this.#segments = [];
    this.#inputFrames = 0;
    this.#encodedFrames = 0;
    this.#backlogSince = null;
    this.#splitter = new FrameSplitter(this.#options.format);
    job.stdout?.on('data', (chunk: Buffer) => {
      if (this.#process === job) this.#splitter.push(chunk, this.#onFrames);
    });
    const onExit = (error: unknown): void => {
      if (this.#process !== job) return;
      this.#process = null;
      if (this.#stopped) return;
      const ranMs = Date.now() - this.#startedAt;
      if (ranMs > HEALTHY_RUN_MS) this.#restartDelay = RESTART_MIN_MS;
      this.#log.error(
        { err: error, ranMs, restartInMs: this.#restartDelay },
        'encoder stopped; restarting it',
      );
      this.#restartTimer = setTimeout(() => {
        this.#restartTimer = null;
        this.#restarts += 1;
        this.start();
      }, this.#restartDelay);
      this.#restartDelay = Math.min(this.#restartDelay * 2, RESTART_MAX_MS);
    };
    job.exited.then(
      () => onExit(new Error('ffmpeg exited')),
      (error: unknown) => onExit(error),
    );
    this.#log.info({ pid: job.pid }, 'encoder started');
  }

  /** Feeds one block of PCM that the clock plays at global frame `startFrame`. */
  write(pcm: Buffer, startFrame: number): void {
    const frames = pcm.length / BYTES_PER_FRAME;
    const stdin = this.#process?.stdin;
    if (!stdin || stdin.destroyed || !stdin.writable) {
      this.#droppedFrames += frames;
      return;
    }
    if (stdin.writableLength > this.#maxBacklogBytes) {
      this.#droppedFrames += frames;
      const now = Date.now();
      this.#backlogSince ??= now;
      if (now - this.#backlogSince > this.#stallMs) {
        this.#log.error({ backlogBytes: stdin.writableLength }, 'encoder stalled; restarting it');
        this.#backlogSince = null;
        void this.#process?.dispose();
      }
      return;
    }
    this.#backlogSince = null;
    const last = this.#segments[this.#segments.length - 1];
    if (last && last.global + last.length === startFrame) last.length += frames;
    else this.#segments.push({ input: this.#inputFrames, global: startFrame, length: frames });
    this.#inputFrames += frames;
    stdin.write(pcm);
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#restartTimer) clearTimeout(this.#restartTimer);
    this.#restartTimer = null;
    const job = this.#process;
    this.#process = null;
    if (job) {
      job.stdin?.destroy();
      await job.dispose();
    }
  }

  /** Whole frames out of the splitter, handed on with the clock frame their end was played at. */
  readonly #onFrames = (data: Buffer, samples: number): void => {
    this.#encodedFrames += samples;
    this.#options.onFrames(data, this.#toGlobal(this.#encodedFrames));
  };

  /** The global frame of input frame `input`, through the segments written so far. */
  #toGlobal(input: number): number {
    while (this.#segments.length > 1) {
      const first = this.#segments[0] as Segment;
      if (first.input + first.length >= input) break;
      this.#segments.shift();
    }
    const segment = this.#segments[0];
    if (!segment) return input;
    return segment.global + Math.min(input - segment.input, segment.length);
  }
}
