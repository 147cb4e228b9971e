import { describe, expect, it } from '@jest/globals';
import { silentLogger } from '@radio/core';
import { Clock } from './clock.ts';

describe('Clock', () => {
  it('hands out exactly the frames due by elapsed time, however irregular the wake-ups', () => {
    let now = 1000;
    const blocks: [number, number][] = [];
    const clock = new Clock({
      logger: silentLogger(),
      now: () => now,
      maxBlockFrames: 4410,
      onBlock: (frames, start) => blocks.push([frames, start]),
    });
    clock.start();
    clock.stop(); // drive it by hand
    // Ten minutes of wake-ups that are always a bit late, by varying amounts.
    let step = 0;
    while (now < 1000 + 600_000) {
      now += 40 + ((step * 7) % 13) + 0.37;
      step += 1;
      clock.tick();
    }
    const elapsedMs = now - 1000;
    const expected = Math.floor((elapsedMs * 44_100) / 1000);
    expect(clock.frames).toBe(expected);
    // Blocks are contiguous: each starts where the previous ended.
    let next = 0;
    for (const [frames, start] of blocks) {
      expect(start).toBe(next);
      expect(frames).toBeGreaterThan(0);
      expect(frames).toBeLessThanOrEqual(4410);
      next += frames;
    }
    expect(next).toBe(expected);
  });

  it('splits a backlog into bounded blocks and drops one that is too large', () => {
    let now = 0;
    const sizes: number[] = [];
    const clock = new Clock({
      logger: silentLogger(),
      now: () => now,
      maxBlockFrames: 1000,
      maxLagSeconds: 2,
      onBlock: (frames) => sizes.push(frames),
    });
    clock.start();
    clock.stop();
    now = 500;
    clock.tick();
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(22_050);
    expect(Math.max(...sizes)).toBe(1000);
    sizes.length = 0;
    now += 10_000; // the process was frozen for 10 s
    clock.tick();
    expect(sizes).toEqual([]);
    now += 100;
    clock.tick();
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(4410);
  });
});
