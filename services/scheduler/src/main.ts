// The scheduler alone (its container): configured by the environment only.
import { resolve } from 'node:path';
import {
  type Bus,
  createLogger,
  createMemoryBus,
  createRedisBus,
  loadConfigOrExit,
  runService,
  schedulerSpec,
} from '@radio/core';
import { createDb, migrateToLatest } from '@radio/db';
import { SchedulerMetrics } from './metrics/scheduler-metrics.ts';
import { schedulerOptionsFromConfig } from './options.ts';
import { createScheduler } from './scheduler.ts';

const config = loadConfigOrExit(schedulerSpec);
const logger = createLogger({ service: 'scheduler', level: config.LOG_LEVEL });

await runService(logger, 'scheduler', async (closers) => {
  const database = await createDb(config.DATABASE_URL, { cwd: resolve('.') });
  closers.add(() => database.close());
  await migrateToLatest(database.db);
  const bus: Bus = config.REDIS_URL
    ? await createRedisBus({ url: config.REDIS_URL, logger })
    : createMemoryBus({ logger });
  closers.add(() => bus.close());
  const metrics = new SchedulerMetrics(
    { user: config.ADMIN_USER, password: config.ADMIN_PASSWORD },
    bus,
  );
  closers.add(async () => metrics.close());
  const options = schedulerOptionsFromConfig(config);
  const scheduler = createScheduler(
    { ...options, live: { ...options.live, metrics } },
    { db: database, bus, logger },
  );
  closers.add(() => scheduler.close());
  metrics.readMounts(() => scheduler.status().mounts);
  metrics.start();
  await scheduler.start();
});
