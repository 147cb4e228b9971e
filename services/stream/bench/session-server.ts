/*
 * The stream server as the sessions rows of `bench:listeners` run it: configured by the
 * environment like `pnpm start`, always with its Redis bus, and with session recording on or
 * off as argv[2] says, so that recording is the only difference between the two runs.
 */
import {
  createLogger,
  createRedisBus,
  loadConfigOrExit,
  runService,
  streamSpec,
} from '@radio/core';
import { createStreamServer, streamOptionsFromConfig } from '../src/index.ts';

const record = process.argv[2] !== 'off';
const config = loadConfigOrExit(streamSpec);
const logger = createLogger({ service: 'stream', level: config.LOG_LEVEL });
if (!config.REDIS_URL) throw new Error('session-server.ts needs REDIS_URL');
const url = config.REDIS_URL;

await runService(logger, 'stream server', async (closers) => {
  const bus = await createRedisBus({ url, logger });
  closers.add(() => bus.close());
  const server = createStreamServer(
    { ...streamOptionsFromConfig(config), recordSessions: record },
    { logger, bus },
  );
  closers.add(() => server.close());
  await server.start();
});
