import { type Bus, createRedisBus, locateFfmpeg, silentLogger } from '@radio/core';
import { generateTestLibrary } from '@radio/core/test-audio';
import { createScheduler, type Scheduler, type SchedulerOptions } from '@radio/scheduler';
import { REDIS_URL } from './databases.ts';
import type { TestApi } from './test-api.ts';

export interface RealScheduler {
  scheduler: Scheduler;
  close(): Promise<void>;
}

/**
 * The real scheduler beside a test api started with `{ scheduler: false, bus: 'redis' }`, on its
 * own Redis bus connection and database handle as its own container would have, playing a
 * generated library of 6 s songs. No stream server: its output goes nowhere.
 */
export async function startRealScheduler(
  t: TestApi,
  options: Partial<SchedulerOptions> = {},
): Promise<RealScheduler> {
  const ffmpegPath = locateFfmpeg().path;
  await generateTestLibrary(t.musicDir, { ffmpegPath, durationSeconds: 6 });
  const logger = silentLogger();
  const db = await t.database.open();
  const bus: Bus = await createRedisBus({ url: REDIS_URL, logger, prefix: t.redis?.prefix ?? '' });
  const scheduler = createScheduler(
    {
      musicDir: t.musicDir,
      streamUrl: 'http://127.0.0.1:9',
      sourcePassword: 'not-used',
      controlHost: '127.0.0.1',
      controlPort: 0,
      crossfadeSeconds: 0,
      ffmpegPath,
      watch: false,
      ...options,
    },
    { db, bus, logger },
  );
  await scheduler.start();
  return {
    scheduler,
    close: async () => {
      await scheduler.close();
      await bus.close();
    },
  };
}
