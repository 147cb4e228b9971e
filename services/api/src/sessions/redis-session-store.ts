import { RedisStore } from 'connect-redis';
import type { SessionData } from 'express-session';
import type { Redis } from 'ioredis';

type Callback = (error?: unknown, value?: unknown) => unknown;

export interface RedisSessionStoreOptions {
  client: Redis;
  prefix: string;
  /** The session lifetime (ms); the key's TTL follows it. */
  maxAgeMs: number;
}

/**
 * connect-redis's store with fewer writes. With a rolling expiry, express-session touches the
 * session on every answer, which is an EXPIRE per request. A touch within a tenth of the
 * lifetime (at most a minute) of this process's last one is skipped: the key then lives at
 * most that long less than the cookie says, which no one can tell from a week.
 */
export class RedisSessionStore extends RedisStore {
  readonly #touched = new Map<string, number>();
  readonly #slackMs: number;

  constructor(options: RedisSessionStoreOptions) {
    super({
      client: options.client,
      prefix: options.prefix,
      ttl: Math.ceil(options.maxAgeMs / 1000),
    });
    this.#slackMs = Math.min(60_000, options.maxAgeMs / 10);
  }

  override async touch(sid: string, session: SessionData, callback?: Callback): Promise<unknown> {
    const now = Date.now();
    const last = this.#touched.get(sid);
    if (last !== undefined && now - last < this.#slackMs) return callback?.();
    this.#mark(sid, now);
    return super.touch(sid, session, callback);
  }

  override async set(sid: string, session: SessionData, callback?: Callback): Promise<unknown> {
    this.#mark(sid, Date.now());
    return super.set(sid, session, callback);
  }

  override async destroy(sid: string, callback?: Callback): Promise<unknown> {
    this.#touched.delete(sid);
    return super.destroy(sid, callback);
  }

  #mark(sid: string, now: number): void {
    // A bound for a store that sees very many sessions: forgetting only costs extra touches.
    if (this.#touched.size >= 100_000) this.#touched.clear();
    this.#touched.set(sid, now);
  }
}
