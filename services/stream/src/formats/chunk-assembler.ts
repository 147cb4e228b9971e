/**
 * Gathers whole frames into chunks of about `chunkMs` of audio. Fewer, larger chunks mean
 * fewer writes per listener (the fan-out's cost is per write, not per byte); a quarter second
 * costs a quarter second of latency, which a radio stream does not notice.
 */
export class ChunkAssembler {
  readonly #chunkMs: number;
  readonly #passThroughBytes: number;
  #pending: Buffer[] = [];
  #bytes = 0;
  #samples = 0;

  constructor(chunkMs: number, passThroughBytes: number) {
    this.#chunkMs = chunkMs;
    this.#passThroughBytes = passThroughBytes;
  }

  /** Adds frames; returns a chunk when enough audio is gathered. */
  add(frames: Buffer, samples: number, sampleRate: number): Buffer | null {
    this.#pending.push(frames);
    this.#bytes += frames.length;
    this.#samples += samples;
    const full =
      sampleRate > 0 && samples > 0
        ? this.#samples * 1000 >= this.#chunkMs * sampleRate
        : this.#bytes >= this.#passThroughBytes;
    return full ? this.flush() : null;
  }

  /** Whatever is gathered, as one chunk (a copy: source read buffers are not kept). */
  flush(): Buffer | null {
    if (this.#bytes === 0) return null;
    const chunk = Buffer.concat(this.#pending, this.#bytes);
    this.#pending = [];
    this.#bytes = 0;
    this.#samples = 0;
    return chunk;
  }
}
