import type { Socket } from 'node:net';
import { ERRORS, type StreamErrorCode } from './errors.ts';

/*
 * Responses are written straight to the socket in Icecast's form: an HTTP/1.0 status line,
 * `Connection: Close`, the same headers in the same order, then the body, then close. Listener
 * and source responses need that raw control anyway (no chunked framing, ICY headers written
 * `name:value` as Icecast does); using it for every response keeps them all alike.
 */

const STATUS_TEXT: Record<number, string> = {
  200: 'OK',
  204: 'No Content',
  302: 'Found',
  303: 'See Other',
  400: 'Bad Request',
  401: 'Authentication Required',
  403: 'Forbidden',
  404: 'File Not Found',
  405: 'Method Not Allowed',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

let dateSecond = -1;
let dateText = '';

/** The `Date` header value, formatted at most once a second (a burst of listeners shares it). */
export function httpDate(now = Date.now()): string {
  const second = Math.floor(now / 1000);
  if (second !== dateSecond) {
    dateSecond = second;
    dateText = new Date(second * 1000).toUTCString();
  }
  return dateText;
}

export interface HeadOptions {
  serverId: string;
  contentType?: string | undefined;
  /** Lines that Icecast puts right after Content-Type (WWW-Authenticate, Location). */
  early?: readonly string[];
  /** Lines after the CORS header (icy-*, Content-Length ...), each without CRLF. */
  late?: readonly string[];
}

export function responseHead(status: number, options: HeadOptions): string {
  let head = `HTTP/1.0 ${status} ${STATUS_TEXT[status] ?? 'Unknown'}\r\nServer: ${options.serverId}\r\nConnection: Close\r\nDate: ${httpDate()}\r\n`;
  if (options.contentType) head += `Content-Type: ${options.contentType}\r\n`;
  for (const line of options.early ?? []) head += `${line}\r\n`;
  head +=
    'Cache-Control: no-cache, no-store\r\nExpires: Mon, 26 Jul 1997 05:00:00 GMT\r\nPragma: no-cache\r\nAccess-Control-Allow-Origin: *\r\n';
  for (const line of options.late ?? []) head += `${line}\r\n`;
  return `${head}\r\n`;
}

export interface Reply {
  status: number;
  contentType?: string | undefined;
  early?: readonly string[];
  late?: readonly string[];
  body?: string | Buffer;
  /** Adds `Content-Length` (Icecast sends it for its XML/JSON answers, not for errors). */
  length?: boolean;
}

/** Writes the whole response and closes the socket; a no-op on a socket already closing. */
export function sendReply(socket: Socket, serverId: string, reply: Reply, headOnly = false): void {
  if (socket.destroyed || socket.writableEnded) return;
  const body =
    reply.body === undefined
      ? Buffer.alloc(0)
      : typeof reply.body === 'string'
        ? Buffer.from(reply.body, 'utf8')
        : reply.body;
  const late = reply.length
    ? [...(reply.late ?? []), `Content-Length: ${body.length}`]
    : reply.late;
  const head = Buffer.from(
    responseHead(reply.status, {
      serverId,
      contentType: reply.contentType,
      early: reply.early,
      late,
    }),
    'latin1',
  );
  socket.end(headOnly || body.length === 0 ? head : Buffer.concat([head, body]));
  closeAfterReply(socket);
}

/**
 * After the response: read and drop whatever the client still sends, so its close is seen,
 * and close anyway after a few seconds. Destroying at once could reset the connection before
 * the client has read the answer, when it had sent more than we read.
 */
export function closeAfterReply(socket: Socket): void {
  socket.setTimeout(5000, () => socket.destroy());
  socket.resume();
}

/** The response for an error code of the table, in Icecast's body style. */
export function errorReply(code: StreamErrorCode, message?: string): Reply {
  const entry = ERRORS[code];
  const text = message ?? entry.message;
  if (entry.status === 401) {
    return {
      status: 401,
      contentType: 'text/plain; charset=utf-8',
      early: ['WWW-Authenticate: Basic realm="Icecast2 Server"'],
      body: text,
    };
  }
  if (entry.body === 'plain') {
    return { status: entry.status, contentType: 'text/plain; charset=utf-8', body: text };
  }
  return {
    status: entry.status,
    contentType: 'text/html; charset=utf-8',
    body: `<html><head><title>Error ${entry.status}</title></head><body><b>${entry.status} - ${escapeHtml(text)}</b></body></html>\r\n`,
  };
}

/** The refusal of a client with too many failed logins: 429, and when it may try again. */
export function loginLimitedReply(waitMs: number): Reply {
  return {
    ...errorReply('STREAM_LOGIN_LIMITED'),
    early: [`Retry-After: ${Math.ceil(waitMs / 1000)}`],
  };
}

export function escapeHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}
