import {
  type Bus,
  createLogger,
  createRedisBus,
  describeConfig,
  exitOnSignals,
  loadConfigOrExit,
  streamSpec,
} from '@radio/core';
import { createStreamServer } from './server.ts';

/*
 * The stream server's container entry point: configuration from the environment only, a Redis
 * bus when REDIS_URL is set (none otherwise: the server runs alone), stop on SIGINT/SIGTERM.
 */
const config = loadConfigOrExit(streamSpec);
const logger = createLogger({ service: 'stream', level: config.LOG_LEVEL });

let bus: Bus | undefined;
if (config.REDIS_URL) {
  try {
    bus = await createRedisBus({ url: config.REDIS_URL, logger });
  } catch (error) {
    logger.fatal({ err: error }, 'cannot connect to Redis');
    process.exit(1);
  }
}

let server: Awaited<ReturnType<typeof createStreamServer>>;
try {
  server = await createStreamServer(
    {
      host: config.STREAM_HOST,
      port: config.STREAM_PORT,
      ...(config.PUBLIC_STREAM_URL ? { publicUrl: config.PUBLIC_STREAM_URL } : {}),
      adminUser: config.ADMIN_USER,
      adminPassword: config.ADMIN_PASSWORD,
      sourcePassword: config.SOURCE_PASSWORD,
      dataDir: config.DATA_DIR,
      runningConfig: describeConfig(streamSpec, config),
    },
    { logger, bus },
  );
} catch (error) {
  logger.fatal({ err: error }, 'stream server did not start');
  await bus?.close();
  process.exit(1);
}
logger.info({ url: server.url, port: server.port }, `stream server listening on ${server.url}`);

exitOnSignals(logger, async () => {
  await server.close();
  await bus?.close();
});
