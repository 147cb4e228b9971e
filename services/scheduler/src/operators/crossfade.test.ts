import { describe, expect, it } from '@jest/globals';
import { mixCrossfade } from './crossfade.ts';

describe('mixCrossfade', () => {
  it('fades the outgoing track out while the incoming one fades in', () => {
    const frames = 100;
    const outgoing = new Float32Array(frames * 2).fill(0.3);
    const incoming = new Float32Array(frames * 2).fill(-0.3);
    const out = new Float32Array(frames * 2);
    mixCrossfade(out, 0, outgoing, incoming, frames, { done: 0, total: frames });
    expect(out[0]).toBeGreaterThan(0.29);
    expect(Math.abs(out[frames] as number)).toBeLessThan(0.01); // the middle: equal parts
    expect(out[out.length - 1]).toBeLessThan(-0.29);
  });

  it('continues a crossfade over several blocks without a jump', () => {
    const total = 200;
    const a = new Float32Array(total * 2).fill(0.6);
    const b = new Float32Array(total * 2).fill(0);
    const whole = new Float32Array(total * 2);
    mixCrossfade(whole, 0, a, b, total, { done: 0, total });
    const parts = new Float32Array(total * 2);
    mixCrossfade(parts, 0, a.subarray(0, 200), b.subarray(0, 200), 100, { done: 0, total });
    mixCrossfade(parts, 100, a.subarray(200), b.subarray(200), 100, { done: 100, total });
    expect([...parts]).toEqual([...whole]);
  });

  it('brings the incoming track to full level after its shorter fade-in', () => {
    const total = 100;
    const a = new Float32Array(total * 2).fill(0);
    const b = new Float32Array(total * 2).fill(0.5);
    const out = new Float32Array(total * 2);
    mixCrossfade(out, 0, a, b, total, { done: 0, total, fadeIn: 20 });
    expect(out[2 * 10]).toBeCloseTo(0.2625, 4);
    expect(out.slice(2 * 20).every((s) => s === 0.5)).toBe(true);
  });

  it('leaves a sum above full scale to the limiter', () => {
    const a = new Float32Array(20).fill(1);
    const b = new Float32Array(20).fill(1);
    const out = new Float32Array(20);
    mixCrossfade(out, 0, a, b, 10, { done: 0, total: 10, fadeIn: 1 });
    expect(out[out.length - 1]).toBeGreaterThan(1);
  });
});
