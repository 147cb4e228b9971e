import type { Logger } from './logging/logger.ts';

/**
 * What a process has started, stopped in the reverse order of start. A failing stop is logged
 * and the others still run.
 */
export class Closers {
  readonly #closers: Array<() => Promise<unknown>> = [];
  readonly #logger: Logger;

  constructor(logger: Logger) {
    this.#logger = logger;
  }

  add(close: () => Promise<unknown>): void {
    this.#closers.push(close);
  }

  async closeAll(): Promise<void> {
    for (const close of this.#closers.splice(0).reverse()) {
      await close().catch((error: unknown) => this.#logger.error({ err: error }, 'stop failed'));
    }
  }
}

/**
 * A service's main(): on SIGINT or SIGTERM run `stop`, flush the logs and exit 0 (1 if the stop
 * failed or takes longer than `forceAfterMs`); a second signal exits at once.
 */
export function exitOnSignals(
  logger: Logger,
  stop: () => Promise<void>,
  forceAfterMs = 10_000,
): void {
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals): void => {
    if (stopping) process.exit(130);
    stopping = true;
    logger.info({ signal }, 'stopping');
    setTimeout(() => process.exit(1), forceAfterMs).unref();
    stop().then(
      () => logger.flush(() => process.exit(0)),
      (error: unknown) => {
        logger.error({ err: error }, 'stop failed');
        logger.flush(() => process.exit(1));
      },
    );
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
}

/**
 * What every service object offers (`create…(options, deps)` builds it and does no I/O):
 * `start` opens what it needs (listens, connects, watches) and resolves once it serves;
 * `close` stops it and is idempotent (every call returns the first call's promise), whether
 * the service started, failed to start or never started. A closed service is not restarted.
 */
export interface Service {
  start(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The body of a service's main: `start` adds each thing it opens to `closers` as soon as it
 * exists. SIGINT or SIGTERM closes them in the reverse order and exits. A start that fails is
 * logged, printed as one plain line (what `docker logs` shows first), closes what had started
 * and exits 1.
 */
export async function runService(
  logger: Logger,
  name: string,
  start: (closers: Closers) => Promise<void>,
): Promise<void> {
  const closers = new Closers(logger);
  exitOnSignals(logger, () => closers.closeAll());
  try {
    await start(closers);
  } catch (error) {
    const message = `the ${name} could not start: ${error instanceof Error ? error.message : String(error)}`;
    logger.fatal({ err: error }, message);
    process.stderr.write(`${message}\n`);
    await closers.closeAll();
    logger.flush(() => process.exit(1));
  }
}
