import { type FfmpegProcess, type Logger, spawnFfmpeg } from '@radio/core';
import { FFMPEG_PCM_ARGS, FFMPEG_PCM_CODEC, secondsToFrames } from '../pcm.ts';
import { PcmPipe } from '../pcm-pipe.ts';
import { DEMUXER, type LiveFormat } from './source-format.ts';

export interface LiveDecoderOptions {
  ffmpegPath: string;
  format: LiveFormat;
  logger: Logger;
  /** ffmpeg ended on its own (the source's bytes are not decodable, or its stdin closed). */
  onExit(error: string | null): void;
}

/**
 * A live source's bytes decoded by ffmpeg into the scheduler's PCM as they arrive. The demuxer
 * is named and probing is off, so the first PCM comes out with the first frame in, not after
 * ffmpeg has read seconds of input to guess at it. Reading is synchronous, like a track's
 * decoder; a client sending faster than real time is held back by the pipes (TCP backpressure).
 */
export class LiveDecoder {
  readonly #options: LiveDecoderOptions;
  readonly #pcm = new PcmPipe(secondsToFrames(3));
  #process: FfmpegProcess | null = null;
  #disposed = false;

  constructor(options: LiveDecoderOptions) {
    this.#options = options;
  }

  start(): void {
    const { ffmpegPath, format, logger } = this.#options;
    const job = spawnFfmpeg(
      [
        '-nostdin',
        '-loglevel',
        'error',
        '-threads',
        '1',
        '-fflags',
        'nobuffer',
        '-probesize',
        '32',
        '-analyzeduration',
        '0',
        '-f',
        DEMUXER[format],
        '-i',
        'pipe:0',
        '-map',
        '0:a:0',
        '-vn',
        ...FFMPEG_PCM_ARGS,
        '-acodec',
        FFMPEG_PCM_CODEC,
        '-flush_packets',
        '1',
        'pipe:1',
      ],
      { ffmpegPath, logger, name: 'live decoder', stdin: 'pipe', stdout: 'pipe' },
    );
    this.#process = job;
    if (job.stdout) this.#pcm.follow(job.stdout);
    job.exited.then(
      () => !this.#disposed && this.#options.onExit(null),
      (error: unknown) =>
        !this.#disposed &&
        this.#options.onExit(error instanceof Error ? error.message : String(error)),
    );
  }

  /** Passes source bytes on; false when ffmpeg is behind (wait for `drain` before more). */
  write(chunk: Buffer): boolean {
    const stdin = this.#process?.stdin;
    if (!stdin || this.#disposed || stdin.destroyed) return true;
    return stdin.write(chunk);
  }

  onDrain(callback: () => void): void {
    this.#process?.stdin?.once('drain', callback);
  }

  get bufferedFrames(): number {
    return this.#pcm.bufferedFrames;
  }

  get decodedFrames(): number {
    return this.#pcm.decodedFrames;
  }

  /** Copies up to `frames` frames into `target` from frame `offset` (null: drops them). */
  read(target: Float32Array | null, offset: number, frames: number): number {
    return this.#pcm.read(target, offset, frames);
  }

  /** Stops ffmpeg and drops what is buffered. Idempotent. */
  async dispose(): Promise<void> {
    this.#disposed = true;
    this.#pcm.clear();
    const job = this.#process;
    if (!job) return;
    job.stdin?.destroy();
    await job.dispose();
  }
}
