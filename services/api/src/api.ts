import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Bus, componentLogger, type Logger, localUrl } from '@radio/core';
import type { DbHandle } from '@radio/db';
import type { Express } from 'express';
import type { Store } from 'express-session';
import type { Redis } from 'ioredis';
import { BASE_PATH, buildApp } from './app.ts';
import { DEFAULT_SCRYPT_COST } from './auth/passwords.ts';
import {
  type CounterStore,
  type LimitRule,
  MemoryCounterStore,
  RateLimit,
  RedisCounterStore,
} from './auth/rate-limiter.ts';
import { SchedulerClient } from './clients/scheduler-client.ts';
import { adminController } from './controllers/admin.controller.ts';
import { authController } from './controllers/auth.controller.ts';
import { eventsController } from './controllers/events.controller.ts';
import { openApiController } from './controllers/openapi.controller.ts';
import { playerController } from './controllers/player.controller.ts';
import { playlistsController } from './controllers/playlists.controller.ts';
import { statusController } from './controllers/status.controller.ts';
import { tracksController } from './controllers/tracks.controller.ts';
import { usersController } from './controllers/users.controller.ts';
import { answerClientError } from './http/client-error.ts';
import { HistoryRepository } from './repositories/history.repository.ts';
import { PlaylistsRepository } from './repositories/playlists.repository.ts';
import { SessionsRepository } from './repositories/sessions.repository.ts';
import { TracksRepository } from './repositories/tracks.repository.ts';
import { UsersRepository } from './repositories/users.repository.ts';
import { ApiRouter } from './routing.ts';
import { TrackIndex } from './search/track-index.ts';
import { AdminService } from './services/admin.service.ts';
import { AuthService } from './services/auth.service.ts';
import { HealthService } from './services/health.service.ts';
import { LiveEvents } from './services/live-events.service.ts';
import { PlayerService } from './services/player.service.ts';
import { PlaylistsService } from './services/playlists.service.ts';
import { StatusService } from './services/status.service.ts';
import { StreamingService } from './services/streaming.service.ts';
import { TracksService } from './services/tracks.service.ts';
import { UsersService } from './services/users.service.ts';
import { DbSessionStore } from './sessions/db-session-store.ts';
import { RedisSessionStore } from './sessions/redis-session-store.ts';
import { type SessionSettings, sessionMiddleware } from './sessions/session.ts';
import { UserCache } from './sessions/user-cache.ts';
import { API_VERSION } from './version.ts';

export interface ApiOptions {
  /** Signs the session cookie; 16+ characters. Several: the first signs, all verify (rotation). */
  sessionSecret: string | readonly string[];
  /** How the api reaches the stream server (health, Icecast stats). */
  streamUrl: string;
  /** What listeners are told; `streamUrl` when unset. */
  publicStreamUrl?: string | undefined;
  /** MUSIC_DIR: track paths are relative to it (cover art). */
  musicDir: string;
  /** express's `trust proxy`: true trusts one proxy hop (X-Forwarded-For/-Proto). Default false. */
  trustProxy?: boolean | number | string | undefined;
  /** Whether POST /auth/register accepts new accounts. Default true. */
  registrationOpen?: boolean | undefined;
  /** An admin account created when the station has no user at all (ADMIN_USER/ADMIN_PASSWORD). */
  bootstrapAdmin?: { username: string; password: string } | undefined;
  /** Origins besides the api's own allowed to send state-changing requests. */
  allowedOrigins?: readonly string[] | undefined;
  cookie?:
    | {
        name?: string | undefined;
        /** 'auto' (default): Secure when the request came over HTTPS. */
        secure?: boolean | 'auto' | undefined;
        sameSite?: 'lax' | 'strict' | undefined;
        /** Inactivity after which a session ends (ms; rolling). Default 7 days. */
        maxAgeMs?: number | undefined;
      }
    | undefined;
  /** Where sessions live: Redis when `deps.redis` is given, else the database. */
  sessionStore?: 'redis' | 'db' | undefined;
  /** Prefix of the api's Redis keys (sessions, rate limits). Default `radio:`. */
  redisPrefix?: string | undefined;
  /** Largest accepted JSON body. Default 100kb. */
  bodyLimit?: string | number | undefined;
  /** How long a command waits for the scheduler before the route answers 503 (ms). Default 3000. */
  commandTimeoutMs?: number | undefined;
  health?: { timeoutMs?: number | undefined; cacheMs?: number | undefined } | undefined;
  limits?:
    | {
        loginPerIp?: LimitRule | undefined;
        loginPerUser?: LimitRule | undefined;
        registerPerIp?: LimitRule | undefined;
      }
    | undefined;
  events?:
    | {
        heartbeatMs?: number | undefined;
        maxClients?: number | undefined;
        retryMs?: number | undefined;
      }
    | undefined;
  /** See TrackIndex: how often a search may check the library for changes (ms). Default 5000. */
  trackIndexRefreshMs?: number | undefined;
  /**
   * How long a request may use a session's user (and, in the database session store, the
   * session row) as this process last read it, instead of reading it again (ms). Changes made
   * through any api process apply at once; this bounds changes made in the database by hand.
   * Default 5000.
   */
  sessionCacheMs?: number | undefined;
  /** log2 of scrypt's N for new password hashes. Default 15. */
  scryptCost?: number | undefined;
}

export interface ApiDeps {
  db: DbHandle;
  bus: Bus;
  logger: Logger;
  /** An ioredis client: sessions and rate limits are kept in Redis when given. */
  redis?: Redis | undefined;
}

export interface ListeningApi {
  readonly port: number;
  /** `http://host:port`. */
  readonly url: string;
  readonly server: Server;
  /** Stops accepting connections and waits for the open ones (forced after a grace period). */
  close(): Promise<void>;
}

export interface Api {
  /** The express app, for mounting elsewhere or for supertest. */
  readonly app: Express;
  listen(port?: number, host?: string): Promise<ListeningApi>;
  /** Stops every server from `listen`, ends event streams, releases timers. Idempotent; the deps stay open. */
  close(): Promise<void>;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const CLOSE_GRACE_MS = 3000;

function checkOptions(options: ApiOptions, deps: ApiDeps): void {
  if (!deps?.db || !deps.bus || !deps.logger)
    throw new TypeError('createApi: deps.db, deps.bus and deps.logger are required');
  const secrets =
    typeof options.sessionSecret === 'string' ? [options.sessionSecret] : options.sessionSecret;
  if (
    !secrets?.length ||
    secrets.some((secret) => typeof secret !== 'string' || secret.length < 16)
  ) {
    throw new TypeError(
      'createApi: sessionSecret must be one or more strings of 16 or more characters',
    );
  }
  for (const [name, url] of [
    ['streamUrl', options.streamUrl],
    ['publicStreamUrl', options.publicStreamUrl],
  ] as const) {
    if (url === undefined && name === 'publicStreamUrl') continue;
    if (!URL.canParse(url ?? '')) throw new TypeError(`createApi: ${name} is not a URL: ${url}`);
  }
  if (!options.musicDir) throw new TypeError('createApi: musicDir is required');
  if (options.sessionStore === 'redis' && !deps.redis) {
    throw new TypeError('createApi: sessionStore "redis" needs deps.redis');
  }
}

/**
 * Builds the api on the given database, bus and (optionally) Redis. The caller owns those and
 * closes them after `close()`.
 */
export async function createApi(options: ApiOptions, deps: ApiDeps): Promise<Api> {
  checkOptions(options, deps);
  const logger = componentLogger(deps.logger, 'api');
  const { db, bus, redis } = deps;
  const prefix = options.redisPrefix ?? 'radio:';
  const scryptCost = options.scryptCost ?? DEFAULT_SCRYPT_COST;
  const startedAt = Date.now();

  const users = new UsersRepository(db);
  const tracks = new TracksRepository(db);
  const playlists = new PlaylistsRepository(db);
  const history = new HistoryRepository(db);

  const cleanups: Array<() => void | Promise<void>> = [];
  const sessionCacheMs = options.sessionCacheMs ?? 5000;
  const userCache = new UserCache(users, bus, logger, {
    ttlMs: sessionCacheMs,
    maxEntries: 10_000,
  });
  cleanups.push(() => userCache.close());
  const counters: CounterStore = redis
    ? new RedisCounterStore(redis, `${prefix}ratelimit:`)
    : new MemoryCounterStore();
  cleanups.push(() => counters.close());

  const maxAgeMs = options.cookie?.maxAgeMs ?? 7 * DAY_MS;
  const storeKind = options.sessionStore ?? (redis ? 'redis' : 'db');
  let store: Store;
  if (storeKind === 'redis' && redis) {
    store = new RedisSessionStore({ client: redis, prefix: `${prefix}sess:`, maxAgeMs });
  } else {
    const dbStore = new DbSessionStore(new SessionsRepository(db), {
      defaultTtlMs: maxAgeMs,
      purgeIntervalMs: 10 * 60 * 1000,
      copyMs: sessionCacheMs,
      logger: componentLogger(deps.logger, 'sessions'),
    });
    cleanups.push(() => dbStore.close());
    store = dbStore;
  }
  const secrets =
    typeof options.sessionSecret === 'string'
      ? [options.sessionSecret]
      : [...options.sessionSecret];
  const sessionSettings: SessionSettings = {
    secret: secrets,
    store,
    cookieName: options.cookie?.name ?? 'radio.sid',
    cookiePath: BASE_PATH,
    maxAgeMs,
    secure: options.cookie?.secure ?? 'auto',
    sameSite: options.cookie?.sameSite ?? 'lax',
  };

  const scheduler = new SchedulerClient(bus, options.commandTimeoutMs ?? 3000);
  const health = new HealthService(db, bus, scheduler, {
    streamUrl: options.streamUrl,
    timeoutMs: options.health?.timeoutMs ?? 1500,
    cacheMs: options.health?.cacheMs ?? 2000,
  });
  const status = new StatusService(health, API_VERSION, startedAt);
  const streaming = new StreamingService(bus, {
    streamUrl: options.streamUrl,
    publicStreamUrl: options.publicStreamUrl,
    timeoutMs: options.health?.timeoutMs ?? 1500,
    cacheMs: options.health?.cacheMs ?? 2000,
    logger,
  });
  const events = new LiveEvents(bus, {
    heartbeatMs: options.events?.heartbeatMs ?? 15_000,
    maxClients: options.events?.maxClients ?? 1000,
    retryMs: options.events?.retryMs ?? 3000,
    maxBufferedBytes: 1024 * 1024,
    logger: componentLogger(deps.logger, 'events'),
  });
  const index = new TrackIndex(tracks, {
    refreshMs: options.trackIndexRefreshMs ?? 5000,
    logger: componentLogger(deps.logger, 'track-index'),
  });
  const minutes = (n: number) => n * 60 * 1000;
  const auth = new AuthService(
    users,
    {
      loginPerIp: new RateLimit(
        counters,
        'login-ip',
        options.limits?.loginPerIp ?? { max: 30, windowMs: minutes(15) },
      ),
      loginPerUser: new RateLimit(
        counters,
        'login-user',
        options.limits?.loginPerUser ?? { max: 10, windowMs: minutes(15) },
      ),
      registerPerIp: new RateLimit(
        counters,
        'register-ip',
        options.limits?.registerPerIp ?? { max: 10, windowMs: minutes(60) },
      ),
    },
    { registrationOpen: options.registrationOpen ?? true, scryptCost },
  );

  // The scheduler announces library changes; the search index follows them.
  const unsubscribeLibrary = bus.onEvent(
    (event) => {
      if (event.type === 'library.changed' || event.payload.state !== 'running') index.invalidate();
    },
    ['library.changed', 'library.scan'],
  );
  cleanups.push(unsubscribeLibrary);
  events.start();
  cleanups.push(() => events.close());
  streaming.start();
  cleanups.push(() => streaming.stop());

  try {
    if (options.bootstrapAdmin) {
      const { username, password } = options.bootstrapAdmin;
      if (await auth.ensureBootstrapAdmin(username, password)) {
        logger.info({ username }, 'created the first admin account');
      }
    }
  } catch (error) {
    for (const cleanup of cleanups.reverse()) await cleanup();
    throw error;
  }

  const routes = new ApiRouter();
  statusController(routes, { status, streaming });
  authController(routes, auth, sessionSettings);
  usersController(routes, new UsersService(users, scryptCost));
  tracksController(routes, new TracksService(tracks, index, options.musicDir));
  playlistsController(routes, new PlaylistsService(playlists, tracks, scheduler));
  playerController(routes, new PlayerService(scheduler, tracks, playlists, history));
  adminController(
    routes,
    new AdminService({
      scheduler,
      bus,
      db,
      redis,
      tracks,
      health,
      status,
      events,
      sessionStore: storeKind,
      version: API_VERSION,
      logger,
    }),
  );
  eventsController(routes, events);
  openApiController(routes, {
    version: API_VERSION,
    basePath: BASE_PATH,
    cookieName: sessionSettings.cookieName,
  });

  const trustProxy = options.trustProxy === true ? 1 : (options.trustProxy ?? false);
  const app = buildApp({
    logger,
    trustProxy,
    allowedOrigins: options.allowedOrigins ?? [],
    bodyLimit: options.bodyLimit ?? '100kb',
    session: sessionMiddleware(sessionSettings),
    users: userCache,
    routes,
  });

  const servers = new Set<ListeningApi>();
  let closing: Promise<void> | null = null;

  async function listen(port = 0, host = '127.0.0.1'): Promise<ListeningApi> {
    if (closing) throw new Error('the api is closed');
    const server = createServer(app);
    server.on('clientError', answerClientError);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    const address = server.address() as AddressInfo;
    let stopping: Promise<void> | null = null;
    const listening: ListeningApi = {
      port: address.port,
      url: localUrl(address),
      server,
      close() {
        stopping ??= new Promise<void>((resolve) => {
          servers.delete(listening);
          const force = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS);
          force.unref();
          server.close(() => {
            clearTimeout(force);
            resolve();
          });
          server.closeIdleConnections();
        });
        return stopping;
      },
    };
    servers.add(listening);
    logger.info({ url: listening.url }, 'api listening');
    return listening;
  }

  return {
    app,
    listen,
    close() {
      closing ??= (async () => {
        // Event streams first: they never end on their own and would hold the servers open.
        events.close();
        await Promise.all([...servers].map((server) => server.close()));
        for (const cleanup of cleanups.reverse()) await cleanup();
      })();
      return closing;
    },
  };
}
