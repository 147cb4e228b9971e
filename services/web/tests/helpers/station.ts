import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createMemoryBus, embeddedSpec, type Logger, loadConfig, locateFfmpeg } from '@radio/core';
import { generateDemoLibrary } from '@radio/core/demo-library';
import { createWebServer } from '../../server/index.ts';

export interface TestStation {
  /** How it was started: the embedded launcher, or the factories put together here. */
  readonly via: 'embedded' | 'assembled';
  readonly webUrl: string;
  readonly musicDir: string;
  /** The code that makes the first admin, as the station printed it at start. */
  readonly setupCode: string;
  stop(): Promise<void>;
}

/** A fresh station has no admin yet, so it holds a setup code. */
function requireSetupCode(code: string | null): string {
  if (!code) throw new Error('the station started without a setup code: it should have one');
  return code;
}

const REPO_ROOT = resolve(fileURLToPath(new URL('../../../../', import.meta.url)));

/** A few demo tracks and one broken file, so a scan has something invalid to report. */
export async function makeMusic(dir: string, logger: Logger): Promise<void> {
  await mkdir(dir, { recursive: true });
  const existing = await readdir(dir).catch(() => []);
  if (existing.length > 0) return;
  const ffmpeg = locateFfmpeg({});
  await generateDemoLibrary(dir, { ffmpegPath: ffmpeg.path, logger });
  await writeFile(join(dir, 'Broken - Not Audio.mp3'), randomBytes(4096));
}

// biome-ignore lint/suspicious/noExplicitAny: the factories are typed in their own packages
type AnyFunction = (...args: any[]) => any;

type Stoppable = { stop(): Promise<void> } | { close(): Promise<void> };

/**
 * The whole station in this process. The embedded launcher is used when it starts the web
 * server too; until then the services are put together here as the launcher will do it.
 * `env` adds to or overrides the launcher's variables (separation minutes, say).
 */
export async function startTestStation(
  logger: Logger,
  env: Readonly<Record<string, string>> = {},
): Promise<TestStation> {
  const root = await mkdtemp(join(tmpdir(), 'radio-web-e2e-'));
  const musicDir = join(root, 'music');
  const dataDir = join(root, 'data');
  await mkdir(dataDir, { recursive: true });
  await makeMusic(musicDir, logger);
  const secrets = {
    ADMIN_PASSWORD: randomBytes(9).toString('base64url'),
    SOURCE_PASSWORD: randomBytes(9).toString('base64url'),
    SESSION_SECRET: randomBytes(24).toString('base64url'),
  };
  const cleanupDir = () => rm(root, { recursive: true, force: true });

  // 1. The launcher, when it runs the web server.
  try {
    const embedded = (await import(
      pathToFileURL(join(REPO_ROOT, 'embedded', 'station.ts')).href
    )) as {
      startStation: (
        config: unknown,
        loggerFor: (service: string) => Logger,
      ) => Promise<{
        urls: readonly { name: string; url: string }[];
        setupCode: string | null;
        stop(): Promise<void>;
      }>;
    };
    const config = {
      ...loadConfig(embeddedSpec, {
        MUSIC_DIR: musicDir,
        DATA_DIR: dataDir,
        STREAM_HOST: '127.0.0.1',
        STREAM_PORT: '0',
        CONTROL_PORT: '0',
        LIVE_PORT: '0',
        API_HOST: '127.0.0.1',
        API_PORT: '0',
        WEB_HOST: '127.0.0.1',
        WEB_PORT: '0',
        CROSSFADE_SECONDS: '0',
        LOG_LEVEL: 'warn',
        ...env,
        ...secrets,
      }),
      ...secrets,
      ADMIN_USER: 'admin',
    };
    const station = await embedded.startStation(config, () => logger);
    const web = station.urls.find((entry) => /web|app/i.test(entry.name));
    if (web) {
      return {
        via: 'embedded',
        webUrl: web.url.replace(/\/+$/, ''),
        musicDir,
        setupCode: requireSetupCode(station.setupCode),
        async stop() {
          await station.stop();
          await cleanupDir();
        },
      };
    }
    await station.stop();
  } catch (error) {
    logger.warn(
      { err: error },
      'the embedded launcher did not start; putting the station together here',
    );
  }

  // 2. The same parts, by hand.
  const parts: Stoppable[] = [];
  const stopAll = async () => {
    for (const part of parts.splice(0).reverse()) {
      await ('stop' in part ? part.stop() : part.close()).catch((error: unknown) =>
        logger.warn({ err: error }, 'stop failed'),
      );
    }
  };
  try {
    // Loaded by name at run time: their sources are type-checked by their own packages, with
    // their own declarations (the api's express augmentation), not by this one.
    const load = (name: string): Promise<unknown> => import(name);
    const { createDb, migrateToLatest } = (await load('@radio/db')) as {
      createDb: (url: string) => Promise<{ db: unknown; close(): Promise<void> }>;
      migrateToLatest: AnyFunction;
    };
    const { createStreamServer } = (await load('@radio/stream')) as {
      createStreamServer: AnyFunction;
    };
    const { createScheduler } = (await load('@radio/scheduler')) as {
      createScheduler: AnyFunction;
    };
    const { createApi } = (await load('@radio/api')) as { createApi: AnyFunction };

    const db = await createDb(`sqlite:${join(dataDir, 'radio.db')}`);
    parts.push({ close: () => db.close() });
    await migrateToLatest(db.db);
    const bus = createMemoryBus({ logger });
    parts.push({ close: () => bus.close() });

    const stream = createStreamServer(
      {
        host: '127.0.0.1',
        port: 0,
        adminUser: 'admin',
        adminPassword: secrets.ADMIN_PASSWORD,
        sourcePassword: secrets.SOURCE_PASSWORD,
        dataDir,
      },
      { logger, bus },
    );
    parts.push(stream);
    await stream.start();

    const scheduler = createScheduler(
      {
        musicDir,
        streamUrl: stream.url,
        sourcePassword: secrets.SOURCE_PASSWORD,
        admin: { user: 'admin', password: secrets.ADMIN_PASSWORD },
        controlHost: '127.0.0.1',
        controlPort: 0,
        crossfadeSeconds: 0,
      },
      { db, bus, logger },
    );
    parts.push(scheduler);
    await scheduler.start();

    const api = createApi(
      { sessionSecret: secrets.SESSION_SECRET, streamUrl: stream.url, musicDir, scryptCost: 14 },
      { db, bus, logger },
    );
    parts.push(api);
    await api.start();

    const web = createWebServer({ apiUrl: api.url, host: '127.0.0.1', port: 0 }, { logger });
    parts.push(web);
    await web.start();
    return {
      via: 'assembled',
      webUrl: web.url,
      musicDir,
      setupCode: requireSetupCode(api.setupCode),
      async stop() {
        await stopAll();
        await cleanupDir();
      },
    };
  } catch (error) {
    await stopAll();
    await cleanupDir();
    throw error;
  }
}
