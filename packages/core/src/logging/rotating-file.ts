import {
  closeSync,
  existsSync,
  fstatSync,
  mkdirSync,
  openSync,
  renameSync,
  writeSync,
} from 'node:fs';
import { dirname } from 'node:path';

export interface RotatingFileOptions {
  /** A file grows to this size, then becomes `<path>.1` and a new one starts. Default 10 MiB. */
  maxBytes?: number;
  /** Old files kept (`.1` … `.keep`); the oldest goes. Default 3. */
  keep?: number;
  /** A longer line is cut (JSON lines keep their shape, see `capLine`). Default 8 KiB. */
  maxLineBytes?: number;
  /** A write failed (a full disk): told once until a write succeeds again. */
  onError?: (error: Error) => void;
}

/** Longest string a capped JSON line keeps of each field. */
const FIELD_CHARS = 512;

function cutText(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}… [${text.length - max} more]`;
}

function cutFields(value: unknown): unknown {
  if (typeof value === 'string') return cutText(value, FIELD_CHARS);
  if (Array.isArray(value)) return value.slice(0, 20).map(cutFields);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, each]) => [key, cutFields(each)]));
  }
  return value;
}

/**
 * A log line no longer than `maxBytes` (with its newline). A JSON line (pino's) stays JSON:
 * its long strings are cut, so a 16 KB User-Agent still leaves a line a log shipper reads;
 * other text is cut at the limit. The result always ends with one newline.
 */
export function capLine(line: string, maxBytes: number): string {
  const text = line.endsWith('\n') ? line.slice(0, -1) : line;
  if (Buffer.byteLength(text) < maxBytes) return `${text}\n`;
  if (text.startsWith('{')) {
    try {
      const cut = JSON.stringify(cutFields(JSON.parse(text)));
      if (Buffer.byteLength(cut) < maxBytes) return `${cut}\n`;
    } catch {
      // Not JSON after all: cut as text.
    }
  }
  const room = Math.max(0, maxBytes - 32);
  const head = Buffer.from(text)
    .subarray(0, room)
    .toString('utf8')
    .replace(/\uFFFD$/, '');
  return `${head} … [line cut]\n`;
}

/**
 * An append-only log file that rotates by size, as logrotate would (`<path>.1` is the newest
 * old file), with every line capped: whatever a client sends, the files of one log never take
 * more than about `maxBytes × (keep + 1)`. Lines are written synchronously, as Icecast writes
 * its logs: nothing is lost at exit and nothing piles up in memory behind a slow disk. It has
 * the `write` and `flushSync` of a pino destination.
 */
export class RotatingFile {
  readonly #path: string;
  readonly #maxBytes: number;
  readonly #keep: number;
  readonly #maxLineBytes: number;
  readonly #onError: (error: Error) => void;
  #fd: number | null;
  #size: number;
  #failing = false;

  constructor(path: string, options: RotatingFileOptions = {}) {
    this.#path = path;
    this.#maxBytes = options.maxBytes ?? 10 * 1024 * 1024;
    this.#keep = options.keep ?? 3;
    this.#maxLineBytes = options.maxLineBytes ?? 8 * 1024;
    this.#onError = options.onError ?? (() => {});
    if (!(this.#maxBytes > 0) || !(this.#keep >= 1) || !(this.#maxLineBytes >= 64)) {
      throw new RangeError('RotatingFile: maxBytes > 0, keep >= 1 and maxLineBytes >= 64');
    }
    mkdirSync(dirname(path), { recursive: true });
    this.#fd = openSync(path, 'a', 0o640);
    this.#size = fstatSync(this.#fd).size;
  }

  get path(): string {
    return this.#path;
  }

  /** Appends one line (a newline is added when missing); false when it could not be written. */
  write(line: string): boolean {
    if (this.#fd === null) return false;
    const capped = Buffer.from(capLine(line, this.#maxLineBytes));
    try {
      if (this.#size > 0 && this.#size + capped.length > this.#maxBytes) this.#rotate();
      writeSync(this.#fd, capped);
      this.#size += capped.length;
      this.#failing = false;
      return true;
    } catch (error) {
      // A full disk: the line is lost, the process goes on, and the failure is told once.
      if (!this.#failing) this.#onError(error as Error);
      this.#failing = true;
      return false;
    }
  }

  /** Every line is in the file once `write` returns; kept for pino's `flush`. */
  flushSync(): void {}

  close(): void {
    if (this.#fd !== null) closeSync(this.#fd);
    this.#fd = null;
  }

  /** Renames the files along; whatever fails, a file is open again at `path` afterwards. */
  #rotate(): void {
    try {
      for (let i = this.#keep - 1; i >= 1; i--) {
        const from = `${this.#path}.${i}`;
        if (existsSync(from)) renameSync(from, `${this.#path}.${i + 1}`);
      }
      renameSync(this.#path, `${this.#path}.1`);
    } finally {
      if (this.#fd !== null) closeSync(this.#fd);
      this.#fd = openSync(this.#path, 'a', 0o640);
      this.#size = fstatSync(this.#fd).size;
    }
  }
}
