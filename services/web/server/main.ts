import { createLogger, loadConfigOrExit, runService, webSpec } from '@radio/core';
import { createWebServer, WebNotBuiltError, webOptionsFromConfig } from './index.ts';

/*
 * The web container's entry point: configuration from the environment only (WEB_HOST,
 * WEB_PORT, API_URL, TRUSTED_PROXIES, PUBLIC_URL, LOG_LEVEL), stop on SIGINT/SIGTERM. It serves a ready build; the image
 * builds the app, and embedded mode builds it on first start (ensureWebBuild).
 */
const config = loadConfigOrExit(webSpec);
const logger = createLogger({ service: 'web', level: config.LOG_LEVEL });

/** A missing build needs no more words than how to make one. */
function exitNotBuilt(error: WebNotBuiltError): never {
  logger.fatal({ err: error }, error.message);
  // One plain line for `docker logs` and terminals, written before the process ends.
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
}

await runService(logger, 'web server', async (closers) => {
  const web = createWebServer(webOptionsFromConfig(config), { logger });
  closers.add(() => web.close());
  await web.start().catch((error: unknown) => {
    if (error instanceof WebNotBuiltError) exitNotBuilt(error);
    throw error;
  });
  const open = config.PUBLIC_URL ?? web.url;
  logger.info(
    { url: web.url, publicUrl: config.PUBLIC_URL, api: config.API_URL },
    `web app on ${open}`,
  );
});
