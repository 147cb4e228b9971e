import { describe, expect, it } from '@jest/globals';
import { Amplifier } from './amplify.ts';

function block(frames: number, value: number): Float32Array {
  return new Float32Array(frames * 2).fill(value);
}

describe('Amplifier', () => {
  it('leaves audio untouched at gain 1', () => {
    const samples = block(100, 0.375);
    new Amplifier(1).process(samples, 100);
    expect(samples.every((s) => s === 0.375)).toBe(true);
  });

  it('halves the level at gain 0.5 (about -6 dB) once the short ramp is over', () => {
    const amp = new Amplifier(1, 0.001);
    amp.gain = 0.5;
    const samples = block(1000, 0.25);
    amp.process(samples, 1000);
    expect(samples[0]).toBeGreaterThan(0.125); // the ramp starts from the old gain
    expect(samples[samples.length - 1]).toBe(0.125);
    const next = block(10, 0.25);
    amp.process(next, 10);
    expect([...next]).toEqual(new Array(20).fill(0.125));
  });

  it('reaches a new gain within one block, however short', () => {
    const amp = new Amplifier(1, 0.05);
    amp.gain = 0;
    const samples = block(10, 0.5);
    amp.process(samples, 10);
    expect(samples[samples.length - 1]).toBe(0);
  });

  it('leaves samples above full scale for the limiter instead of clipping them', () => {
    const amp = new Amplifier(4, 0.001);
    const samples = new Float32Array([1, -1, 0.5, -0.5]);
    amp.process(samples, 2);
    expect([...samples]).toEqual([4, -4, 2, -2]);
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
