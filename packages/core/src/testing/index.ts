// Helpers for the station's tests (every package's): bounded polling, a logger whose lines can
// be read back, and a free loopback port. Not used by services at run time.
import { once } from 'node:events';
import { createServer } from 'node:net';
import { createLogger, type Logger } from '../logger.ts';

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

/** Polls until `condition` holds; fails naming `what` after `timeoutMs`. */
export async function waitFor(
  what: string,
  condition: () => boolean | Promise<boolean>,
  timeoutMs = 10_000,
  intervalMs = 10,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** A TCP port on 127.0.0.1 that was free a moment ago (for peers that cannot take port 0). */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  await once(server, 'close');
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  return address.port;
}
