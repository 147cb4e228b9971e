/*
 * Seeded randomness for the planner: the same seed always gives the same choices, so a plan
 * can be shown ahead and then played as shown.
 */

/** A 32-bit hash of some integers (murmur3's finaliser over a running mix). */
export function mix(...values: readonly number[]): number {
  let h = 0x9e3779b9;
  for (const value of values) {
    h = Math.imul(h ^ (value | 0), 0x85ebca6b);
    h ^= h >>> 13;
    h = Math.imul(h, 0xc2b2ae35);
    h ^= h >>> 16;
    // Values beyond 32 bits (epoch-sized numbers) still change the hash.
    h ^= Math.floor(value / 0x100000000) | 0;
  }
  return h >>> 0;
}

/** mulberry32: a small, fast generator of floats in [0, 1). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const CACHE_LIMIT = 256;
const permutations = new Map<string, Uint32Array>();

/**
 * A seeded permutation of 0..length-1 (Fisher-Yates). Kept in a small cache: a shuffle of a
 * 10,000-track library is asked for at every pick of its round.
 */
export function permutation(length: number, seed: number): Uint32Array {
  const key = `${length}:${seed}`;
  const known = permutations.get(key);
  if (known) return known;
  const order = new Uint32Array(length);
  for (let i = 0; i < length; i++) order[i] = i;
  const random = mulberry32(seed);
  for (let i = length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    const swap = order[i] as number;
    order[i] = order[j] as number;
    order[j] = swap;
  }
  if (permutations.size >= CACHE_LIMIT) permutations.clear();
  permutations.set(key, order);
  return order;
}
