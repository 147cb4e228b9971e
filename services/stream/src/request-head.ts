/*
 * The request head of a raw connection, read before deciding who handles it: sources (SOURCE
 * and PUT, whose body is an endless stream without Content-Length that Node's HTTP parser would
 * take for the next request) and listeners (whose response is ours to write byte by byte) are
 * served from the socket directly; everything else goes on to node:http with the bytes put back.
 */

export interface RequestHead {
  method: string;
  /** The request target as sent (`/admin/metadata?mode=updinfo&song=...`). */
  target: string;
  /** The decoded path without the query (`/radio.mp3`). */
  path: string;
  /** `HTTP/1.0`, `HTTP/1.1`, or `ICE/1.0` from old source clients. */
  version: string;
  /** Lower-case names; repeated headers are joined with `, `. */
  headers: Map<string, string>;
  /** Bytes that came after the head (a source's first audio, a GET's body ...). */
  rest: Buffer;
}

export type HeadResult =
  | { ok: true; head: RequestHead; length: number }
  | { ok: false; reason: string };

/** Index just past the blank line that ends the head (CRLF or bare LF lines), or -1. */
export function findHeadEnd(buf: Buffer, from = 0): number {
  let i = Math.max(0, from - 3);
  for (;;) {
    const lf = buf.indexOf(10, i);
    if (lf < 0) return -1;
    if (buf[lf + 1] === 10) return lf + 2;
    if (buf[lf + 1] === 13 && buf[lf + 2] === 10) return lf + 3;
    i = lf + 1;
  }
}

const REQUEST_LINE = /^([A-Z][A-Z_-]{0,31}) (\S{1,8000}) ([A-Z]{2,8}\/\d\.\d)$/;
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
// Field values: visible ASCII, spaces, tabs and bytes >= 0x80 (read as Latin-1); no controls.
const FIELD_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/** Parses the head that ends at `end` (from `findHeadEnd`). */
export function parseRequestHead(buf: Buffer, end: number): HeadResult {
  const text = buf.toString('latin1', 0, end);
  const lines = text.split(/\r?\n/);
  const requestLine = lines[0] ?? '';
  const match = REQUEST_LINE.exec(requestLine);
  if (!match) return { ok: false, reason: 'malformed request line' };
  const [, method, target, version] = match as unknown as [string, string, string, string];
  if (!target.startsWith('/')) return { ok: false, reason: 'request target is not a path' };
  const query = target.indexOf('?');
  let path: string;
  try {
    path = decodeURIComponent(query < 0 ? target : target.slice(0, query));
  } catch {
    return { ok: false, reason: 'malformed percent-encoding in the path' };
  }
  if (path.includes('\0')) return { ok: false, reason: 'NUL in the path' };

  const headers = new Map<string, string>();
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i] as string;
    if (line === '') continue;
    const colon = line.indexOf(':');
    if (colon <= 0) return { ok: false, reason: 'malformed header line' };
    const name = line.slice(0, colon).toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (!TOKEN.test(name) || !FIELD_VALUE.test(value)) {
      return { ok: false, reason: 'malformed header line' };
    }
    const previous = headers.get(name);
    headers.set(name, previous === undefined ? value : `${previous}, ${value}`);
  }
  return {
    ok: true,
    head: { method, target, path, version, headers, rest: buf.subarray(end) },
    length: end,
  };
}

/** Query parameters of a request target (`?mount=/radio.mp3&mode=updinfo`). */
export function queryOf(target: string): URLSearchParams {
  const index = target.indexOf('?');
  return new URLSearchParams(index < 0 ? '' : target.slice(index + 1));
}
