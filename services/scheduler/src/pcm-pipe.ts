import type { Readable } from 'node:stream';
import { BYTES_PER_FRAME, BYTES_PER_SAMPLE, CHANNELS } from './pcm.ts';

/**
 * PCM from an ffmpeg pipe, held until the clock reads it: a track's decoder and the live
 * input's share it. Reading is synchronous (the clock cannot wait); the pipe is paused once
 * `highWater` bytes wait and resumed at half that, so ffmpeg blocks instead of filling memory.
 */
export class PcmPipe {
  readonly #highWater: number;
  readonly #lowWater: number;
  readonly #chunks: Buffer[] = [];
  #headOffset = 0;
  #buffered = 0;
  #decoded = 0;
  #stream: Readable | null = null;
  #paused = false;
  #cleared = false;

  constructor(highWaterFrames: number) {
    this.#highWater = highWaterFrames * BYTES_PER_FRAME;
    this.#lowWater = Math.floor(this.#highWater / 2);
  }

  /** Starts taking the PCM `stream` gives. */
  follow(stream: Readable): void {
    this.#stream = stream;
    stream.on('data', (chunk: Buffer) => {
      if (this.#cleared) return;
      this.#chunks.push(chunk);
      this.#buffered += chunk.length;
      this.#decoded += chunk.length;
      if (this.#buffered >= this.#highWater && !this.#paused) {
        this.#paused = true;
        stream.pause();
      }
    });
  }

  get bufferedFrames(): number {
    return Math.floor(this.#buffered / BYTES_PER_FRAME);
  }

  /** Every frame that came out of the pipe, read or not. */
  get decodedFrames(): number {
    return Math.floor(this.#decoded / BYTES_PER_FRAME);
  }

  /**
   * Copies up to `frames` frames into `target` (interleaved float samples) from frame `offset`
   * (null: drops them); returns how many it took (fewer when the buffer runs short).
   */
  read(target: Float32Array | null, offset: number, frames: number): number {
    const wanted = Math.min(frames, this.bufferedFrames) * BYTES_PER_FRAME;
    // Chunks from the pipe split samples anywhere: copy bytes into the float array's memory.
    const bytes = target
      ? Buffer.from(target.buffer, target.byteOffset + offset * CHANNELS * BYTES_PER_SAMPLE, wanted)
      : null;
    let copied = 0;
    while (copied < wanted) {
      const head = this.#chunks[0] as Buffer;
      const take = Math.min(head.length - this.#headOffset, wanted - copied);
      bytes?.set(head.subarray(this.#headOffset, this.#headOffset + take), copied);
      copied += take;
      this.#headOffset += take;
      if (this.#headOffset >= head.length) {
        this.#chunks.shift();
        this.#headOffset = 0;
      }
    }
    this.#buffered -= copied;
    if (this.#paused && this.#buffered <= this.#lowWater && !this.#cleared) {
      this.#paused = false;
      this.#stream?.resume();
    }
    return copied / BYTES_PER_FRAME;
  }

  /**
   * Drops what is buffered and whatever comes later, and lets the pipe run (a paused pipe
   * would keep ffmpeg blocked on its write while it is being stopped).
   */
  clear(): void {
    this.#cleared = true;
    this.#chunks.length = 0;
    this.#buffered = 0;
    this.#stream?.resume();
  }
}
