import { describe, expect, it } from '@jest/globals';
import { Limiter } from './limiter.ts';

const RATE = 44_100;

/** A stereo signal of `seconds` from a function of the frame index (same on both channels). */
function signal(seconds: number, at: (frame: number) => number): Float32Array {
  const frames = Math.round(seconds * RATE);
  const out = new Float32Array(frames * 2);
  for (let i = 0; i < frames; i++) {
    out[2 * i] = at(i);
    out[2 * i + 1] = at(i);
  }
  return out;
}

/** Runs the limiter over `input` in clock-sized blocks; returns the output. */
function limit(limiter: Limiter, input: Float32Array, block = 2205): Float32Array {
  const out = Float32Array.from(input);
  for (let start = 0; start < out.length / 2; start += block) {
    const frames = Math.min(block, out.length / 2 - start);
    limiter.process(out.subarray(start * 2, (start + frames) * 2), frames);
  }
  return out;
}

/** Half the length of the reference oversampler's filters. */
const HALF = 32;

/** The reference's three 4× phases: a long (64-tap) Blackman-windowed sinc. */
const REFERENCE = [1, 2, 3].map((phase) => {
  const taps = new Float64Array(2 * HALF);
  for (let t = -HALF + 1; t <= HALF; t++) {
    const u = t - phase / 4;
    const window =
      0.42 + 0.5 * Math.cos((Math.PI * u) / HALF) + 0.08 * Math.cos((2 * Math.PI * u) / HALF);
    taps[t + HALF - 1] = (Math.sin(Math.PI * u) / (Math.PI * u)) * window;
  }
  return taps;
});

/**
 * The true peak (dBTP) of one channel by an independent reference, 4× oversampled with much
 * longer filters than the limiter's own.
 */
function truePeakDb(samples: Float32Array, channel = 0): number {
  const frames = samples.length / 2;
  let peak = 0;
  for (let n = HALF; n < frames - HALF; n++) {
    peak = Math.max(peak, Math.abs(samples[2 * n + channel] as number));
    for (const taps of REFERENCE) {
      let sum = 0;
      for (let t = 0; t < taps.length; t++) {
        sum += (samples[2 * (n + t - HALF + 1) + channel] as number) * (taps[t] as number);
      }
      peak = Math.max(peak, Math.abs(sum));
    }
  }
  return 20 * Math.log10(peak);
}

describe('Limiter', () => {
  const worstCases: [string, Float32Array][] = [
    ['a full-scale square wave', signal(1, (i) => (Math.floor(i / 20) % 2 === 0 ? 1 : -1))],
    ['a square wave 6 dB over full scale', signal(1, (i) => (Math.floor(i / 7) % 2 ? 2 : -2))],
    [
      'a 0 dBFS sine at fs/4, sampled 45° off its peaks',
      signal(1, (i) => Math.sin((Math.PI / 2) * i + Math.PI / 4)),
    ],
    [
      'a 0 dBFS sine just above fs/4',
      signal(1, (i) => Math.sin((2 * Math.PI * 11_100 * i) / RATE + 0.3)),
    ],
    [
      'a 0 dBFS sine just below fs/4',
      signal(1, (i) => Math.sin((2 * Math.PI * 10_950 * i) / RATE + 1.1)),
    ],
    [
      'bursts of a 3 kHz sine 12 dB over full scale',
      signal(1, (i) => (i % 8820 < 441 ? 4 : 0.2) * Math.sin((2 * Math.PI * 3000 * i) / RATE)),
    ],
  ];

  it.each(worstCases)('keeps %s under its ceiling, measured 4× oversampled', (_name, input) => {
    const limiter = new Limiter({ ceilingDb: -2 });
    const output = limit(limiter, input);
    expect(truePeakDb(input)).toBeGreaterThan(-0.1);
    expect(truePeakDb(output, 0)).toBeLessThanOrEqual(-2);
    expect(truePeakDb(output, 1)).toBeLessThanOrEqual(-2);
  });

  it('is transparent below its ceiling: the audio comes out only delayed', () => {
    const input = signal(0.5, (i) => 0.5 * Math.sin((2 * Math.PI * 1000 * i) / RATE));
    const limiter = new Limiter({ ceilingDb: -2 });
    const output = limit(limiter, input, 1000);
    const delay = limiter.latency;
    expect(delay).toBeGreaterThan(0);
    expect([...output.subarray(0, delay * 2)].every((s) => s === 0)).toBe(true);
    expect(output.subarray(delay * 2)).toEqual(input.subarray(0, input.length - delay * 2));
    expect(limiter.takeLowestGain()).toBe(1);
  });

  it('comes back to unity gain after a peak, with no lasting change of level', () => {
    const limiter = new Limiter({ ceilingDb: -2, releaseSeconds: 0.05 });
    const loud = signal(0.2, (i) => 2 * Math.sin((2 * Math.PI * 1000 * i) / RATE));
    limit(limiter, loud);
    expect(limiter.takeLowestGain()).toBeLessThan(0.5);
    const quiet = signal(1, (i) => 0.25 * Math.sin((2 * Math.PI * 1000 * i) / RATE));
    const output = limit(limiter, quiet);
    const tail = output.subarray(output.length - 2 * 4410);
    expect(Math.max(...tail)).toBeCloseTo(0.25, 3);
  });

  it('attacks smoothly: the gain never jumps from one sample to the next', () => {
    const limiter = new Limiter({ ceilingDb: -2 });
    const input = signal(0.1, (i) => (i < 2000 ? 0.1 : 1.5));
    const output = limit(limiter, input);
    let largest = 0;
    for (let i = 2 + limiter.latency; i < output.length / 2; i++) {
      const gainStep = Math.abs(
        (output[2 * i] as number) / (input[2 * (i - limiter.latency)] as number) -
          (output[2 * i - 2] as number) / (input[2 * (i - 1 - limiter.latency)] as number),
      );
      largest = Math.max(largest, gainStep);
    }
    expect(largest).toBeLessThan(0.01);
  });
});
