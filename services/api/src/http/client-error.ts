import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { API_ERRORS, type ApiErrorCode } from '../errors.ts';

/**
 * Requests Node's HTTP parser refuses before express sees them (a URL or headers beyond the
 * 16 KiB limit, broken HTTP) still get the api's JSON error shape instead of a bare status line.
 */
export function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const code: ApiErrorCode =
    error.code === 'HPE_HEADER_OVERFLOW' ? 'API_HEADERS_TOO_LARGE' : 'API_MALFORMED_REQUEST';
  const { status, message } = API_ERRORS[code];
  const body = JSON.stringify({ error: { code, message } });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Connection: close\r\n\r\n' +
      body,
  );
}
