import { describe, expect, it } from '@jest/globals';
import { Amplifier, shape } from './amplify.ts';

function block(frames: number, value: number): Int16Array {
  return new Int16Array(frames * 2).fill(value);
}

describe('Amplifier', () => {
  it('leaves audio untouched at gain 1', () => {
    const samples = block(100, 12_345);
    new Amplifier(1).process(samples, 100);
    expect(samples.every((s) => s === 12_345)).toBe(true);
  });

  it('halves the level at gain 0.5 (about -6 dB) once the short ramp is over', () => {
    const amp = new Amplifier(1, 0.001);
    amp.gain = 0.5;
    const samples = block(1000, 10_000);
    amp.process(samples, 1000);
    expect(samples[0]).toBeGreaterThan(5000); // the ramp starts from the old gain
    expect(samples[samples.length - 1]).toBe(5000);
    const next = block(10, 10_000);
    amp.process(next, 10);
    expect([...next]).toEqual(new Array(20).fill(5000));
    expect(20 * Math.log10(5000 / 10_000)).toBeCloseTo(-6.02, 1);
  });

  it('reaches a new gain within one block, however short', () => {
    const amp = new Amplifier(1, 0.05);
    amp.gain = 0;
    const samples = block(10, 20_000);
    amp.process(samples, 10);
    expect(samples[samples.length - 1]).toBe(0);
  });

  it('bends loud samples instead of clipping or wrapping them', () => {
    const amp = new Amplifier(4, 0.001);
    const samples = new Int16Array([32_767, -32_768, 30_000, -30_000, 1000, -1000]);
    amp.process(samples, 3);
    for (const s of samples.slice(0, 4)) {
      expect(Math.abs(s)).toBeLessThanOrEqual(32_767);
      expect(Math.abs(s)).toBeGreaterThan(29_000);
    }
    expect(samples[4]).toBe(4000);
    expect(samples[5]).toBe(-4000);
    expect(samples[0]).toBeGreaterThan(0);
    expect(samples[1]).toBeLessThan(0);
  });

  it('is monotonic through the knee', () => {
    let previous = -Infinity;
    for (let v = 0; v <= 200_000; v += 500) {
      const out = shape(v);
      expect(out).toBeGreaterThanOrEqual(previous);
      expect(out).toBeLessThanOrEqual(32_767);
      previous = out;
    }
  });

  it('refuses a negative or non-finite gain', () => {
    const amp = new Amplifier();
    expect(() => {
      amp.gain = -1;
    }).toThrow(RangeError);
    expect(() => {
      amp.gain = Number.NaN;
    }).toThrow(RangeError);
  });
});
