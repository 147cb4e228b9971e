import { FfmpegExitError, type FfmpegProcess, type Logger, spawnFfmpeg } from '@radio/core';
import {
  BYTES_PER_FRAME,
  BYTES_PER_SAMPLE,
  CHANNELS,
  FFMPEG_PCM_ARGS,
  FFMPEG_PCM_CODEC,
  secondsToFrames,
} from '../pcm.ts';

export interface DecoderOptions {
  ffmpegPath: string;
  /** Absolute path of the file. */
  path: string;
  logger: Logger;
  /** Decoding stops (the pipe is paused) once this much PCM is waiting to be played. */
  bufferSeconds: number;
  /** Where decoding starts in the file (the cue-in), seconds; 0 or unset: the beginning. */
  startSeconds?: number | null;
  /** How much of the file is decoded from there (cue-out − cue-in); unset: to the end. */
  durationSeconds?: number | null;
}

/** ffmpeg's input options that cut the file to the part that is played. */
function cutArgs(start: number | null | undefined, duration: number | null | undefined): string[] {
  const args: string[] = [];
  // As input options: ffmpeg seeks, then decodes and drops up to the exact sample.
  if (start && start > 0) args.push('-ss', start.toFixed(6));
  if (duration && duration > 0) args.push('-t', duration.toFixed(6));
  return args;
}

/**
 * One track decoded by ffmpeg into the scheduler's PCM format, buffered a few seconds ahead of
 * the clock. Reading is synchronous (the clock cannot wait); the pipe is paused while the
 * buffer is full, so a long track never sits whole in memory and ffmpeg simply blocks.
 */
export class Decoder {
  readonly #options: DecoderOptions;
  readonly #highWater: number;
  readonly #lowWater: number;
  readonly #chunks: Buffer[] = [];
  #headOffset = 0;
  #buffered = 0;
  #decoded = 0;
  #ended = false;
  #error: string | null = null;
  #fileFault = true;
  #exitKnown = false;
  #process: FfmpegProcess | null = null;
  #paused = false;
  #disposed = false;

  constructor(options: DecoderOptions) {
    this.#options = options;
    this.#highWater = secondsToFrames(options.bufferSeconds) * BYTES_PER_FRAME;
    this.#lowWater = Math.floor(this.#highWater / 2);
  }

  start(): void {
    if (this.#process || this.#disposed) return;
    const { ffmpegPath, path, logger } = this.#options;
    const job = spawnFfmpeg(
      [
        '-nostdin',
        '-loglevel',
        'error',
        '-threads',
        '1',
        ...cutArgs(this.#options.startSeconds, this.#options.durationSeconds),
        '-i',
        path,
        '-map',
        '0:a:0',
        '-vn',
        '-sn',
        '-dn',
        ...FFMPEG_PCM_ARGS,
        '-acodec',
        FFMPEG_PCM_CODEC,
        'pipe:1',
      ],
      { ffmpegPath, logger, name: 'decoder', stdin: 'ignore', stdout: 'pipe' },
    );
    this.#process = job;
    const stdout = job.stdout;
    stdout?.on('data', (chunk: Buffer) => {
      if (this.#disposed) return;
      this.#chunks.push(chunk);
      this.#buffered += chunk.length;
      this.#decoded += chunk.length;
      if (this.#buffered >= this.#highWater && !this.#paused) {
        this.#paused = true;
        stdout.pause();
      }
    });
    stdout?.once('end', () => {
      this.#ended = true;
    });
    job.exited.then(
      () => {
        this.#exitKnown = true;
        this.#ended = true;
      },
      (error: unknown) => {
        this.#exitKnown = true;
        this.#ended = true;
        if (this.#disposed) return;
        this.#error = error instanceof Error ? error.message : String(error);
        // ffmpeg that could not start, or was killed, says nothing about the file.
        this.#fileFault = error instanceof FfmpegExitError && error.signal === null;
        logger.warn({ err: error, path }, 'decoder failed');
      },
    );
  }

  /** All PCM has come out of ffmpeg (what is buffered is all that is left). */
  get ended(): boolean {
    return this.#ended;
  }

  /** The decoder has finished and produced no audio at all: the file is not playable. */
  get failedEmpty(): boolean {
    return this.#ended && this.#exitKnown && this.#decoded < BYTES_PER_FRAME;
  }

  /**
   * Whether a failure is the file's fault (ffmpeg ran and exited with an error, or decoded
   * nothing), rather than the process's (could not start, killed by a signal).
   */
  get fileFault(): boolean {
    return this.#fileFault;
  }

  /** ffmpeg's error, once it exited with one. */
  get error(): string | null {
    return this.#error;
  }

  get bufferedFrames(): number {
    return Math.floor(this.#buffered / BYTES_PER_FRAME);
  }

  get decodedFrames(): number {
    return Math.floor(this.#decoded / BYTES_PER_FRAME);
  }

  /**
   * Copies up to `frames` frames into `target` (interleaved float samples) from frame `offset`;
   * returns how many it copied (fewer when the buffer runs short).
   */
  read(target: Float32Array, offset: number, frames: number): number {
    const wanted = Math.min(frames, this.bufferedFrames) * BYTES_PER_FRAME;
    // Chunks from the pipe split samples anywhere: copy bytes into the float array's memory.
    const bytes = Buffer.from(
      target.buffer,
      target.byteOffset + offset * CHANNELS * BYTES_PER_SAMPLE,
      wanted,
    );
    let copied = 0;
    while (copied < wanted) {
      const head = this.#chunks[0] as Buffer;
      const available = head.length - this.#headOffset;
      const take = Math.min(available, wanted - copied);
      head.copy(bytes, copied, this.#headOffset, this.#headOffset + take);
      copied += take;
      this.#headOffset += take;
      if (this.#headOffset >= head.length) {
        this.#chunks.shift();
        this.#headOffset = 0;
      }
    }
    this.#buffered -= copied;
    if (this.#paused && this.#buffered <= this.#lowWater && !this.#disposed) {
      this.#paused = false;
      this.#process?.stdout?.resume();
    }
    return copied / BYTES_PER_FRAME;
  }

  /** Stops ffmpeg and drops the buffer. Idempotent. */
  async dispose(): Promise<void> {
    this.#disposed = true;
    this.#chunks.length = 0;
    this.#buffered = 0;
    const job = this.#process;
    if (job) {
      // A paused pipe would keep ffmpeg blocked on write; let it drain into nothing.
      job.stdout?.resume();
      await job.dispose();
    }
  }
}
