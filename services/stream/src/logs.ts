import { join } from 'node:path';
import { capLine, componentLogger, type Logger, LogThrottle, RotatingFile } from '@radio/core';

const KEEP_LINES = 100;
/** Longest line of either log, in the files and in memory: a 16 KB User-Agent is cut. */
const MAX_LINE_BYTES = 8 * 1024;
/** Old files kept beside each log (`access.log.1` … `.3`). */
const KEEP_FILES = 3;
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

/**
 * Control characters as `\xHH` (as Apache writes them): a request line or header cannot end a
 * log line early or send escape sequences to the terminal of whoever reads the log.
 */
function printable(text: string): string {
  return text.replace(/\p{Cc}/gu, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

const quote = (text: string | undefined): string =>
  text ? `"${printable(text.replace(/["\\]/g, '\\$&'))}"` : '"-"';

/**
 * The access log (combined format plus Icecast's seconds-connected field) and the error log,
 * as files under `<dataDir>/logs/` like Icecast's, as logger lines, and as the last lines kept
 * in memory for the admin page. The files rotate at `fileBytes` and every line is capped, so
 * whatever clients send, the logs take a bounded amount of disk.
 */
export class ServerLogs {
  readonly #dataDir: string | null;
  readonly #fileBytes: number;
  readonly #log: Logger;
  readonly #accessLog: Logger;
  readonly #refusals = new LogThrottle();
  #accessFile: RotatingFile | null = null;
  #errorFile: RotatingFile | null = null;
  readonly #access: string[] = [];
  readonly #errors: string[] = [];

  constructor(dataDir: string | null, fileBytes: number, root: Logger) {
    this.#dataDir = dataDir;
    this.#fileBytes = fileBytes;
    this.#log = componentLogger(root, 'events');
    this.#accessLog = componentLogger(root, 'access');
  }

  /** Opens the log files (when there is a data folder); until then lines are kept in memory. */
  open(): void {
    if (this.#dataDir === null) return;
    const dir = join(this.#dataDir, 'logs');
    try {
      this.#accessFile = this.#open(join(dir, 'access.log'));
      this.#errorFile = this.#open(join(dir, 'error.log'));
    } catch (error) {
      this.#log.warn({ err: error, dir }, 'cannot write log files; keeping logs in memory only');
    }
  }

  #open(path: string): RotatingFile {
    return new RotatingFile(path, {
      maxBytes: this.#fileBytes,
      keep: KEEP_FILES,
      maxLineBytes: MAX_LINE_BYTES,
      onError: (error) => this.#log.warn({ err: error, path }, 'log file write failed'),
    });
  }

  access(entry: AccessEntry): void {
    const line = `${printable(entry.ip)} - ${entry.user || '-'} [${accessTime(new Date())}] ${quote(entry.requestLine)} ${entry.status} ${entry.bytes} ${quote(entry.referer)} ${quote(entry.userAgent)} ${Math.round(entry.seconds)}`;
    this.#write(this.#access, this.#accessFile, line);
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
    const line = `[${errorTime(new Date())}] ${label} ${component} ${printable(message)}${details ? ` (${printable(details)})` : ''}`;
    this.#write(this.#errors, this.#errorFile, line);
    this.#log[level]({ area: component, ...fields }, message);
  }

  /**
   * A client refused for `reason`: a warning once per client and reason a minute, telling how
   * many more were refused meanwhile (`held`), so a flood of bad requests cannot flood the log.
   */
  refusal(
    component: string,
    reason: string,
    client: string,
    fields: Record<string, unknown> = {},
  ): void {
    const held = this.#refusals.take(`${component} ${reason} ${client}`);
    if (held === null) return;
    this.event('warn', component, reason, { ip: client, ...fields, ...(held > 0 ? { held } : {}) });
  }

  recentAccess(count = 20): string[] {
    return this.#access.slice(-count);
  }

  recentErrors(count = 20): string[] {
    return this.#errors.slice(-count);
  }

  close(): void {
    this.#accessFile?.close();
    this.#errorFile?.close();
    this.#accessFile = this.#errorFile = null;
  }

  #write(lines: string[], file: RotatingFile | null, text: string): void {
    const line = capLine(text, MAX_LINE_BYTES);
    file?.write(line);
    lines.push(line.slice(0, -1));
    if (lines.length > KEEP_LINES) lines.shift();
  }
}
