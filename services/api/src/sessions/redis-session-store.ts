import { RedisStore } from 'connect-redis';
import session, { type SessionData } from 'express-session';
import type { Redis } from 'ioredis';
import { storedSessionId } from './stored-id.ts';

type Callback<T = unknown> = (error?: unknown, value?: T) => void;

export interface RedisSessionStoreOptions {
  client: Redis;
  prefix: string;
  /** The session lifetime (ms); the key's TTL follows it. */
  maxAgeMs: number;
}

/**
 * connect-redis's store (held, not extended, so its own inner calls keep its ids) with keys
 * named by `storedSessionId` instead of the cookie's session id, and fewer writes. With a
 * rolling expiry, express-session touches the session on every answer, which is an EXPIRE
 * per request. A touch within a tenth of the lifetime (at most a minute) of this process's
 * last one is skipped: the key then lives at most that long less than the cookie says, which
 * no one can tell from a week.
 */
export class RedisSessionStore extends session.Store {
  readonly #redis: RedisStore;
  readonly #touched = new Map<string, number>();
  readonly #slackMs: number;

  constructor(options: RedisSessionStoreOptions) {
    super();
    this.#redis = new RedisStore({
      client: options.client,
      prefix: options.prefix,
      ttl: Math.ceil(options.maxAgeMs / 1000),
    });
    this.#slackMs = Math.min(60_000, options.maxAgeMs / 10);
  }

  override get(cookieSid: string, callback: Callback<SessionData | null>): void {
    void this.#redis.get(storedSessionId(cookieSid), callback);
  }

  override set(cookieSid: string, data: SessionData, callback?: Callback): void {
    const sid = storedSessionId(cookieSid);
    this.#mark(sid, Date.now());
    void this.#redis.set(sid, data, callback);
  }

  override touch(cookieSid: string, data: SessionData, callback?: Callback): void {
    const sid = storedSessionId(cookieSid);
    const now = Date.now();
    const last = this.#touched.get(sid);
    if (last !== undefined && now - last < this.#slackMs) {
      callback?.();
      return;
    }
    this.#mark(sid, now);
    void this.#redis.touch(sid, data, callback);
  }

  override destroy(cookieSid: string, callback?: Callback): void {
    const sid = storedSessionId(cookieSid);
    this.#touched.delete(sid);
    void this.#redis.destroy(sid, callback);
  }

  override length(callback: Callback<number>): void {
    void this.#redis.length(callback);
  }

  override clear(callback?: Callback): void {
    this.#touched.clear();
    void this.#redis.clear(callback);
  }

  #mark(sid: string, now: number): void {
    // A bound for a store that sees very many sessions: forgetting only costs extra touches.
    if (this.#touched.size >= 100_000) this.#touched.clear();
    this.#touched.set(sid, now);
  }
}
