import { mkdir } from 'node:fs/promises';
import { isIP } from 'node:net';
import { resolve } from 'node:path';
import { apiOptionsFromConfig, createApi } from '@radio/api';
import {
  type Bus,
  Closers,
  type ConfigOf,
  createMemoryBus,
  describeConfig,
  embeddedSpec,
  ffmpegVersion,
  type Logger,
  listenerStreamBase,
  localUrl,
  locateFfmpeg,
  type Service,
  type ServiceLoggers,
  STATION_MOUNTS,
} from '@radio/core';
import { createDb, type DbHandle, migrateToLatest } from '@radio/db';
import { createScheduler, SchedulerMetrics, schedulerOptionsFromConfig } from '@radio/scheduler';
import { createStreamServer, streamOptionsFromConfig } from '@radio/stream';
import { createWebServer, ensureWebBuild, webOptionsFromConfig } from '@radio/web';
import { ensureMusic } from './music.ts';
import type { SecretName } from './secrets.ts';

/** The embedded configuration once the launcher has filled in the generated secrets. */
export type StationConfig = ConfigOf<typeof embeddedSpec> & Record<SecretName, string>;

export interface StationUrl {
  readonly name: string;
  readonly url: string;
}

export interface RunningStation {
  readonly urls: readonly StationUrl[];
  /** The one-time code that creates the first admin, while no admin exists; else null. */
  readonly setupCode: string | null;
  /** Stops every part in the reverse order of start. Idempotent. */
  stop(): Promise<void>;
}

/** Registers the service's close before its start, so a start that fails half-way is undone. */
async function started<T extends Service>(closers: Closers, service: T): Promise<T> {
  closers.add(() => service.close());
  await service.start();
  return service;
}

/** ffmpeg, the music folder, the database and the in-process bus: what the services share. */
async function openShared(
  config: StationConfig,
  logger: Logger,
  closers: Closers,
): Promise<{ dataDir: string; database: DbHandle; bus: Bus }> {
  const dataDir = resolve(config.DATA_DIR);
  await mkdir(dataDir, { recursive: true });

  const ffmpeg = locateFfmpeg({ ffmpegPath: config.FFMPEG_PATH });
  logger.info(
    { ffmpeg: ffmpeg.path, source: ffmpeg.source, version: await ffmpegVersion(ffmpeg.path) },
    'ffmpeg found',
  );
  await ensureMusic(resolve(config.MUSIC_DIR), ffmpeg.path, logger);

  const databaseUrl = config.DATABASE_URL ?? `sqlite:${resolve(dataDir, 'radio.db')}`;
  const database = await createDb(databaseUrl);
  closers.add(() => database.close());
  const migrated = await migrateToLatest(database.db);
  logger.info({ database: database.target, applied: migrated.applied }, 'database ready');

  const bus: Bus = createMemoryBus({ logger });
  closers.add(() => bus.close());
  return { dataDir, database, bus };
}

function family(host: string): 'IPv4' | 'IPv6' {
  return isIP(host) === 6 ? 'IPv6' : 'IPv4';
}

/**
 * The api sits behind the web server on this machine: it believes the loopback hop's
 * X-Forwarded-* (the web server keeps what a trusted proxy in front of it sent), besides the
 * proxies the operator lists.
 */
function apiTrustedProxies(config: StationConfig): string[] {
  return [...new Set([...config.TRUSTED_PROXIES, '127.0.0.1', '::1'])];
}

/** Starts the four services in the order each needs the one before; returns their URLs. */
async function startServices(
  config: StationConfig,
  loggerFor: ServiceLoggers,
  closers: Closers,
): Promise<{ urls: StationUrl[]; setupCode: string | null }> {
  const logger = loggerFor('embedded');
  const { dataDir, database: db, bus } = await openShared(config, logger, closers);

  const streamOptions = {
    ...streamOptionsFromConfig({ ...config, DATA_DIR: dataDir }),
    runningConfig: describeConfig(embeddedSpec, config),
  };
  const stream = await started(
    closers,
    createStreamServer(streamOptions, { logger: loggerFor('stream'), bus }),
  );
  // The scheduler pushes to the stream server here; stream.url is the address listeners are
  // given (PUBLIC_STREAM_URL, else PUBLIC_URL), which may be a TLS proxy in front of it.
  const withStream = {
    ...config,
    DATA_DIR: dataDir,
    STREAM_URL: localUrl({
      address: config.STREAM_HOST,
      port: stream.port,
      family: family(config.STREAM_HOST),
    }),
    PUBLIC_STREAM_URL: listenerStreamBase(config.PUBLIC_STREAM_URL, config.PUBLIC_URL),
  };
  // Each service keeps its own metrics registry, served on its own port (the scheduler's on the
  // live port), as when they run in their own containers.
  const metrics = new SchedulerMetrics(
    { user: config.ADMIN_USER, password: config.ADMIN_PASSWORD },
    bus,
  );
  closers.add(async () => metrics.close());
  const schedulerOptions = schedulerOptionsFromConfig(withStream);
  const scheduler = createScheduler(
    { ...schedulerOptions, live: { ...schedulerOptions.live, metrics } },
    { db, bus, logger: loggerFor('scheduler') },
  );
  metrics.readMounts(() => scheduler.status().mounts);
  metrics.start();
  await started(closers, scheduler);
  // The api relays the browser's go-live to the live port this process opened (LIVE_PORT may be 0).
  const liveHost = config.LIVE_HOST === '0.0.0.0' ? '127.0.0.1' : config.LIVE_HOST;
  const liveUrl = `http://${liveHost}:${scheduler.livePort}`;
  const api = await started(
    closers,
    createApi(
      apiOptionsFromConfig({
        ...withStream,
        LIVE_URL: liveUrl,
        TRUSTED_PROXIES: apiTrustedProxies(config),
      }),
      {
        db,
        bus,
        logger: loggerFor('api'),
      },
    ),
  );

  const webLogger = loggerFor('web');
  if ((await ensureWebBuild({ logger: webLogger })).built) logger.info('web app built');
  const webOptions = webOptionsFromConfig({ ...config, API_URL: api.url });
  const web = await started(closers, createWebServer(webOptions, { logger: webLogger }));

  const urls = [
    ...STATION_MOUNTS.map((mount) => ({
      name: `Stream (${mount.label})`,
      url: `${stream.url}${mount.path}`,
    })),
    { name: 'Stream server admin', url: `${stream.url}/admin/` },
    { name: 'Control port', url: `telnet://${scheduler.controlHost}:${scheduler.controlPort}` },
    { name: 'Live input (DJs)', url: `${liveUrl}/live` },
    { name: 'REST API', url: `${api.url}/api/radio/status` },
    { name: 'Web app', url: config.PUBLIC_URL ?? web.url },
  ];
  return { urls, setupCode: api.setupCode };
}

/**
 * Starts every service of the station in this process with the in-process bus and SQLite
 * (DESIGN.md: embedded mode). A part that fails to start stops the parts before it.
 */
export async function startStation(
  config: StationConfig,
  loggerFor: ServiceLoggers,
): Promise<RunningStation> {
  const closers = new Closers(loggerFor('embedded'));
  let running: Awaited<ReturnType<typeof startServices>>;
  try {
    running = await startServices(config, loggerFor, closers);
  } catch (error) {
    await closers.closeAll();
    throw error;
  }
  let stopping: Promise<void> | undefined;
  return {
    ...running,
    stop: () => {
      stopping ??= closers.closeAll();
      return stopping;
    },
  };
}
