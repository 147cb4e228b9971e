import { SAMPLE_RATE } from '../pcm.ts';

/**
 * The operator's gain (amplify), applied to interleaved float PCM in place. A new gain is
 * reached by a short linear ramp (no zipper noise, no click) that starts in the very next
 * block, so a change is heard within one clock tick. Nothing is clipped here: the float samples
 * may pass full scale, and the limiter after it keeps the output under its ceiling.
 */
export class Amplifier {
  #current: number;
  #target: number;
  readonly #rampFrames: number;

  constructor(gain = 1, rampSeconds = 0.02) {
    this.#current = gain;
    this.#target = gain;
    this.#rampFrames = Math.max(1, Math.round(rampSeconds * SAMPLE_RATE));
  }

  get gain(): number {
    return this.#target;
  }

  set gain(value: number) {
    if (!Number.isFinite(value) || value < 0) throw new RangeError(`bad gain ${value}`);
    this.#target = value;
  }

  /** Amplifies `frames` frames of `samples` (interleaved, `channels` channels) in place. */
  process(samples: Float32Array, frames: number, channels = 2): void {
    const start = this.#current;
    const target = this.#target;
    if (start === 1 && target === 1) return;
    const ramp = start === target ? 0 : Math.min(frames, this.#rampFrames);
    const step = ramp > 0 ? (target - start) / ramp : 0;
    let i = 0;
    for (let frame = 0; frame < frames; frame++) {
      // Computed, not summed: the ramp lands exactly on the target.
      const gain = frame < ramp - 1 ? start + step * (frame + 1) : target;
      for (let c = 0; c < channels; c++, i++) {
        samples[i] = (samples[i] as number) * gain;
      }
    }
    // The ramp is never longer than the block, so the block always ends on the target.
    this.#current = target;
  }
}
