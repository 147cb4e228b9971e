// `pnpm --dir services/api start`: the api alone, configured by the environment (its container).
import {
  apiSpec,
  type Bus,
  Closers,
  createLogger,
  createMemoryBus,
  createRedisBus,
  exitOnSignals,
  loadConfigOrExit,
} from '@radio/core';
import { createDb, migrateToLatest } from '@radio/db';
import { Redis } from 'ioredis';
import { createApi } from './api.ts';

const config = loadConfigOrExit(apiSpec);
const logger = createLogger({ service: 'api', level: config.LOG_LEVEL });

// Whatever has started so far is stopped, in reverse order; a start still under way ends
// with the process.
const closers = new Closers(logger);
exitOnSignals(logger, () => closers.closeAll());

try {
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
    // Sessions and rate limits. Commands fail fast while Redis is away (503), not queue up.
    redis = new Redis(config.REDIS_URL, {
      maxRetriesPerRequest: 1,
      enableOfflineQueue: false,
      lazyConnect: true,
    });
    redis.on('error', (error) => logger.warn({ err: error }, 'redis connection error'));
    await redis.connect();
    const client = redis;
    closers.add(() => client.quit());
  } else {
    logger.warn(
      'REDIS_URL is not set: in-process bus (no scheduler can reach this api) and sessions in the database',
    );
    bus = createMemoryBus({ logger });
    closers.add(() => bus.close());
  }

  const api = await createApi(
    {
      sessionSecret: config.SESSION_SECRET,
      streamUrl: config.STREAM_URL,
      publicStreamUrl: config.PUBLIC_STREAM_URL,
      musicDir: config.MUSIC_DIR,
      trustProxy: config.TRUST_PROXY,
      registrationOpen: config.REGISTRATION === 'open',
      // With registration open the first user to register becomes admin; a closed station
      // gets its first admin from ADMIN_USER / ADMIN_PASSWORD instead.
      bootstrapAdmin:
        config.REGISTRATION === 'closed'
          ? { username: config.ADMIN_USER, password: config.ADMIN_PASSWORD }
          : undefined,
    },
    { db: database, bus, logger, redis },
  );
  closers.add(() => api.close());
  await api.listen(config.API_PORT, config.API_HOST);
} catch (error) {
  logger.fatal({ err: error }, 'the api could not start');
  await closers.closeAll();
  logger.flush(() => process.exit(1));
}
