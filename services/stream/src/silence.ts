import type { SilenceFrames } from './formats/index.ts';

/**
 * Feeds silent frames at the stream's real rate while a mount has no source. The frames due
 * are computed from the time elapsed on the monotonic clock, never by counting timer ticks, so
 * late or skipped ticks do not make the stream drift: a late tick just sends more frames.
 */
export class SilencePacer {
  readonly #frames: SilenceFrames;
  readonly #startedAt: number;
  #sent = 0;

  constructor(frames: SilenceFrames, now = performance.now()) {
    this.#frames = frames;
    this.#startedAt = now;
  }

  /** The frames due since the last call, as one chunk; null when none are due yet. */
  take(now = performance.now()): Buffer | null {
    const due = this.#frames.framesDue(now - this.#startedAt);
    if (due <= this.#sent) return null;
    const parts: Buffer[] = [];
    for (let i = this.#sent; i < due; i++) parts.push(this.#frames.frameAt(i));
    this.#sent = due;
    return Buffer.concat(parts);
  }
}
