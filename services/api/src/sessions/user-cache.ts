import type { Bus, Logger } from '@radio/core';
import type { User } from '@radio/db';
import type { UsersRepository } from '../repositories/users.repository.ts';

export interface UserCacheOptions {
  /** How long a user read from the database is used without reading it again (ms). */
  ttlMs: number;
  /** At most this many users are kept; the oldest go first. */
  maxEntries: number;
}

interface Entry {
  user: Promise<User | undefined>;
  readAt: number;
}

/**
 * The accounts that requests act as. Every request with a session needs its user (see
 * load-user.ts); reading the row each time cost more than the rest of a request on
 * PostgreSQL. A change made through the api drops the entry at once in this process (the
 * repository announces every committed write) and in every other api process (`user.changed`
 * on the bus). `ttlMs` bounds how long a change made behind the api's back (by hand in the
 * database, or while the bus was down) can go unseen.
 */
export class UserCache {
  readonly #users: UsersRepository;
  readonly #bus: Bus;
  readonly #log: Logger;
  readonly #options: UserCacheOptions;
  /** Reads in flight are shared: a burst of requests from one user makes one query. */
  readonly #entries = new Map<number, Entry>();
  readonly #stops: Array<() => void>;

  constructor(users: UsersRepository, bus: Bus, log: Logger, options: UserCacheOptions) {
    this.#users = users;
    this.#bus = bus;
    this.#log = log;
    this.#options = options;
    this.#stops = [
      users.onChange((userId) => this.#changedHere(userId)),
      bus.onEvent((event) => this.forget(event.payload.userId), ['user.changed']),
    ];
  }

  get(userId: number): Promise<User | undefined> {
    const now = performance.now();
    const cached = this.#entries.get(userId);
    if (cached !== undefined && now - cached.readAt < this.#options.ttlMs) return cached.user;
    const entry: Entry = { user: this.#users.findById(userId), readAt: now };
    this.#entries.delete(userId);
    if (this.#entries.size >= this.#options.maxEntries) {
      const oldest = this.#entries.keys().next().value;
      if (oldest !== undefined) this.#entries.delete(oldest);
    }
    this.#entries.set(userId, entry);
    // An unknown id or a failed read is asked again next time (a SQLite id can be reused).
    entry.user.then(
      (user) => user === undefined && this.#drop(userId, entry),
      () => this.#drop(userId, entry),
    );
    return entry.user;
  }

  /** Drops what is kept of this user: the next request reads the row. */
  forget(userId: number): void {
    this.#entries.delete(userId);
  }

  close(): void {
    for (const stop of this.#stops) stop();
    this.#entries.clear();
  }

  #changedHere(userId: number): void {
    this.forget(userId);
    this.#bus.publish('user.changed', { userId }).catch((error: unknown) => {
      this.#log.warn(
        { err: error, userId },
        `other api processes may act on the old account for up to ${this.#options.ttlMs} ms`,
      );
    });
  }

  /** Only the entry that failed: a newer read may have replaced it meanwhile. */
  #drop(userId: number, entry: Entry): void {
    if (this.#entries.get(userId) === entry) this.#entries.delete(userId);
  }
}
