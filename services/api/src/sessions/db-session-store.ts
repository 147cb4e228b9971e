import type { Logger } from '@radio/core';
import session from 'express-session';
import type { SessionsRepository } from '../repositories/sessions.repository.ts';
import { storedSessionId } from './stored-id.ts';

type Callback<T = void> = (error?: unknown, value?: T) => void;

export interface DbSessionStoreOptions {
  /** Lifetime of a session whose cookie has no expiry (ms). */
  defaultTtlMs: number;
  /** How often expired rows are deleted (ms). */
  purgeIntervalMs: number;
  /**
   * How long a session read or written here is used without reading its row again (ms).
   * Embedded mode is the only process on its table; were another api process to share it,
   * a logout there would reach this one within this time.
   */
  copyMs: number;
  logger: Logger;
}

interface Copy {
  /** The session as JSON: each request gets its own object to change. */
  json: string;
  /** The expiry in the table, as last read or written here. */
  expiresAt: number;
  /** When the row was last read or written (performance.now()). */
  syncedAt: number;
}

// A bound for a store that sees very many sessions between two purges.
const MAX_COPIES = 100_000;

function expiryOf(data: session.SessionData, defaultTtlMs: number): number {
  const expires = data.cookie?.expires;
  return expires ? new Date(expires).getTime() : Date.now() + defaultTtlMs;
}

/**
 * express-session's store on the station's database, for embedded mode (no Redis). Expired
 * sessions are never returned, and are deleted on a timer (from `startPurging` on). Every
 * request reads its session, so the store keeps a copy of the rows it read or wrote: a
 * request within `copyMs` of the last read costs no query. Rows and copies are keyed by
 * `storedSessionId`, not by the cookie's session id.
 */
export class DbSessionStore extends session.Store {
  readonly #sessions: SessionsRepository;
  readonly #defaultTtlMs: number;
  readonly #copyMs: number;
  readonly #log: Logger;
  readonly #purgeIntervalMs: number;
  #purge: NodeJS.Timeout | null = null;
  readonly #copies = new Map<string, Copy>();
  /**
   * Bumped by every write and deletion: a read that a write overtook (a logout while another
   * request of the session was reading it) answers with what it read but keeps no copy of it.
   */
  #writes = 0;

  constructor(sessions: SessionsRepository, options: DbSessionStoreOptions) {
    super();
    this.#sessions = sessions;
    this.#defaultTtlMs = options.defaultTtlMs;
    this.#copyMs = options.copyMs;
    this.#log = options.logger;
    this.#purgeIntervalMs = options.purgeIntervalMs;
  }

  /** Deletes expired rows every `purgeIntervalMs` from now on, until `close`. */
  startPurging(): void {
    if (this.#purge) return;
    this.#purge = setInterval(() => {
      const now = Date.now();
      for (const [sid, copy] of this.#copies) if (copy.expiresAt <= now) this.#copies.delete(sid);
      this.#sessions
        .deleteExpired(now)
        .then((n) => n > 0 && this.#log.debug({ deleted: n }, 'expired sessions deleted'))
        .catch((error: unknown) => this.#log.warn({ err: error }, 'session purge failed'));
    }, this.#purgeIntervalMs);
    this.#purge.unref();
  }

  override get(cookieSid: string, callback: Callback<session.SessionData | null>): void {
    const sid = storedSessionId(cookieSid);
    const copy = this.#copies.get(sid);
    if (copy !== undefined && performance.now() - copy.syncedAt < this.#copyMs) {
      this.#answer(sid, copy, callback);
      return;
    }
    const writes = this.#writes;
    this.#sessions.find(sid).then((row) => {
      if (!row) {
        this.#copies.delete(sid);
        return callback(null, null);
      }
      const read: Copy = { json: row.data, expiresAt: row.expires_at, syncedAt: performance.now() };
      if (writes === this.#writes) this.#keep(sid, read);
      this.#answer(sid, read, callback);
    }, callback);
  }

  override set(cookieSid: string, data: session.SessionData, callback?: Callback): void {
    const sid = storedSessionId(cookieSid);
    const json = JSON.stringify(data);
    const expiresAt = expiryOf(data, this.#defaultTtlMs);
    this.#writes += 1;
    this.#sessions.save(sid, json, expiresAt).then(
      () => {
        this.#keep(sid, { json, expiresAt, syncedAt: performance.now() });
        callback?.();
      },
      (error: unknown) => {
        // The row may or may not hold the new data now: read it again next time.
        this.#copies.delete(sid);
        callback?.(error);
      },
    );
  }

  /**
   * With a rolling expiry every answer touches its session. A touch that moves the expiry by
   * less than a tenth of the lifetime (at most a minute) writes nothing: the session then
   * ends at most that much earlier than its cookie says.
   */
  override touch(cookieSid: string, data: session.SessionData, callback?: Callback): void {
    const sid = storedSessionId(cookieSid);
    const expiresAt = expiryOf(data, this.#defaultTtlMs);
    const slack = Math.min(60_000, Math.max(0, (expiresAt - Date.now()) / 10));
    const copy = this.#copies.get(sid);
    if (copy !== undefined && expiresAt - copy.expiresAt < slack) {
      callback?.();
      return;
    }
    this.#sessions.touch(sid, expiresAt, slack).then(
      () => {
        const current = this.#copies.get(sid);
        if (current !== undefined) current.expiresAt = Math.max(current.expiresAt, expiresAt);
        callback?.();
      },
      (error: unknown) => callback?.(error),
    );
  }

  override destroy(cookieSid: string, callback?: Callback): void {
    const sid = storedSessionId(cookieSid);
    this.#writes += 1;
    this.#copies.delete(sid);
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

  /** An expired session is gone: a copy never outlives its row's expiry. */
  #answer(sid: string, copy: Copy, callback: Callback<session.SessionData | null>): void {
    let data: session.SessionData | null = null;
    if (copy.expiresAt <= Date.now()) this.#copies.delete(sid);
    else {
      try {
        data = JSON.parse(copy.json) as session.SessionData;
      } catch {
        // A row this store did not write: no session.
      }
    }
    callback(null, data);
  }

  #keep(sid: string, copy: Copy): void {
    // Re-inserted, so the map's order is oldest-synced first.
    this.#copies.delete(sid);
    if (this.#copies.size >= MAX_COPIES) {
      const oldest = this.#copies.keys().next().value;
      if (oldest !== undefined) this.#copies.delete(oldest);
    }
    this.#copies.set(sid, copy);
  }

  close(): void {
    if (this.#purge) clearInterval(this.#purge);
    this.#purge = null;
    this.#copies.clear();
  }
}
