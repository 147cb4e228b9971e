import { type FfmpegProcess, type Logger, spawnFfmpeg } from '@radio/core';
import {
  BYTES_PER_FRAME,
  BYTES_PER_SAMPLE,
  CHANNELS,
  FFMPEG_PCM_ARGS,
  FFMPEG_PCM_CODEC,
  secondsToFrames,
} from '../pcm.ts';
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
  readonly #highWater = secondsToFrames(3) * BYTES_PER_FRAME;
  readonly #chunks: Buffer[] = [];
  #headOffset = 0;
  #buffered = 0;
  #decoded = 0;
  #paused = false;
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
    return Math.floor(this.#buffered / BYTES_PER_FRAME);
  }

  get decodedFrames(): number {
    return Math.floor(this.#decoded / BYTES_PER_FRAME);
  }

  /** Copies up to `frames` frames into `target` from frame `offset` (null: drops them). */
  read(target: Float32Array | null, offset: number, frames: number): number {
    const wanted = Math.min(frames, this.bufferedFrames) * BYTES_PER_FRAME;
    const bytes = target
      ? Buffer.from(target.buffer, target.byteOffset + offset * CHANNELS * BYTES_PER_SAMPLE, wanted)
      : null;
    let copied = 0;
    while (copied < wanted) {
      const head = this.#chunks[0] as Buffer;
      const take = Math.min(head.length - this.#headOffset, wanted - copied);
      bytes && head.copy(bytes, copied, this.#headOffset, this.#headOffset + take);
      copied += take;
      this.#headOffset += take;
      if (this.#headOffset >= head.length) {
        this.#chunks.shift();
        this.#headOffset = 0;
      }
    }
    this.#buffered -= copied;
    if (this.#paused && this.#buffered <= this.#highWater / 2 && !this.#disposed) {
      this.#paused = false;
      this.#process?.stdout?.resume();
    }
    return copied / BYTES_PER_FRAME;
  }

  /** Stops ffmpeg and drops what is buffered. Idempotent. */
  async dispose(): Promise<void> {
    this.#disposed = true;
    this.#chunks.length = 0;
    this.#buffered = 0;
    const job = this.#process;
    if (!job) return;
    job.stdin?.destroy();
    job.stdout?.resume();
    await job.dispose();
  }
}
