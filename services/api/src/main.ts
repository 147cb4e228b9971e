import {
  apiSpec,
  type Bus,
  createLogger,
  createMemoryBus,
  createRedisBus,
  type Logger,
  loadConfigOrExit,
  runService,
} from '@radio/core';
import { createDb, migrateToLatest } from '@radio/db';
import { Redis } from 'ioredis';
import { createApi } from './api.ts';
import { apiOptionsFromConfig } from './options.ts';

/*
 * `pnpm --dir services/api start`: the api alone, configured by the environment (its
 * container). With REDIS_URL: the Redis bus, and sessions and rate limits in Redis; without:
 * an in-process bus and sessions in the database.
 */
const config = loadConfigOrExit(apiSpec);
const logger = createLogger({ service: 'api', level: config.LOG_LEVEL });

/** Sessions and rate limits. Commands fail fast while Redis is away (503), not queue up. */
async function connectRedis(url: string, log: Logger): Promise<Redis> {
  const redis = new Redis(url, {
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    lazyConnect: true,
  });
  redis.on('error', (error) => log.warn({ err: error }, 'redis connection error'));
  await redis.connect();
  return redis;
}

await runService(logger, 'api', async (closers) => {
  const database = await createDb(config.DATABASE_URL, {
    onError: (error) => logger.warn({ err: error }, 'database connection error'),
  });
  closers.add(() => database.close());
  const migrated = await migrateToLatest(database.db);
  logger.info({ database: database.target, applied: migrated.applied }, 'database ready');

  let bus: Bus;
  let redis: Redis | undefined;
  if (config.REDIS_URL) {
    bus = await createRedisBus({ url: config.REDIS_URL, logger });
    closers.add(() => bus.close());
    const client = await connectRedis(config.REDIS_URL, logger);
    closers.add(() => client.quit());
    redis = client;
  } else {
    logger.warn(
      'REDIS_URL is not set: in-process bus (no scheduler can reach this api) and sessions in the database',
    );
    bus = createMemoryBus({ logger });
    closers.add(() => bus.close());
  }

  const api = createApi(apiOptionsFromConfig(config), { db: database, bus, logger, redis });
  closers.add(() => api.close());
  await api.start();
});
