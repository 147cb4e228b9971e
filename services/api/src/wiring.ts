import { type Bus, componentLogger, type Logger } from '@radio/core';
import type { DbHandle } from '@radio/db';
import type { Redis } from 'ioredis';
import { BASE_PATH } from './app.ts';
import { type Audience, createAudience } from './audience/audience.ts';
import { FirstAdmin } from './auth/first-admin.ts';
import {
  type CounterStore,
  MemoryCounterStore,
  RateLimit,
  RedisCounterStore,
} from './auth/rate-limiter.ts';
import { SetupCodeStore } from './auth/setup-code-store.ts';
import { SchedulerClient } from './clients/scheduler-client.ts';
import { adminController } from './controllers/admin.controller.ts';
import { authController } from './controllers/auth.controller.ts';
import { djAccountsController } from './controllers/dj-accounts.controller.ts';
import { eventsController } from './controllers/events.controller.ts';
import { libraryController } from './controllers/library.controller.ts';
import { liveController } from './controllers/live.controller.ts';
import { openApiController } from './controllers/openapi.controller.ts';
import { playerController } from './controllers/player.controller.ts';
import { playlistsController } from './controllers/playlists.controller.ts';
import { requestsController } from './controllers/requests.controller.ts';
import { schedulesController, timelineController } from './controllers/schedules.controller.ts';
import { statusController } from './controllers/status.controller.ts';
import { tracksController } from './controllers/tracks.controller.ts';
import { trashController } from './controllers/trash.controller.ts';
import { uploadsController } from './controllers/uploads.controller.ts';
import { usersController } from './controllers/users.controller.ts';
import { webhooksController } from './controllers/webhooks.controller.ts';
import { TrackFiles } from './library/track-files.ts';
import { createLive, type Live } from './live/live.ts';
import type { ResolvedApiOptions } from './options.ts';
import { reportsController } from './reports/reports.controller.ts';
import { createReports, type Reports } from './reports/reports.ts';
import { AuditRepository } from './repositories/audit.repository.ts';
import { HistoryRepository } from './repositories/history.repository.ts';
import { LibraryRepository } from './repositories/library.repository.ts';
import { PlaylistsRepository } from './repositories/playlists.repository.ts';
import { TracksRepository } from './repositories/tracks.repository.ts';
import { TrashRepository } from './repositories/trash.repository.ts';
import { UsersRepository } from './repositories/users.repository.ts';
import { ApiRouter } from './routing.ts';
import { TrackIndex } from './search/track-index.ts';
import { AdminService } from './services/admin.service.ts';
import { AuthService } from './services/auth.service.ts';
import { HealthService } from './services/health.service.ts';
import { LibraryFoldersService } from './services/library-folders.service.ts';
import { LibraryTagsService } from './services/library-tags.service.ts';
import { LiveEvents } from './services/live-events.service.ts';
import { PlayerService } from './services/player.service.ts';
import { PlaylistsService } from './services/playlists.service.ts';
import { createProgramming, type Programming } from './services/programming.ts';
import { StatusService } from './services/status.service.ts';
import { StreamingService } from './services/streaming.service.ts';
import { TracksService } from './services/tracks.service.ts';
import { TrashService } from './services/trash.service.ts';
import { UsersService } from './services/users.service.ts';
import type { SessionSettings } from './sessions/session.ts';
import { createUploads, type Uploads } from './uploads/index.ts';
import { API_VERSION } from './version.ts';
import { createWebhooks, type Webhooks } from './webhooks/webhooks.ts';

/* The api's parts, built in named steps: repositories, services, the routes over them. */

export interface ApiDeps {
  db: DbHandle;
  bus: Bus;
  logger: Logger;
  /** An ioredis client: sessions and rate limits are kept in Redis when given. */
  redis?: Redis | undefined;
}

/** The deps with the api's own logger (`component: api`). */
export interface WiringDeps extends ApiDeps {
  log: Logger;
}

/** A slow event stream client is dropped beyond this much unsent data. */
const MAX_BUFFERED_EVENT_BYTES = 1024 * 1024;

export interface Repositories {
  users: UsersRepository;
  tracks: TracksRepository;
  playlists: PlaylistsRepository;
  history: HistoryRepository;
  audit: AuditRepository;
  trash: TrashRepository;
  library: LibraryRepository;
}

export function createRepositories(db: DbHandle): Repositories {
  return {
    users: new UsersRepository(db),
    tracks: new TracksRepository(db),
    playlists: new PlaylistsRepository(db),
    history: new HistoryRepository(db),
    audit: new AuditRepository(db),
    trash: new TrashRepository(db),
    library: new LibraryRepository(db),
  };
}

export interface Services {
  scheduler: SchedulerClient;
  health: HealthService;
  status: StatusService;
  streaming: StreamingService;
  events: LiveEvents;
  index: TrackIndex;
  counters: CounterStore;
  auth: AuthService;
  firstAdmin: FirstAdmin;
  users: UsersService;
  tracks: TracksService;
  playlists: PlaylistsService;
  player: PlayerService;
  admin: AdminService;
  libraryTags: LibraryTagsService;
  libraryFolders: LibraryFoldersService;
  trash: TrashService;
  webhooks: Webhooks;
  reports: Reports;
  audience: Audience;
  uploads: Uploads;
  live: Live;
  programming: Programming;
}

function createAuthService(
  options: ResolvedApiOptions,
  users: UsersRepository,
  counters: CounterStore,
): AuthService {
  const { limits } = options;
  return new AuthService(
    users,
    {
      loginPerIp: new RateLimit(counters, 'login-ip', limits.loginPerIp),
      loginPerUser: new RateLimit(counters, 'login-user', limits.loginPerUser),
      registerPerIp: new RateLimit(counters, 'register-ip', limits.registerPerIp),
    },
    { registrationOpen: options.registrationOpen, scryptCost: options.scryptCost },
  );
}

function createFirstAdmin(
  options: ResolvedApiOptions,
  deps: WiringDeps,
  users: UsersRepository,
  counters: CounterStore,
): FirstAdmin {
  return new FirstAdmin(
    {
      db: deps.db,
      users,
      store: new SetupCodeStore(deps.db),
      limit: new RateLimit(counters, 'setup-ip', options.limits.setupPerIp),
      log: deps.log,
    },
    { configuredCode: options.setupCode, scryptCost: options.scryptCost },
  );
}

/** The services the status, admin and event routes share: health checks, the bus, the stream. */
function createStationServices(
  options: ResolvedApiOptions,
  deps: WiringDeps,
): Pick<Services, 'scheduler' | 'health' | 'status' | 'streaming' | 'events'> {
  const { db, bus } = deps;
  const scheduler = new SchedulerClient(bus, options.commandTimeoutMs);
  const health = new HealthService(db, bus, scheduler, {
    streamUrl: options.streamUrl,
    ...options.health,
  });
  const status = new StatusService(health, API_VERSION, Date.now(), { bus, logger: deps.log });
  const streaming = new StreamingService(bus, {
    streamUrl: options.streamUrl,
    publicStreamUrl: options.publicStreamUrl,
    ...options.health,
    logger: deps.log,
  });
  const events = new LiveEvents(bus, {
    ...options.events,
    maxBufferedBytes: MAX_BUFFERED_EVENT_BYTES,
    logger: componentLogger(deps.logger, 'events'),
  });
  return { scheduler, health, status, streaming, events };
}

/** Editing the library's files: tags, folders and moves, the trash. */
function createLibraryServices(
  options: ResolvedApiOptions,
  deps: WiringDeps,
  repositories: Repositories,
  parts: Pick<Services, 'index' | 'scheduler' | 'programming'>,
): Pick<Services, 'libraryTags' | 'libraryFolders' | 'trash'> {
  const logger = componentLogger(deps.logger, 'library');
  const files = new TrackFiles({
    tracks: repositories.tracks,
    index: parts.index,
    musicDir: options.musicDir,
    ffmpegPath: options.ffmpegPath,
    logger,
    indexWaitMs: 15_000,
  });
  const { audit, library } = repositories;
  return {
    libraryTags: new LibraryTagsService(files, audit, logger),
    libraryFolders: new LibraryFoldersService(files, audit, logger),
    trash: new TrashService({
      files,
      trash: repositories.trash,
      library,
      audit,
      scheduler: parts.scheduler,
      requests: parts.programming.requests,
      dataDir: options.dataDir,
      trashDays: options.trashDays,
      logger,
    }),
  };
}

export function createServices(
  options: ResolvedApiOptions,
  deps: WiringDeps,
  repositories: Repositories,
): Services {
  const { db, bus, redis } = deps;
  const { users, tracks, playlists, history, audit } = repositories;
  const station = createStationServices(options, deps);
  const { scheduler } = station;
  const programming = createProgramming(options.programming, {
    db,
    bus,
    scheduler,
    playlists,
    tracks,
    users,
    audit,
    logger: componentLogger(deps.logger, 'programming'),
  });
  const counters: CounterStore = redis
    ? new RedisCounterStore(redis, `${options.redisPrefix}ratelimit:`)
    : new MemoryCounterStore();
  const index = new TrackIndex(tracks, {
    refreshMs: options.trackIndexRefreshMs,
    logger: componentLogger(deps.logger, 'track-index'),
  });
  const reports = createReports(db);
  return {
    ...station,
    index,
    counters,
    auth: createAuthService(options, users, counters),
    firstAdmin: createFirstAdmin(options, deps, users, counters),
    users: new UsersService(users, options.scryptCost, programming.changes),
    tracks: new TracksService(tracks, index, options.musicDir),
    programming,
    playlists: new PlaylistsService(playlists, tracks, scheduler, programming.changes, audit),
    player: new PlayerService(scheduler, tracks, playlists, history),
    ...createLibraryServices(options, deps, repositories, { index, scheduler, programming }),
    reports,
    audience: createAudience(
      { ...options.audience, dataDir: options.dataDir },
      { db, bus, logger: componentLogger(deps.logger, 'audience'), plays: reports.plays },
    ),
    webhooks: createWebhooks(
      { ...options.webhooks, streamUrl: options.streamUrl, secretKeys: options.sessionSecrets },
      { db, bus, logger: componentLogger(deps.logger, 'webhooks') },
    ),
    live: createLive(
      {
        basePath: BASE_PATH,
        liveUrl: options.liveUrl,
        dataDir: options.dataDir,
        // The go-live socket checks Origin itself: the page at PUBLIC_URL is one of ours.
        allowedOrigins: [
          ...options.allowedOrigins,
          ...(options.publicUrl ? [options.publicUrl] : []),
        ],
        scryptCost: options.scryptCost,
      },
      { db, bus, users, scheduler, logger: componentLogger(deps.logger, 'live') },
    ),
    uploads: createUploads(
      options,
      { db, audit: repositories.audit, logger: deps.logger },
      `${BASE_PATH}/uploads`,
    ),
    admin: new AdminService({
      scheduler,
      health: station.health,
      status: station.status,
      events: station.events,
      bus,
      db,
      redis,
      tracks,
      sessionStore: options.sessionStore,
      version: API_VERSION,
      logger: deps.log,
    }),
  };
}

/**
 * What the services do in the background: follow the bus (the search index follows the
 * scheduler's library changes) and keep event streams alive. Returns how to stop it.
 */
export function runServices(services: Services, bus: Bus): () => void {
  const unsubscribeLibrary = bus.onEvent(
    (event) => {
      if (event.type === 'library.changed' || event.payload.state !== 'running') {
        services.index.invalidate();
      }
    },
    ['library.changed', 'library.scan'],
  );
  services.events.start();
  services.programming.timeline.start();
  services.streaming.start();
  services.trash.start();
  const stopWebhooks = services.webhooks.start();
  const stopAudience = services.audience.start();
  services.uploads.endpoint.start();
  return () => {
    stopWebhooks();
    void stopAudience();
    services.uploads.endpoint.stop();
    void services.trash.stop();
    services.streaming.stop();
    services.events.close();
    services.programming.timeline.stop();
    unsubscribeLibrary();
  };
}

/** Every route, the OpenAPI document last so it covers them all. */
export function registerRoutes(
  services: Services,
  session: SessionSettings,
  basePath: string,
): ApiRouter {
  const routes = new ApiRouter();
  statusController(routes, services);
  authController(routes, services, session);
  usersController(routes, services.users);
  tracksController(routes, services.tracks);
  libraryController(routes, services.libraryTags, services.libraryFolders);
  trashController(routes, services.trash);
  webhooksController(routes, services.webhooks.service);
  reportsController(routes, services.reports);
  uploadsController(routes, services.uploads.admin);
  djAccountsController(routes, services.live);
  liveController(routes, services.live);
  playlistsController(routes, services.playlists);
  schedulesController(routes, services.programming.schedules);
  timelineController(routes, services.programming.timeline);
  requestsController(routes, services.programming.requests);
  playerController(routes, services.player);
  adminController(routes, services.admin);
  eventsController(routes, services.events);
  openApiController(routes, {
    version: API_VERSION,
    basePath,
    cookieName: session.cookieName,
  });
  return routes;
}
