import { type DestinationStream, type LevelWithSilent, type Logger, pino } from 'pino';

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

/**
 * A destination for a process a person watches in a terminal (embedded mode): every line at
 * the logger's level goes to `file`, and only warnings and errors also to stdout, so the
 * terminal keeps the start-up banner readable.
 */
export function fileAndConsoleDestination(
  file: string,
  consoleLevel: LevelWithSilent = 'warn',
): DestinationStream {
  const streams: { level: LevelWithSilent; stream: DestinationStream }[] = [
    { level: 'trace', stream: pino.destination({ dest: file, mkdir: true, sync: false }) },
  ];
  if (consoleLevel !== 'silent')
    streams.push({ level: consoleLevel, stream: pino.destination({ fd: 1, sync: false }) });
  return pino.multistream(streams as Parameters<typeof pino.multistream>[0]);
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
