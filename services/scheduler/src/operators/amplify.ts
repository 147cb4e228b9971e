import { SAMPLE_RATE } from '../pcm.ts';

/** Above this level (about -1 dBFS) the soft clipper bends the signal instead of clipping it. */
const KNEE = 0.891;
const FULL_SCALE = 32_767;

/**
 * Gain with clipping protection, applied to interleaved s16 PCM in place. A new gain is reached
 * by a short linear ramp (no zipper noise, no click) that starts in the very next block, so a
 * change is heard within one clock tick. Samples whose amplified level would pass the knee are
 * bent smoothly towards full scale (tanh), never wrapped or hard-clipped.
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

  /** Amplifies `frames` frames of `samples` (2 channels) in place. */
  process(samples: Int16Array, frames: number, channels = 2): void {
    const start = this.#current;
    const target = this.#target;
    if (start === 1 && target === 1) return;
    const ramp = start === target ? 0 : Math.min(frames, this.#rampFrames);
    const step = ramp > 0 ? (target - start) / ramp : 0;
    let gain = start;
    let i = 0;
    for (let frame = 0; frame < frames; frame++) {
      if (frame < ramp) gain += step;
      else gain = target;
      for (let c = 0; c < channels; c++, i++) {
        samples[i] = shape((samples[i] as number) * gain);
      }
    }
    // The ramp is never longer than the block, so the block always ends on the target.
    this.#current = target;
  }
}

/** The soft clipper on one sample value in s16 units. */
export function shape(value: number): number {
  const x = value / FULL_SCALE;
  const magnitude = x < 0 ? -x : x;
  if (magnitude <= KNEE) return Math.round(value);
  const bent = KNEE + (1 - KNEE) * Math.tanh((magnitude - KNEE) / (1 - KNEE));
  return Math.round((x < 0 ? -bent : bent) * FULL_SCALE);
}
