import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import { apiOptionsFromConfig, createApi } from '@radio/api';
import {
  type Bus,
  type ConfigOf,
  createMemoryBus,
  describeConfig,
  embeddedSpec,
  ffmpegVersion,
  locateFfmpeg,
  type ServiceLoggers,
  STATION_MOUNTS,
} from '@radio/core';
import { createDb, migrateToLatest } from '@radio/db';
import { createScheduler, schedulerOptionsFromConfig } from '@radio/scheduler';
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
  /** Stops every part in the reverse order of start. Idempotent. */
  stop(): Promise<void>;
}

/** What a part of the station leaves behind once started: its URLs and how to stop it. */
interface StartedPart {
  readonly urls?: readonly StationUrl[];
  stop(): Promise<void>;
}

/**
 * Starts every service of the station in this process with the in-process bus and SQLite
 * (DESIGN.md: embedded mode). A part that fails to start stops the parts before it.
 */
export async function startStation(
  config: StationConfig,
  loggerFor: ServiceLoggers,
): Promise<RunningStation> {
  const logger = loggerFor('embedded');
  const started: StartedPart[] = [];
  const stopAll = async (): Promise<void> => {
    for (const part of started.splice(0).reverse()) {
      await part.stop().catch((error: unknown) => logger.error({ err: error }, 'stop failed'));
    }
  };

  try {
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
    started.push({ stop: () => database.close() });
    const migrated = await migrateToLatest(database.db);
    logger.info({ database: database.target, applied: migrated.applied }, 'database ready');

    const bus: Bus = createMemoryBus({ logger });
    started.push({ stop: () => bus.close() });

    const stream = createStreamServer(
      {
        ...streamOptionsFromConfig({ ...config, DATA_DIR: dataDir }),
        runningConfig: describeConfig(embeddedSpec, config),
      },
      { logger: loggerFor('stream'), bus },
    );
    started.push({ stop: () => stream.close() });
    await stream.start();
    started.push({
      urls: [
        ...STATION_MOUNTS.map((mount) => ({
          name: `Stream (${mount.label})`,
          url: `${stream.url}${mount.path}`,
        })),
        { name: 'Stream server admin', url: `${stream.url}/admin/` },
      ],
      stop: async () => {},
    });

    const scheduler = createScheduler(
      schedulerOptionsFromConfig({ ...config, STREAM_URL: stream.url }),
      { db: database, bus, logger: loggerFor('scheduler') },
    );
    started.push({ stop: () => scheduler.close() });
    await scheduler.start();
    started.push({
      urls: [
        { name: 'Control port', url: `telnet://${scheduler.controlHost}:${scheduler.controlPort}` },
      ],
      stop: async () => {},
    });

    const api = createApi(apiOptionsFromConfig({ ...config, STREAM_URL: stream.url }), {
      db: database,
      bus,
      logger: loggerFor('api'),
    });
    started.push({ stop: () => api.close() });
    await api.start();
    started.push({
      urls: [{ name: 'REST API', url: `${api.url}/api/radio/status` }],
      stop: async () => {},
    });

    const webLogger = loggerFor('web');
    if ((await ensureWebBuild({ logger: webLogger })).built) logger.info('web app built');
    const webOptions = webOptionsFromConfig({ ...config, API_URL: api.url });
    const web = createWebServer(webOptions, { logger: webLogger });
    started.push({ stop: () => web.close() });
    await web.start();
    started.push({ urls: [{ name: 'Web app', url: web.url }], stop: async () => {} });
  } catch (error) {
    await stopAll();
    throw error;
  }

  let stopping: Promise<void> | undefined;
  return {
    urls: started.flatMap((part) => part.urls ?? []),
    stop: () => {
      stopping ??= stopAll();
      return stopping;
    },
  };
}
