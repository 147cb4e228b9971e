import {
  createLogger,
  createRedisBus,
  describeConfig,
  loadConfigOrExit,
  runService,
  streamSpec,
} from '@radio/core';
import { streamOptionsFromConfig } from './options.ts';
import { createStreamServer } from './server.ts';

/*
 * The stream server's container entry point: configuration from the environment only, a Redis
 * bus when REDIS_URL is set (none otherwise: the server runs alone), stop on SIGINT/SIGTERM.
 */
const config = loadConfigOrExit(streamSpec);
const logger = createLogger({ service: 'stream', level: config.LOG_LEVEL });

await runService(logger, 'stream server', async (closers) => {
  const bus = config.REDIS_URL
    ? await createRedisBus({ url: config.REDIS_URL, logger })
    : undefined;
  if (bus) closers.add(() => bus.close());
  const server = createStreamServer(
    { ...streamOptionsFromConfig(config), runningConfig: describeConfig(streamSpec, config) },
    { logger, bus },
  );
  closers.add(() => server.close());
  await server.start();
  logger.info({ url: server.url, port: server.port }, `stream server listening on ${server.url}`);
});
