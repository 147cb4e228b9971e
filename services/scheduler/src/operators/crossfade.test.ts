import { describe, expect, it } from '@jest/globals';
import { mixCrossfade } from './crossfade.ts';

describe('mixCrossfade', () => {
  it('fades the outgoing track out while the incoming one fades in', () => {
    const frames = 100;
    const outgoing = new Int16Array(frames * 2).fill(10_000);
    const incoming = new Int16Array(frames * 2).fill(-10_000);
    const out = new Int16Array(frames * 2);
    mixCrossfade(out, 0, outgoing, incoming, frames, 0, frames);
    expect(out[0]).toBeGreaterThan(9000);
    expect(Math.abs(out[frames] as number)).toBeLessThan(300); // the middle: equal parts
    expect(out[out.length - 1]).toBeLessThan(-9000);
  });

  it('continues a crossfade over several blocks without a jump', () => {
    const total = 200;
    const a = new Int16Array(total * 2).fill(20_000);
    const b = new Int16Array(total * 2).fill(0);
    const whole = new Int16Array(total * 2);
    mixCrossfade(whole, 0, a, b, total, 0, total);
    const parts = new Int16Array(total * 2);
    mixCrossfade(parts, 0, a.subarray(0, 200), b.subarray(0, 200), 100, 0, total);
    mixCrossfade(parts, 100, a.subarray(200), b.subarray(200), 100, 100, total);
    expect([...parts]).toEqual([...whole]);
  });

  it('never leaves the 16-bit range', () => {
    const a = new Int16Array(20).fill(32_767);
    const b = new Int16Array(20).fill(32_767);
    const out = new Int16Array(20);
    mixCrossfade(out, 0, a, b, 10, 0, 10);
    expect(out.every((s) => s <= 32_767 && s >= 32_700)).toBe(true);
  });
});
