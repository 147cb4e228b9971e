import { CHANNELS, secondsToFrames } from '../pcm.ts';

/** What the mixer reads live audio from (a connected source). */
export interface AirSource {
  take(out: Float32Array | null, offset: number, frames: number): number;
}

/** The AutoDJ: the player and its watch filling a block. */
export type AutoDj = (out: Float32Array, frames: number, startFrame: number) => void;

/** A live source comes up this fast (a click guard, not a fade: the DJ is on at once). */
const LIVE_IN_SECONDS = 0.02;

/**
 * Mixes each playout block from the AutoDJ and the live source, with a fade between them at
 * every handover. While live holds the air alone the AutoDJ is not asked for audio at all, so
 * its track waits where it was (its position, its decoders, the queue) and goes on from there
 * when it comes back.
 */
export class AirMixer {
  readonly #autoDj: AutoDj;
  readonly #fadeStep: number;
  readonly #liveInStep = 1 / secondsToFrames(LIVE_IN_SECONDS);
  #autoGain = 1;
  #liveGain = 0;
  #scratch = new Float32Array(0);

  constructor(autoDj: AutoDj, fadeSeconds: number) {
    this.#autoDj = autoDj;
    this.#fadeStep = fadeSeconds > 0 ? 1 / secondsToFrames(fadeSeconds) : 1;
  }

  /** The AutoDJ is fully faded out and held (not producing). */
  get autoDjHeld(): boolean {
    return this.#autoGain === 0;
  }

  /**
   * Fills `frames` frames of `out` at global frame `startFrame`. `live` is the source on air
   * (null: none); `wanted` says whether it should be heard (it has audio and is not silent);
   * `others` are connected sources not on air, whose audio is taken and dropped.
   */
  mix(
    out: Float32Array,
    frames: number,
    startFrame: number,
    live: AirSource | null,
    wanted: boolean,
    others: readonly AirSource[],
  ): void {
    for (const other of others) other.take(null, 0, frames);
    const samples = frames * CHANNELS;
    if (this.#scratch.length < samples) this.#scratch = new Float32Array(samples);
    const scratch = this.#scratch;
    const got = live ? live.take(scratch, 0, frames) : 0;
    scratch.fill(0, got * CHANNELS, samples);
    const want = wanted && live !== null;
    if (!live) this.#liveGain = 0;
    const autoTarget = want ? 0 : 1;
    if (this.#autoGain === 1 && autoTarget === 1 && this.#liveGain === 0) {
      this.#autoDj(out, frames, startFrame);
      return;
    }
    if (this.#autoGain > 0 || autoTarget > 0) this.#autoDj(out, frames, startFrame);
    else out.fill(0, 0, samples);
    const liveTarget = want ? 1 : 0;
    const liveStep = want ? this.#liveInStep : this.#fadeStep;
    let a = this.#autoGain;
    let l = this.#liveGain;
    for (let f = 0; f < frames; f++) {
      a =
        autoTarget > a ? Math.min(1, a + this.#fadeStep) : Math.max(autoTarget, a - this.#fadeStep);
      l = liveTarget > l ? Math.min(1, l + liveStep) : Math.max(liveTarget, l - liveStep);
      for (let c = 0; c < CHANNELS; c++) {
        const i = f * CHANNELS + c;
        out[i] = (out[i] as number) * a + (scratch[i] as number) * l;
      }
    }
    this.#autoGain = a;
    this.#liveGain = l;
  }
}
