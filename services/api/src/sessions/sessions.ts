import { type Bus, componentLogger, type Logger } from '@radio/core';
import type { DbHandle } from '@radio/db';
import type { RequestHandler } from 'express';
import type { Redis } from 'ioredis';
import type { ResolvedApiOptions } from '../options.ts';
import { SessionsRepository } from '../repositories/sessions.repository.ts';
import type { UsersRepository } from '../repositories/users.repository.ts';
import { DbSessionStore } from './db-session-store.ts';
import { RedisSessionStore } from './redis-session-store.ts';
import { type SessionSettings, sessionMiddleware } from './session.ts';
import { UserCache } from './user-cache.ts';

/** How often the database store deletes expired sessions. */
const PURGE_INTERVAL_MS = 10 * 60 * 1000;
/** Users kept in memory at most (see UserCache). */
const CACHED_USERS = 10_000;

export interface SessionsDeps {
  db: DbHandle;
  bus: Bus;
  /** The root logger: the database store logs as its own component. */
  logger: Logger;
  /** The api's own logger. */
  log: Logger;
  redis?: Redis | undefined;
  users: UsersRepository;
  /** Where the session cookie is sent: the api's base path. */
  cookiePath: string;
}

/** The session cookie, the store behind it and the accounts that requests act as. */
export interface Sessions {
  readonly settings: SessionSettings;
  readonly middleware: RequestHandler;
  readonly users: UserCache;
  /** Starts deleting expired sessions (the database store). */
  start(): void;
  close(): void;
}

export type SessionOptions = Pick<
  ResolvedApiOptions,
  'sessionSecrets' | 'sessionStore' | 'redisPrefix' | 'cookie' | 'sessionCacheMs'
>;

function createStore(
  options: SessionOptions,
  deps: SessionsDeps,
): DbSessionStore | RedisSessionStore {
  if (options.sessionStore === 'redis' && deps.redis) {
    return new RedisSessionStore({
      client: deps.redis,
      prefix: `${options.redisPrefix}sess:`,
      maxAgeMs: options.cookie.maxAgeMs,
    });
  }
  return new DbSessionStore(new SessionsRepository(deps.db), {
    defaultTtlMs: options.cookie.maxAgeMs,
    purgeIntervalMs: PURGE_INTERVAL_MS,
    copyMs: options.sessionCacheMs,
    logger: componentLogger(deps.logger, 'sessions'),
  });
}

export function createSessions(options: SessionOptions, deps: SessionsDeps): Sessions {
  const { cookie } = options;
  const users = new UserCache(deps.users, deps.bus, deps.log, {
    ttlMs: options.sessionCacheMs,
    maxEntries: CACHED_USERS,
  });
  const store = createStore(options, deps);
  const settings: SessionSettings = {
    secret: options.sessionSecrets,
    store,
    cookieName: cookie.name,
    cookiePath: deps.cookiePath,
    maxAgeMs: cookie.maxAgeMs,
    secure: cookie.secure,
    sameSite: cookie.sameSite,
  };
  return {
    settings,
    middleware: sessionMiddleware(settings),
    users,
    start() {
      if (store instanceof DbSessionStore) store.startPurging();
    },
    close() {
      if (store instanceof DbSessionStore) store.close();
      users.close();
    },
  };
}
