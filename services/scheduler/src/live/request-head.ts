import type { Socket } from 'node:net';

/*
 * The request head of a connection to the live port, read from the raw socket: a source's body
 * is an endless stream without Content-Length (and legacy clients say `SOURCE … ICE/1.0`),
 * which node:http would not serve, and the limits below are what keep a slow or endless head
 * from holding a socket.
 */

export interface RequestHead {
  method: string;
  /** The path without the query (`/live`). */
  path: string;
  query: URLSearchParams;
  /** Lower-case names; repeated headers joined with `, `. */
  headers: Map<string, string>;
  /** Bytes that came after the head (a source's first audio). */
  rest: Buffer;
}

export type HeadOutcome =
  | { kind: 'head'; head: RequestHead }
  | { kind: 'bad'; status: 400 | 431; reason: string }
  | { kind: 'timeout' }
  | { kind: 'gone' };

const REQUEST_LINE = /^([A-Z][A-Z_-]{0,31}) (\/\S{0,8000}) ([A-Z]{2,8}\/\d\.\d)$/;
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Index just past the blank line ending the head (CRLF or bare LF), or -1. */
function headEnd(buf: Buffer, from: number): number {
  let i = Math.max(0, from - 3);
  for (;;) {
    const lf = buf.indexOf(10, i);
    if (lf < 0) return -1;
    if (buf[lf + 1] === 10) return lf + 2;
    if (buf[lf + 1] === 13 && buf[lf + 2] === 10) return lf + 3;
    i = lf + 1;
  }
}

function parse(buf: Buffer, end: number): HeadOutcome {
  const lines = buf.toString('latin1', 0, end).split(/\r?\n/);
  const match = REQUEST_LINE.exec(lines[0] ?? '');
  if (!match) return { kind: 'bad', status: 400, reason: 'malformed request line' };
  const [, method, target] = match as unknown as [string, string, string];
  const q = target.indexOf('?');
  let path: string;
  try {
    path = decodeURIComponent(q < 0 ? target : target.slice(0, q));
  } catch {
    return { kind: 'bad', status: 400, reason: 'malformed percent-encoding in the path' };
  }
  const headers = new Map<string, string>();
  for (const line of lines.slice(1)) {
    if (line === '') continue;
    const colon = line.indexOf(':');
    const name = line.slice(0, Math.max(0, colon)).toLowerCase();
    if (colon <= 0 || !TOKEN.test(name)) {
      return { kind: 'bad', status: 400, reason: 'malformed header line' };
    }
    const value = line.slice(colon + 1).trim();
    const previous = headers.get(name);
    headers.set(name, previous === undefined ? value : `${previous}, ${value}`);
  }
  const query = new URLSearchParams(q < 0 ? '' : target.slice(q + 1));
  return { kind: 'head', head: { method, path, query, headers, rest: buf.subarray(end) } };
}

/**
 * Reads a new connection's head, then pauses the socket and calls `done` once. A head longer
 * than `maxBytes` is refused (431) as soon as it is; one that has not ended after `timeoutMs`
 * (slowloris: a byte now and then) times out however much it has sent.
 */
export function readHead(
  socket: Socket,
  limits: { maxBytes: number; timeoutMs: number },
  done: (outcome: HeadOutcome) => void,
): void {
  let buf: Buffer = Buffer.alloc(0);
  let finished = false;
  const timer = setTimeout(() => finish({ kind: 'timeout' }), limits.timeoutMs);
  const finish = (outcome: HeadOutcome): void => {
    if (finished) return;
    finished = true;
    clearTimeout(timer);
    socket.removeListener('data', onData);
    socket.removeListener('end', onGone);
    socket.removeListener('close', onGone);
    socket.pause();
    done(outcome);
  };
  const onData = (chunk: Buffer): void => {
    const from = buf.length;
    buf = from === 0 ? chunk : Buffer.concat([buf, chunk]);
    const end = headEnd(buf, from);
    if (end < 0 ? buf.length > limits.maxBytes : end > limits.maxBytes) {
      finish({ kind: 'bad', status: 431, reason: `request head over ${limits.maxBytes} bytes` });
    } else if (end >= 0) {
      finish(parse(buf, end));
    }
  };
  const onGone = (): void => finish({ kind: 'gone' });
  socket.on('data', onData);
  socket.once('end', onGone);
  socket.once('close', onGone);
}
