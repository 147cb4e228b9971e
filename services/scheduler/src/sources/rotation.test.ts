import { describe, expect, it } from '@jest/globals';
import { Rotation } from './rotation.ts';

function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

describe('Rotation', () => {
  it('plays every track once before any repeats', () => {
    const rotation = new Rotation({ random: seeded(1) });
    for (let id = 1; id <= 10; id++) rotation.add(id);
    for (let round = 0; round < 5; round++) {
      const seen = new Set<number>();
      for (let i = 0; i < 10; i++) {
        const id = rotation.next() as number;
        expect(seen.has(id)).toBe(false);
        seen.add(id);
        rotation.played(id);
      }
      expect(seen.size).toBe(10);
    }
  });

  it('does not start a round with what just played', () => {
    const rotation = new Rotation({ random: seeded(7) });
    for (let id = 1; id <= 6; id++) rotation.add(id);
    const order: number[] = [];
    for (let i = 0; i < 60; i++) {
      const id = rotation.next() as number;
      rotation.played(id);
      order.push(id);
    }
    for (let i = 6; i < order.length; i += 6) {
      const lastRound = order.slice(i - 3, i);
      expect(lastRound).not.toContain(order[i]);
    }
  });

  it('counts a track played by another route as played this round', () => {
    const rotation = new Rotation({ random: seeded(3) });
    for (let id = 1; id <= 3; id++) rotation.add(id);
    rotation.played(2);
    const round = [rotation.next(), rotation.next()];
    expect(round.sort()).toEqual([1, 3]);
  });

  it('avoids given tracks when it can, and is empty when the library is', () => {
    const rotation = new Rotation({ random: seeded(5) });
    expect(rotation.next()).toBeNull();
    rotation.add(1);
    rotation.add(2);
    expect(rotation.next(new Set([1]))).toBe(2);
    expect(rotation.next(new Set([1, 2]))).not.toBeNull();
    rotation.remove(1);
    rotation.remove(2);
    expect(rotation.next()).toBeNull();
  });
});
