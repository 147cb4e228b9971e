import { FfmpegExitError, type FfmpegProcess, type Logger, spawnFfmpeg } from '@radio/core';
import { FFMPEG_PCM_ARGS, FFMPEG_PCM_CODEC, secondsToFrames } from '../pcm.ts';
import { PcmPipe } from '../pcm-pipe.ts';

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
  readonly #pcm: PcmPipe;
  #ended = false;
  #error: string | null = null;
  #fileFault = true;
  #exitKnown = false;
  #process: FfmpegProcess | null = null;
  #disposed = false;

  constructor(options: DecoderOptions) {
    this.#options = options;
    this.#pcm = new PcmPipe(secondsToFrames(options.bufferSeconds));
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
    if (stdout) this.#pcm.follow(stdout);
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
    return this.#ended && this.#exitKnown && this.#pcm.decodedFrames === 0;
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
    return this.#pcm.bufferedFrames;
  }

  get decodedFrames(): number {
    return this.#pcm.decodedFrames;
  }

  /**
   * Copies up to `frames` frames into `target` (interleaved float samples) from frame `offset`;
   * returns how many it copied (fewer when the buffer runs short).
   */
  read(target: Float32Array, offset: number, frames: number): number {
    return this.#pcm.read(target, offset, frames);
  }

  /** Stops ffmpeg and drops the buffer. Idempotent. */
  async dispose(): Promise<void> {
    this.#disposed = true;
    this.#pcm.clear();
    await this.#process?.dispose();
  }
}
