import { type DestinationStream, type LevelWithSilent, type Logger, pino } from 'pino';
import { RotatingFile } from './rotating-file.ts';

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

/** The root logger of each service that shares a process and a destination (embedded mode). */
export type ServiceLoggers = (service: string) => Logger;

/**
 * Root loggers on one destination, one per service: a child of one service's logger cannot
 * name another service, since pino would write `service` twice in every line.
 */
export function serviceLoggers(options: Omit<LoggerOptions, 'service'>): ServiceLoggers {
  return (service) => createLogger({ ...options, service });
}

/**
 * A destination for a process a person watches in a terminal (embedded mode): every line at
 * the logger's level goes to `file` (rotated by size, lines capped: see RotatingFile), and
 * only warnings and errors also to stdout, so the terminal keeps the start-up banner readable.
 */
export function fileAndConsoleDestination(
  file: string,
  consoleLevel: LevelWithSilent = 'warn',
): DestinationStream {
  const rotating = new RotatingFile(file, {
    onError: (error) =>
      process.stderr.write(`cannot write the log file ${file}: ${error.message}\n`),
  });
  const streams: { level: LevelWithSilent; stream: DestinationStream }[] = [
    { level: 'trace', stream: rotating },
  ];
  if (consoleLevel !== 'silent')
    streams.push({ level: consoleLevel, stream: pino.destination({ fd: 1, sync: false }) });
  return pino.multistream(streams as Parameters<typeof pino.multistream>[0]);
}

/**
 * A child logger for one component; every line carries `component` and the extra context.
 * `parent` is the service's root logger: pino appends a child's bindings to its parent's, so
 * a component made from another component would write `component` twice in every line.
 */
export function componentLogger(
  parent: Logger,
  component: string,
  context: Record<string, unknown> = {},
): Logger {
  const inherited = parent.bindings().component;
  if (inherited !== undefined) {
    throw new Error(
      `the "${component}" logger was made from the "${String(inherited)}" one: make it from the service's root logger`,
    );
  }
  return parent.child({ component, ...context });
}

/** A logger that writes nothing, for tests that do not look at logs. */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
