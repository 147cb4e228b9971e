/**
 * A stream of silent frames at a stream's own parameters. Frame `i` is chosen among the
 * prebuilt frames (unpadded and padded) so that the bytes sent after `n` frames are
 * `floor(n * meanLength)`: the byte rate is exactly the bitrate, as a real encoder's.
 */
export class SilenceFrames {
  readonly sampleRate: number;
  readonly samplesPerFrame: number;
  readonly meanLength: number;
  readonly #frames: readonly Buffer[];

  constructor(
    sampleRate: number,
    samplesPerFrame: number,
    meanLength: number,
    frames: readonly Buffer[],
  ) {
    this.sampleRate = sampleRate;
    this.samplesPerFrame = samplesPerFrame;
    this.meanLength = meanLength;
    this.#frames = frames;
  }

  /** The frame to send as the `index`-th silent frame. */
  frameAt(index: number): Buffer {
    const plain = this.#frames[0] as Buffer;
    const want = Math.floor((index + 1) * this.meanLength) - Math.floor(index * this.meanLength);
    return want > plain.length ? (this.#frames[1] ?? plain) : plain;
  }

  /** Frames due after `elapsedMs` of silence. */
  framesDue(elapsedMs: number): number {
    return Math.floor((elapsedMs * this.sampleRate) / 1000 / this.samplesPerFrame);
  }
}
