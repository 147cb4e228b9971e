import {
  type FfmpegProcess,
  type FrameFormat,
  FrameSplitter,
  type Logger,
  spawnFfmpeg,
} from '@radio/core';
import { BYTES_PER_FRAME, BYTES_PER_SECOND, FFMPEG_PCM_ARGS, SAMPLE_RATE } from '../pcm.ts';

/** One encoded stream out of the station's encoder (a mount). */
export interface EncoderOutput {
  /** For logs: the mount it feeds. */
  readonly name: string;
  /** ffmpeg output options (codec, bitrate, container). */
  readonly codecArgs: readonly string[];
  readonly format: FrameFormat;
  /**
   * Whole encoded frames as they come out; `endFrame` is the global PCM frame that the end of
   * this data corresponds to (what the clock had played when it was that far).
   */
  onFrames(data: Buffer, endFrame: number): void;
}

export interface StationEncoderOptions {
  ffmpegPath: string;
  outputs: readonly EncoderOutput[];
  logger: Logger;
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

/** What one output has produced since this ffmpeg started. */
interface OutputState {
  splitter: FrameSplitter;
  encodedFrames: number;
}

/** The first restart is quick: listeners hear silence for less than a second. */
const RESTART_MIN_MS = 100;
const RESTART_MAX_MS = 8000;
/** An encoder that ran this long before dying is healthy: its next restart is quick again. */
const HEALTHY_RUN_MS = 30_000;

/**
 * The ffmpeg arguments of one process that reads the playout PCM on stdin once and encodes it
 * for every output, each to its own pipe (fd 3, 4, …). One process holds one copy of the codec
 * libraries whatever the number of mounts.
 */
export function stationEncoderArgs(outputs: readonly Pick<EncoderOutput, 'codecArgs'>[]): string[] {
  // The raw input needs no probing; ffmpeg's default probe holds back the first second of
  // PCM, which would be a second of silence at every (re)start.
  const args = ['-loglevel', 'error', '-probesize', '32', ...FFMPEG_PCM_ARGS, '-i', 'pipe:0'];
  for (const [index, output] of outputs.entries()) {
    // The mix is float for its headroom; what the codecs get is 16-bit, as from any station
    // console. AAC's rate control spends bits on the quantisation noise that float input lacks:
    // without it a clean tone comes out 25-30 % under the mount's bitrate.
    args.push('-map', '0:a', '-af', 'aformat=sample_fmts=s16', '-threads', '1');
    args.push(...output.codecArgs);
    args.push('-flush_packets', '1', `pipe:${index + 3}`);
  }
  return args;
}

/**
 * The station's one long-lived ffmpeg encoder, fed the playout PCM on stdin and producing every
 * mount's stream. It restarts alone when it dies (quickly the first time, with a growing delay
 * if it keeps dying), and never makes the clock wait: PCM that the pipe cannot take is dropped
 * and the gap accounted, so each output's audio stays mapped to the clock's frames.
 */
export class StationEncoder {
  readonly #options: StationEncoderOptions;
  readonly #log: Logger;
  readonly #maxBacklogBytes: number;
  readonly #stallMs: number;
  #process: FfmpegProcess | null = null;
  #outputs: OutputState[] = [];
  /** Input → global frame mapping, shared by the outputs (they all encode the same input). */
  #segments: Segment[] = [];
  #inputFrames = 0;
  #startedAt = 0;
  #restartDelay = RESTART_MIN_MS;
  #restartTimer: NodeJS.Timeout | null = null;
  #backlogSince: number | null = null;
  #stopped = false;
  #restarts = 0;
  #droppedFrames = 0;

  constructor(options: StationEncoderOptions) {
    this.#options = options;
    this.#log = options.logger;
    this.#maxBacklogBytes = Math.round((options.maxBacklogSeconds ?? 1) * BYTES_PER_SECOND);
    this.#stallMs = options.stallRestartMs ?? 5000;
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

  /** PCM given to ffmpeg that has not come out of output `index` yet, in seconds. */
  latencySeconds(index: number): number {
    const encoded = this.#outputs[index]?.encodedFrames ?? this.#inputFrames;
    return Math.max(0, this.#inputFrames - encoded) / SAMPLE_RATE;
  }

  start(): void {
    if (this.#stopped || this.#process) return;
    const outputs = this.#options.outputs;
    const job = spawnFfmpeg(stationEncoderArgs(outputs), {
      ffmpegPath: this.#options.ffmpegPath,
      logger: this.#log,
      name: 'encoder',
      stdin: 'pipe',
      stdout: 'ignore',
      extraOutputs: outputs.length,
    });
    this.#process = job;
    this.#startedAt = Date.now();
    this.#segments = [];
    this.#inputFrames = 0;
    this.#backlogSince = null;
    this.#outputs = outputs.map((output, index) => {
      const state = { splitter: new FrameSplitter(output.format), encodedFrames: 0 };
      const onFrames = (data: Buffer, samples: number): void => {
        state.encodedFrames += samples;
        output.onFrames(data, this.#toGlobal(state.encodedFrames));
      };
      job.outputs[index]?.on('data', (chunk: Buffer) => {
        if (this.#process === job) state.splitter.push(chunk, onFrames);
      });
      return state;
    });
    job.exited.then(
      () => this.#onExit(job, new Error('ffmpeg exited')),
      (error: unknown) => this.#onExit(job, error),
    );
    this.#log.info({ pid: job.pid, outputs: outputs.length }, 'encoder started');
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

  #onExit(job: FfmpegProcess, error: unknown): void {
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
  }

  /**
   * The global frame of input frame `input`, through the segments written so far. Segments
   * every output is past are dropped; there are only more than one after a gap in the input.
   */
  #toGlobal(input: number): number {
    let slowest = input;
    for (const output of this.#outputs) slowest = Math.min(slowest, output.encodedFrames);
    while (this.#segments.length > 1) {
      const first = this.#segments[0] as Segment;
      if (first.input + first.length >= slowest) break;
      this.#segments.shift();
    }
    const segment =
      this.#segments.find((candidate) => candidate.input + candidate.length >= input) ??
      this.#segments[this.#segments.length - 1];
    if (!segment) return input;
    return segment.global + Math.max(0, Math.min(input - segment.input, segment.length));
  }
}
