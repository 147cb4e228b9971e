import type { Redis } from 'ioredis';
import { ApiError } from '../errors.ts';

/** One counter's state after a hit. */
export interface Hit {
  count: number;
  /** Milliseconds until the window ends and the counter starts again. */
  resetMs: number;
}

/** Fixed-window counters; Redis when the api runs in several containers, memory otherwise. */
export interface CounterStore {
  /** Adds one to `key` and returns the new count. */
  hit(key: string, windowMs: number): Promise<Hit>;
  /** Takes one back from `key` while its window lasts; never below zero. */
  unhit(key: string): Promise<void>;
  reset(key: string): Promise<void>;
  close(): void;
}

export class MemoryCounterStore implements CounterStore {
  readonly #counters = new Map<string, { count: number; resetAt: number }>();
  readonly #sweep: NodeJS.Timeout;

  constructor(sweepMs = 60_000) {
    // Without a sweep, every IP that ever failed a login would stay in memory.
    this.#sweep = setInterval(() => {
      const now = Date.now();
      for (const [key, counter] of this.#counters) {
        if (counter.resetAt <= now) this.#counters.delete(key);
      }
    }, sweepMs);
    this.#sweep.unref();
  }

  async hit(key: string, windowMs: number): Promise<Hit> {
    const now = Date.now();
    let counter = this.#counters.get(key);
    if (!counter || counter.resetAt <= now) {
      counter = { count: 0, resetAt: now + windowMs };
      this.#counters.set(key, counter);
    }
    counter.count += 1;
    return { count: counter.count, resetMs: counter.resetAt - now };
  }

  async unhit(key: string): Promise<void> {
    const counter = this.#counters.get(key);
    if (counter && counter.resetAt > Date.now() && counter.count > 0) counter.count -= 1;
  }

  async reset(key: string): Promise<void> {
    this.#counters.delete(key);
  }

  close(): void {
    clearInterval(this.#sweep);
    this.#counters.clear();
  }
}

// INCR and the expiry of a new window in one step, so a crash between them cannot leave a
// counter that never expires.
const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {count, ttl}
`;

// Only a counter whose window still runs: a DECR of a missing key would make one without expiry.
const UNHIT_SCRIPT = `
if (tonumber(redis.call('GET', KEYS[1]) or '0') > 0) then redis.call('DECR', KEYS[1]) end
`;

export class RedisCounterStore implements CounterStore {
  readonly #redis: Redis;
  readonly #prefix: string;

  constructor(redis: Redis, prefix: string) {
    this.#redis = redis;
    this.#prefix = prefix;
  }

  async hit(key: string, windowMs: number): Promise<Hit> {
    const [count, ttl] = (await this.#redis.eval(HIT_SCRIPT, 1, this.#prefix + key, windowMs)) as [
      number,
      number,
    ];
    return { count, resetMs: Math.max(0, ttl) };
  }

  async unhit(key: string): Promise<void> {
    await this.#redis.eval(UNHIT_SCRIPT, 1, this.#prefix + key);
  }

  async reset(key: string): Promise<void> {
    await this.#redis.del(this.#prefix + key);
  }

  close(): void {
    // The Redis client belongs to the caller.
  }
}

export interface LimitRule {
  /** Attempts allowed per window. */
  max: number;
  windowMs: number;
}

/**
 * A named limit over a counter store. Every attempt is counted before the work is done (count
 * first, then decide), so concurrent attempts cannot slip past the limit between a check and
 * a later count. A limit on failures (logins) gives a successful attempt back with `refund`:
 * what is left counted are the failures, and a client that logs in often is never limited.
 */
export class RateLimit {
  readonly #store: CounterStore;
  readonly #name: string;
  readonly #rule: LimitRule;

  constructor(store: CounterStore, name: string, rule: LimitRule) {
    if (!(rule.max > 0) || !(rule.windowMs > 0)) {
      throw new RangeError(`rate limit ${name}: max and windowMs must be positive`);
    }
    this.#store = store;
    this.#name = name;
    this.#rule = rule;
  }

  /** Counts one attempt. Returns 0 when it is allowed, else the milliseconds to wait. */
  async consume(subject: string): Promise<number> {
    const { count, resetMs } = await this.#store.hit(this.#key(subject), this.#rule.windowMs);
    return count > this.#rule.max ? Math.max(resetMs, 1) : 0;
  }

  /** Takes back one attempt of the current window: it succeeded, and only failures count. */
  async refund(subject: string): Promise<void> {
    await this.#store.unhit(this.#key(subject));
  }

  async reset(subject: string): Promise<void> {
    await this.#store.reset(this.#key(subject));
  }

  #key(subject: string): string {
    return `${this.#name}:${subject}`;
  }
}

/** The 429 for an attempt a limit refused, saying how long to wait (also as Retry-After). */
export function rateLimited(waitMs: number, what: string): ApiError {
  const seconds = Math.ceil(waitMs / 1000);
  return new ApiError('API_RATE_LIMITED', `too many ${what}; try again in ${seconds} s`, {
    headers: { 'Retry-After': String(seconds) },
  });
}
