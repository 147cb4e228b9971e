import { createLogger, exitOnSignals, loadConfigOrExit, webSpec } from '@radio/core';
import { createWebServer, WebNotBuiltError, type WebServer } from './index.ts';

/*
 * The web container's entry point: configuration from the environment only (WEB_HOST,
 * WEB_PORT, API_URL, LOG_LEVEL), stop on SIGINT/SIGTERM. It serves a ready build; the image
 * builds the app, and embedded mode builds it on first start (ensureWebBuild).
 */
const config = loadConfigOrExit(webSpec);
const logger = createLogger({ service: 'web', level: config.LOG_LEVEL });

async function start(): Promise<WebServer> {
  try {
    return await createWebServer(
      { host: config.WEB_HOST, port: config.WEB_PORT, apiUrl: config.API_URL },
      { logger },
    );
  } catch (error) {
    const message =
      error instanceof WebNotBuiltError
        ? error.message
        : `The web server did not start: ${(error as Error).message}`;
    logger.fatal({ err: error }, message);
    // One plain line for `docker logs` and terminals, written before the process ends.
    process.stderr.write(`${message}\n`);
    process.exit(1);
  }
}

const server = await start();
logger.info({ url: server.url, api: config.API_URL }, `web app on ${server.url}`);

exitOnSignals(logger, () => server.close());
