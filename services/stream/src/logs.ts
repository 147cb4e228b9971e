import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import { join } from 'node:path';
import { componentLogger, type Logger } from '@radio/core';

const KEEP_LINES = 100;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

export interface AccessEntry {
  ip: string;
  user?: string | undefined;
  /** `GET /radio.mp3 HTTP/1.1` */
  requestLine: string;
  status: number;
  bytes: number;
  referer?: string | undefined;
  userAgent?: string | undefined;
  /** Seconds connected (Icecast appends it to the combined format). */
  seconds: number;
  /** Routine requests (health checks) go to the logger at debug level only. */
  quiet?: boolean;
}

export type ErrorLevel = 'info' | 'warn' | 'error';

const pad = (n: number): string => String(n).padStart(2, '0');

/** `[21/Nov/2026:09:02:26 +0000]`, the combined log format's time. */
function accessTime(date: Date): string {
  return `${pad(date.getUTCDate())}/${MONTHS[date.getUTCMonth()]}/${date.getUTCFullYear()}:${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())} +0000`;
}

/** `[2026-11-21  09:02:26]`, Icecast's error log time. */
function errorTime(date: Date): string {
  return `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}  ${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}`;
}

const quote = (text: string | undefined): string =>
  text ? `"${text.replace(/["\\]/g, '\\$&').replace(/[\r\n]/g, ' ')}"` : '"-"';

/**
 * The access log (combined format plus Icecast's seconds-connected field) and the error log,
 * as files under `<dataDir>/logs/` like Icecast's, as logger lines, and as the last lines kept
 * in memory for the admin page.
 */
export class ServerLogs {
  readonly #dataDir: string | null;
  readonly #log: Logger;
  readonly #accessLog: Logger;
  #accessFile: WriteStream | null = null;
  #errorFile: WriteStream | null = null;
  readonly #access: string[] = [];
  readonly #errors: string[] = [];

  constructor(dataDir: string | null, root: Logger) {
    this.#dataDir = dataDir;
    this.#log = componentLogger(root, 'events');
    this.#accessLog = componentLogger(root, 'access');
  }

  /** Opens the log files (when there is a data folder); until then lines are kept in memory. */
  open(): void {
    if (this.#dataDir === null) return;
    const dir = join(this.#dataDir, 'logs');
    try {
      mkdirSync(dir, { recursive: true });
      this.#accessFile = this.#open(join(dir, 'access.log'));
      this.#errorFile = this.#open(join(dir, 'error.log'));
    } catch (error) {
      this.#log.warn({ err: error, dir }, 'cannot write log files; keeping logs in memory only');
    }
  }

  #open(path: string): WriteStream {
    const stream = createWriteStream(path, { flags: 'a' });
    stream.on('error', (error) => this.#log.warn({ err: error, path }, 'log file write failed'));
    return stream;
  }

  access(entry: AccessEntry): void {
    const line = `${entry.ip} - ${entry.user || '-'} [${accessTime(new Date())}] ${quote(entry.requestLine)} ${entry.status} ${entry.bytes} ${quote(entry.referer)} ${quote(entry.userAgent)} ${Math.round(entry.seconds)}`;
    this.#keep(this.#access, line);
    this.#accessFile?.write(`${line}\n`);
    this.#accessLog[entry.quiet ? 'debug' : 'info'](
      {
        ip: entry.ip,
        request: entry.requestLine,
        status: entry.status,
        bytes: entry.bytes,
        seconds: Math.round(entry.seconds),
      },
      'access',
    );
  }

  /** A notable event: to the error log file (Icecast keeps INFO there too) and the logger. */
  event(
    level: ErrorLevel,
    component: string,
    message: string,
    fields: Record<string, unknown> = {},
  ): void {
    const label = level === 'info' ? 'INFO' : level === 'warn' ? 'WARN' : 'EROR';
    const details = Object.entries(fields)
      .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`)
      .join(' ');
    const line = `[${errorTime(new Date())}] ${label} ${component} ${message}${details ? ` (${details})` : ''}`;
    this.#keep(this.#errors, line);
    this.#errorFile?.write(`${line}\n`);
    this.#log[level]({ area: component, ...fields }, message);
  }

  recentAccess(count = 20): string[] {
    return this.#access.slice(-count);
  }

  recentErrors(count = 20): string[] {
    return this.#errors.slice(-count);
  }

  async close(): Promise<void> {
    const files = [this.#accessFile, this.#errorFile];
    this.#accessFile = this.#errorFile = null;
    await Promise.all(
      files.map(
        (file) =>
          new Promise<void>((resolve) => {
            if (!file) return resolve();
            file.end(() => resolve());
          }),
      ),
    );
  }

  #keep(lines: string[], line: string): void {
    lines.push(line);
    if (lines.length > KEEP_LINES) lines.shift();
  }
}
