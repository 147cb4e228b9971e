import type { Logger } from '@radio/core';
import session from 'express-session';
import type { SessionsRepository } from '../repositories/sessions.repository.ts';

type Callback<T = void> = (error?: unknown, value?: T) => void;

export interface DbSessionStoreOptions {
  /** Lifetime of a session whose cookie has no expiry (ms). */
  defaultTtlMs: number;
  /** How often expired rows are deleted (ms). */
  purgeIntervalMs: number;
  logger: Logger;
}

function expiryOf(data: session.SessionData, defaultTtlMs: number): number {
  const expires = data.cookie?.expires;
  return expires ? new Date(expires).getTime() : Date.now() + defaultTtlMs;
}

/**
 * express-session's store on the station's database, for embedded mode (no Redis). Expired
 * sessions are never returned, and are deleted on a timer.
 */
export class DbSessionStore extends session.Store {
  readonly #sessions: SessionsRepository;
  readonly #defaultTtlMs: number;
  readonly #log: Logger;
  readonly #purge: NodeJS.Timeout;
  /**
   * The expiry each session has in the table, as last read or written here. With a rolling
   * expiry every request touches its session; when the stored expiry is recent enough, the
   * touch needs no write at all.
   */
  readonly #stored = new Map<string, number>();

  constructor(sessions: SessionsRepository, options: DbSessionStoreOptions) {
    super();
    this.#sessions = sessions;
    this.#defaultTtlMs = options.defaultTtlMs;
    this.#log = options.logger;
    this.#purge = setInterval(() => {
      const now = Date.now();
      for (const [sid, expiresAt] of this.#stored) if (expiresAt <= now) this.#stored.delete(sid);
      this.#sessions
        .deleteExpired(Date.now())
        .then((n) => n > 0 && this.#log.debug({ deleted: n }, 'expired sessions deleted'))
        .catch((error: unknown) => this.#log.warn({ err: error }, 'session purge failed'));
    }, options.purgeIntervalMs);
    this.#purge.unref();
  }

  override get(sid: string, callback: Callback<session.SessionData | null>): void {
    this.#sessions.find(sid).then((row) => {
      if (!row || row.expires_at <= Date.now()) {
        this.#stored.delete(sid);
        return callback(null, null);
      }
      this.#remember(sid, row.expires_at);
      let data: session.SessionData;
      try {
        data = JSON.parse(row.data) as session.SessionData;
      } catch {
        return callback(null, null);
      }
      callback(null, data);
    }, callback);
  }

  override set(sid: string, data: session.SessionData, callback?: Callback): void {
    this.#sessions.save(sid, JSON.stringify(data), expiryOf(data, this.#defaultTtlMs)).then(
      () => callback?.(),
      (error: unknown) => callback?.(error),
    );
  }

  override touch(sid: string, data: session.SessionData, callback?: Callback): void {
    const expiresAt = expiryOf(data, this.#defaultTtlMs);
    const slack = Math.min(60_000, Math.max(0, (expiresAt - Date.now()) / 10));
    const stored = this.#stored.get(sid);
    if (stored !== undefined && expiresAt - stored < slack) {
      callback?.();
      return;
    }
    this.#sessions.touch(sid, expiresAt, slack).then(
      () => {
        this.#remember(sid, expiresAt);
        callback?.();
      },
      (error: unknown) => callback?.(error),
    );
  }

  override destroy(sid: string, callback?: Callback): void {
    this.#stored.delete(sid);
    this.#sessions.delete(sid).then(
      () => callback?.(),
      (error: unknown) => callback?.(error),
    );
  }

  override length(callback: Callback<number>): void {
    this.#sessions.countActive(Date.now()).then((n) => callback(null, n), callback);
  }

  override clear(callback?: Callback): void {
    this.#sessions.deleteAll().then(
      () => callback?.(),
      (error: unknown) => callback?.(error),
    );
  }

  #remember(sid: string, expiresAt: number): void {
    // A bound for a store that sees very many sessions between two purges.
    if (this.#stored.size >= 100_000) this.#stored.clear();
    this.#stored.set(sid, expiresAt);
  }

  close(): void {
    clearInterval(this.#purge);
    this.#stored.clear();
  }
}
