import { SAMPLE_RATE } from '../pcm.ts';

export interface LimiterOptions {
  /**
   * The highest true peak let through, dBTP (default −2: one dB under the −1 dBTP a listener
   * may get, for the overshoot of the MP3 and AAC encoders after it).
   */
  ceilingDb?: number;
  /** How far ahead it looks, seconds: the attack time and most of its delay (default 5 ms). */
  lookaheadSeconds?: number;
  /** Time constant of the return to unity gain after a peak, seconds (default 100 ms). */
  releaseSeconds?: number;
  channels?: number;
}

/** Half the length of each interpolation filter: 16 taps per phase. */
const HALF_TAPS = 8;
/**
 * The detector aims this far under the ceiling: a short filter misreads broadband content near
 * Nyquist a little, and the gain changing within the filter's span moves the peaks between
 * samples a little (measured: under 0.2 dB on full-scale square waves).
 */
const DETECTOR_MARGIN_DB = 0.25;
const OVERSAMPLING = 4;
const KAISER_BETA = 7;

function besselI0(x: number): number {
  let sum = 1;
  let term = 1;
  for (let k = 1; k < 30; k++) {
    term *= (x / (2 * k)) ** 2;
    sum += term;
  }
  return sum;
}

/**
 * The polyphase filters of a 4× oversampler (Kaiser-windowed sinc): phase p gives the signal
 * p/4 of a sample after sample `HALF_TAPS − 1` of the 2·HALF_TAPS samples it reads. Each phase
 * is normalised to unity gain at DC.
 */
export function interpolationFilters(): Float64Array[] {
  const filters: Float64Array[] = [];
  for (let phase = 1; phase < OVERSAMPLING; phase++) {
    const offset = phase / OVERSAMPLING;
    const taps = new Float64Array(2 * HALF_TAPS);
    let sum = 0;
    for (let t = 0; t < taps.length; t++) {
      const u = t - (HALF_TAPS - 1) - offset;
      const sinc = Math.sin(Math.PI * u) / (Math.PI * u);
      const ratio = u / HALF_TAPS;
      const window = besselI0(KAISER_BETA * Math.sqrt(Math.max(0, 1 - ratio * ratio)));
      taps[t] = (sinc * window) / besselI0(KAISER_BETA);
      sum += taps[t] as number;
    }
    for (let t = 0; t < taps.length; t++) taps[t] = (taps[t] as number) / sum;
    filters.push(taps);
  }
  return filters;
}

/**
 * A lookahead true-peak limiter on interleaved float PCM, in place. Each sample's peak is taken
 * on the 4× oversampled signal (the sample and the three points after it), so peaks between
 * samples count as a DAC or a decoder would reconstruct them. The gain each peak needs is held
 * over the lookahead window (a sliding minimum), released exponentially, and smoothed by a
 * moving average as long as the lookahead: the gain reaches each peak's value by the time the
 * delayed audio gets there, with a linear attack and no overshoot. Below the ceiling it is
 * transparent (the audio is only delayed). The output is `latency` frames behind the input.
 */
export class Limiter {
  /** Frames between a sample going in and coming out. */
  readonly latency: number;
  readonly #ceiling: number;
  readonly #channels: number;
  readonly #lookahead: number;
  readonly #release: number;
  readonly #filters: Float64Array[];
  /**
   * No point between samples can pass the ceiling while every sample the filters read stays
   * under this (the ceiling over the filters' largest sum of absolute taps).
   */
  readonly #quietLevel: number;
  /** Frames since the last sample over `#quietLevel`: the filters are skipped once past them. */
  #sinceLoud = Number.POSITIVE_INFINITY;
  /** Input history, interleaved, a power of two of frames long. */
  readonly #ring: Float32Array;
  readonly #mask: number;
  #pos = 0;
  #previousPeak = 0;
  /** Sliding minimum of the required gains over lookahead + 1 frames (a monotonic deque). */
  readonly #minValues: Float64Array;
  readonly #minTimes: Float64Array;
  #minHead = 0;
  #minSize = 0;
  #time = 0;
  #envelope = 1;
  /** The moving average of the envelope (attack smoothing). */
  readonly #box: Float64Array;
  #boxPos = 0;
  #boxSum: number;
  #boxBelowOne = 0;
  #lowestGain = 1;

  constructor(options: LimiterOptions = {}) {
    this.#ceiling = 10 ** (((options.ceilingDb ?? -2) - DETECTOR_MARGIN_DB) / 20);
    this.#channels = options.channels ?? 2;
    this.#lookahead = Math.max(1, Math.round((options.lookaheadSeconds ?? 0.005) * SAMPLE_RATE));
    this.#release = 1 - Math.exp(-1 / ((options.releaseSeconds ?? 0.1) * SAMPLE_RATE));
    this.#filters = interpolationFilters();
    const widest = Math.max(
      ...this.#filters.map((taps) => taps.reduce((sum, tap) => sum + Math.abs(tap), 0)),
    );
    this.#quietLevel = this.#ceiling / widest;
    this.latency = this.#lookahead + HALF_TAPS;
    let size = 1;
    while (size < this.latency + 2 * HALF_TAPS + 2) size *= 2;
    this.#ring = new Float32Array(size * this.#channels);
    this.#mask = size - 1;
    this.#minValues = new Float64Array(this.#lookahead + 1);
    this.#minTimes = new Float64Array(this.#lookahead + 1);
    this.#box = new Float64Array(this.#lookahead).fill(1);
    this.#boxSum = this.#lookahead;
  }

  /** The lowest gain applied since the last call (1 = no limiting), then resets it. */
  takeLowestGain(): number {
    const lowest = this.#lowestGain;
    this.#lowestGain = 1;
    return lowest;
  }

  /** Limits `frames` frames of `samples` in place (the output is `latency` frames late). */
  process(samples: Float32Array, frames: number): void {
    const channels = this.#channels;
    const ring = this.#ring;
    const mask = this.#mask;
    const delay = this.latency;
    for (let frame = 0, i = 0; frame < frames; frame++, i += channels) {
      const pos = this.#pos;
      let loud = false;
      for (let c = 0; c < channels; c++) {
        const sample = samples[i + c] as number;
        ring[pos * channels + c] = sample;
        if (sample > this.#quietLevel || sample < -this.#quietLevel) loud = true;
      }
      this.#sinceLoud = loud ? 0 : this.#sinceLoud + 1;
      const gain = this.#gainFor(
        this.#sinceLoud < 2 * HALF_TAPS ? this.#truePeak(pos) : this.#quiet(),
      );
      const out = ((pos - delay) & mask) * channels;
      for (let c = 0; c < channels; c++) samples[i + c] = (ring[out + c] as number) * gain;
      this.#pos = (pos + 1) & mask;
    }
  }

  /**
   * The oversampled peak around the sample HALF_TAPS before `newest`: the sample itself and the
   * points between it and its neighbours on both sides.
   */
  #truePeak(newest: number): number {
    const channels = this.#channels;
    const ring = this.#ring;
    const mask = this.#mask;
    const first = newest - 2 * HALF_TAPS + 1;
    const centre = ((newest - HALF_TAPS) & mask) * channels;
    let peak = 0;
    for (let c = 0; c < channels; c++) {
      const sample = Math.abs(ring[centre + c] as number);
      if (sample > peak) peak = sample;
      for (const taps of this.#filters) {
        let sum = 0;
        for (let t = 0; t < taps.length; t++) {
          sum += (taps[t] as number) * (ring[((first + t) & mask) * channels + c] as number);
        }
        const value = sum < 0 ? -sum : sum;
        if (value > peak) peak = value;
      }
    }
    // The points before this sample were measured with the previous one: they need both gains.
    const both = Math.max(peak, this.#previousPeak);
    this.#previousPeak = peak;
    return both;
  }

  /** The peak of a frame whose filters read only quiet samples: under the ceiling. */
  #quiet(): number {
    const previous = this.#previousPeak;
    this.#previousPeak = 0;
    return previous;
  }

  /** Feeds one frame's peak in and returns the gain for the frame leaving the delay line now. */
  #gainFor(peak: number): number {
    const required = peak > this.#ceiling ? this.#ceiling / peak : 1;
    const minimum = this.#slidingMin(required);
    let envelope = this.#envelope;
    if (minimum < envelope) envelope = minimum;
    else if (envelope < 1) {
      envelope += (minimum - envelope) * this.#release;
      if (minimum === 1 && envelope > 0.999_999) envelope = 1;
    }
    this.#envelope = envelope;
    const box = this.#box;
    const old = box[this.#boxPos] as number;
    box[this.#boxPos] = envelope;
    this.#boxPos = (this.#boxPos + 1) % box.length;
    this.#boxBelowOne += (envelope < 1 ? 1 : 0) - (old < 1 ? 1 : 0);
    // Back at unity everywhere: reset the sum so rounding never leaves a gain just above 1.
    this.#boxSum = this.#boxBelowOne === 0 ? box.length : this.#boxSum + envelope - old;
    const gain = Math.min(1, this.#boxSum / box.length);
    if (gain < this.#lowestGain) this.#lowestGain = gain;
    return gain;
  }

  #slidingMin(value: number): number {
    const values = this.#minValues;
    const times = this.#minTimes;
    const capacity = values.length;
    const time = this.#time++;
    // Out of the window first, so there is always room for the new value.
    while (this.#minSize > 0 && (times[this.#minHead] as number) <= time - capacity) {
      this.#minHead = (this.#minHead + 1) % capacity;
      this.#minSize--;
    }
    while (this.#minSize > 0) {
      const back = (this.#minHead + this.#minSize - 1) % capacity;
      if ((values[back] as number) < value) break;
      this.#minSize--;
    }
    const at = (this.#minHead + this.#minSize) % capacity;
    values[at] = value;
    times[at] = time;
    this.#minSize++;
    return values[this.#minHead] as number;
  }
}
