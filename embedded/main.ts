// `pnpm start`: the whole station in one process (embedded mode). Configured by the
// environment like the containers, but every secret may be left unset.
import { resolve } from 'node:path';
import {
  embeddedSpec,
  fileAndConsoleDestination,
  loadConfigOrExit,
  serviceLoggers,
} from '@radio/core';
import { ensureSecrets } from './secrets.ts';
import { startStation } from './station.ts';

const dataDir = resolve(process.env.DATA_DIR || 'data');
const secrets = await ensureSecrets(dataDir, process.env);
const config = {
  ...loadConfigOrExit(embeddedSpec, { ...process.env, ...secrets.values }),
  ...secrets.values,
};
const logFile = resolve(dataDir, 'logs', 'station.log');
const loggerFor = serviceLoggers({
  level: config.LOG_LEVEL,
  destination: fileAndConsoleDestination(logFile),
});
const logger = loggerFor('embedded');

let station: Awaited<ReturnType<typeof startStation>>;
try {
  station = await startStation(config, loggerFor);
} catch (error) {
  logger.fatal({ err: error }, 'the station could not start');
  console.error(`The station could not start: ${(error as Error).message}`);
  console.error(`Details: ${logFile}`);
  process.exit(1);
}

console.log('\nThe station is on air.\n');
for (const { name, url } of station.urls) console.log(`  ${name.padEnd(22)} ${url}`);
if (station.setupCode) {
  console.log(`\n  First start: open the web app and create the admin account with the`);
  console.log(`  setup code ${station.setupCode}  (used once; also in the log)`);
}
if (secrets.generated.includes('ADMIN_PASSWORD')) {
  console.log(`\n  Stream admin login: ${config.ADMIN_USER} / ${config.ADMIN_PASSWORD}`);
  console.log(`  (generated once; kept in ${secrets.file})`);
}
console.log(`\n  Logs: ${logFile}`);
console.log('  Press Ctrl-C to stop.\n');

let signals = 0;
const shutdown = (signal: NodeJS.Signals): void => {
  signals += 1;
  if (signals > 1) {
    console.log('Stopping now.');
    process.exit(130);
  }
  console.log(`\n${signal}: stopping the station ...`);
  station.stop().then(
    () => {
      console.log('Stopped.');
      logger.flush(() => process.exit(0));
    },
    (error: unknown) => {
      console.error(`Stop failed: ${(error as Error).message}`);
      process.exit(1);
    },
  );
};
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
