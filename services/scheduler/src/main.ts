// The scheduler alone (its container): configured by the environment only.
import { resolve } from 'node:path';
import {
  type Bus,
  createLogger,
  createMemoryBus,
  createRedisBus,
  exitOnSignals,
  loadConfigOrExit,
  schedulerSpec,
} from '@radio/core';
import { createDb, migrateToLatest } from '@radio/db';
import { schedulerOptionsFromConfig } from './options.ts';
import { createScheduler } from './scheduler.ts';

const config = loadConfigOrExit(schedulerSpec);
const logger = createLogger({ service: 'scheduler', level: config.LOG_LEVEL });

const database = await createDb(config.DATABASE_URL, { cwd: resolve('.') });
await migrateToLatest(database.db);
const bus: Bus = config.REDIS_URL
  ? await createRedisBus({ url: config.REDIS_URL, logger })
  : createMemoryBus({ logger });
const scheduler = createScheduler(schedulerOptionsFromConfig(config), {
  db: database,
  bus,
  logger,
});

exitOnSignals(logger, async () => {
  await scheduler.stop();
  await bus.close();
  await database.close();
});

try {
  await scheduler.start();
} catch (error) {
  logger.fatal({ err: error }, 'the scheduler could not start');
  await bus.close().catch(() => {});
  await database.close().catch(() => {});
  logger.flush(() => process.exit(1));
}
