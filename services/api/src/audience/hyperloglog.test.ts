import { describe, expect, it } from '@jest/globals';
import { HLL_REGISTERS, HyperLogLog } from './hyperloglog.ts';

function sketchOf(from: number, to: number, prefix = 'listener'): HyperLogLog {
  const sketch = new HyperLogLog();
  for (let i = from; i < to; i++) sketch.add(`${prefix}-${i}`);
  return sketch;
}

describe('HyperLogLog', () => {
  it('counts an empty sketch as 0 and small sets exactly but for a collision (linear counting)', () => {
    expect(new HyperLogLog().count()).toBe(0);
    for (const n of [1, 2, 10, 50]) expect(sketchOf(0, n).count()).toBe(n);
    // Two of 100 values share a register about one time in three (100² / 2 / 16,384).
    const hundred = sketchOf(0, 100);
    expect(hundred.count()).toBe(100 - countCollisions(hundred, 100));
    expect(hundred.count()).toBeGreaterThanOrEqual(99);
    // The same value again changes nothing.
    const sketch = sketchOf(0, 50);
    for (let i = 0; i < 50; i++) sketch.add(`listener-${i}`);
    expect(sketch.count()).toBe(50);
  });

  it('estimates large sets within 2 % (standard error 0.8 %)', () => {
    for (const n of [5_000, 50_000, 200_000]) {
      const estimate = sketchOf(0, n).count();
      expect(Math.abs(estimate - n) / n).toBeLessThan(0.02);
    }
  });

  it('merges to the count of the union, overlaps counted once', () => {
    const a = sketchOf(0, 30_000);
    const b = sketchOf(20_000, 60_000);
    a.merge(b);
    expect(Math.abs(a.count() - 60_000) / 60_000).toBeLessThan(0.02);
    const whole = sketchOf(0, 60_000);
    expect(a.registers).toEqual(whole.registers);
  });

  it('stores small sketches sparse and large ones dense, and reads both back', () => {
    const small = sketchOf(0, 200);
    const smallBytes = small.toBytes();
    expect(smallBytes.length).toBe(1 + 200 * 3 - countCollisions(small, 200) * 3);
    expect(HyperLogLog.fromBytes(smallBytes).registers).toEqual(small.registers);
    const large = sketchOf(0, 40_000);
    const largeBytes = large.toBytes();
    expect(largeBytes.length).toBe(HLL_REGISTERS + 1);
    expect(HyperLogLog.fromBytes(largeBytes).registers).toEqual(large.registers);
    const merged = new HyperLogLog();
    merged.mergeBytes(smallBytes);
    merged.mergeBytes(largeBytes);
    const expected = sketchOf(0, 40_000);
    expected.merge(small);
    expect(merged.registers).toEqual(expected.registers);
    expect(() => HyperLogLog.fromBytes(Uint8Array.of(7, 1))).toThrow(RangeError);
  });
});

/** How many of n added values share a register with an earlier one. */
function countCollisions(sketch: HyperLogLog, n: number): number {
  let used = 0;
  for (const register of sketch.registers) if (register !== 0) used += 1;
  return n - used;
}
