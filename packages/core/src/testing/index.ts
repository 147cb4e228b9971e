// Helpers for the station's tests (every package's): bounded polling, a logger whose lines can
// be read back, and a free loopback port. Not used by services at run time.
import { createLogger, type Logger } from '../logging/logger.ts';

export interface LogLine {
  level: string;
  msg: string;
  [field: string]: unknown;
}

/** A debug-level logger that keeps its lines as parsed JSON. */
export function captureLogger(): { logger: Logger; lines: LogLine[] } {
  const lines: LogLine[] = [];
  const logger = createLogger({
    service: 'test',
    level: 'debug',
    destination: { write: (line: string) => void lines.push(JSON.parse(line) as LogLine) },
  });
  return { logger, lines };
}

/**
 * Polls `check` until it gives a value other than undefined or false, and returns that value.
 * A check that throws is tried again; after `timeoutMs` the wait fails naming `what` and the
 * last error. Generous by default: CI machines are busy.
 */
export async function waitFor<T>(
  what: string,
  check: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs = 20_000,
  intervalMs = 25,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined && value !== false) return value;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) {
      const cause = lastError === undefined ? '' : `: ${String(lastError)}`;
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${cause}`);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** An ADTS header: MPEG-4 AAC-LC, sampling index `rate`, `channels`, frame `length`. */
export function adtsHeader(rate: number, channels: number, length: number): Buffer {
  return Buffer.from([
    0xff,
    0xf1,
    (1 << 6) | (rate << 2) | (channels >> 2),
    ((channels & 3) << 6) | ((length >> 11) & 3),
    (length >> 3) & 0xff,
    ((length & 7) << 5) | 0x1f,
    0xfc,
  ]);
}

export { childPidWithArg } from './child-process.ts';
export { freePort } from './free-port.ts';
export { type IcecastRelay, RealIcecast } from './icecast.ts';
