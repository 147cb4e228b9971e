import { afterAll, describe, expect, it } from '@jest/globals';
import { Redis } from 'ioredis';
import {
  type CounterStore,
  MemoryCounterStore,
  RateLimit,
  RedisCounterStore,
} from './rate-limiter.ts';

const redis = new Redis('redis://127.0.0.1:6379', { lazyConnect: true, maxRetriesPerRequest: 1 });
const prefix = `test:api:rate:${process.pid}:${Date.now()}:`;
afterAll(async () => {
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length > 0) await redis.del(...keys);
  await redis.quit();
});

describe.each([
  ['memory', () => new MemoryCounterStore()],
  ['redis', () => new RedisCounterStore(redis, prefix)],
] as Array<[string, () => CounterStore]>)('RateLimit on the %s store', (_name, makeStore) => {
  it('allows max attempts per window, then says how long to wait', async () => {
    const store = makeStore();
    const limit = new RateLimit(store, `t${Math.random()}`, { max: 2, windowMs: 300 });
    expect(await limit.consume('a')).toBe(0);
    expect(await limit.consume('a')).toBe(0);
    const wait = await limit.consume('a');
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(300);
    expect(await limit.consume('b')).toBe(0);
    await limit.reset('a');
    expect(await limit.consume('a')).toBe(0);
    store.close();
  });

  it('does not count an attempt it was given back (a success), and never goes below zero', async () => {
    const store = makeStore();
    const name = `r${Math.random()}`;
    const limit = new RateLimit(store, name, { max: 2, windowMs: 60_000 });
    for (let i = 0; i < 5; i++) {
      expect(await limit.consume('a')).toBe(0);
      await limit.refund('a');
    }
    await limit.refund('fresh');
    await limit.refund('fresh');
    expect(await limit.consume('fresh')).toBe(0);
    expect(await limit.consume('fresh')).toBe(0);
    expect(await limit.consume('fresh')).toBeGreaterThan(0);
    if (store instanceof RedisCounterStore) {
      // A refund after the window ended leaves no key behind, let alone one without expiry.
      await limit.refund('gone');
      expect(await redis.exists(`${prefix}${name}:gone`)).toBe(0);
    }
    store.close();
  });

  it('lets no more than max of many parallel attempts through', async () => {
    const store = makeStore();
    const limit = new RateLimit(store, `p${Math.random()}`, { max: 3, windowMs: 60_000 });
    const waits = await Promise.all(Array.from({ length: 12 }, () => limit.consume('a')));
    expect(waits.filter((wait) => wait === 0)).toHaveLength(3);
    store.close();
  });

  it('starts again after the window', async () => {
    const store = makeStore();
    const limit = new RateLimit(store, `w${Math.random()}`, { max: 1, windowMs: 100 });
    expect(await limit.consume('x')).toBe(0);
    expect(await limit.consume('x')).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await limit.consume('x')).toBe(0);
    store.close();
  });
});

describe('RateLimit', () => {
  it('refuses a rule that cannot work', () => {
    const store = new MemoryCounterStore();
    expect(() => new RateLimit(store, 'bad', { max: 0, windowMs: 1000 })).toThrow(RangeError);
    store.close();
  });
});
