import { pino, type Logger, type LevelWithSilent, type DestinationStream } from 'pino';

export type { Logger } from 'pino';

export interface LoggerOptions {
  level?: LevelWithSilent;
  /** The service name written into every line (`service`). */
  service: string;
  /** Where lines go; stdout when omitted. Tests pass a stream to read them back. */
  destination?: DestinationStream;
}

/**
 * The root logger of one service: JSON lines with `service`, `level` as a label and an ISO
 * time, so `docker logs` and log shippers need no parsing rules of their own.
 */
export function createLogger(options: LoggerOptions): Logger {
  return pino(
    {
      level: options.level ?? 'info',
      base: { service: options.service },
      formatters: { level: (label) => ({ level: label }) },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    options.destination ?? pino.destination({ fd: 1, sync: false }),
  );
}

/** A child logger for one component; every line carries `component` and the extra context. */
export function componentLogger(
  parent: Logger,
  component: string,
  context: Record<string, unknown> = {},
): Logger {
  return parent.child({ component, ...context });
}

/** A logger that writes nothing, for tests that do not look at logs. */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
