import type { Socket } from 'node:net';
import { closeAfterReply, httpDate } from '../http-reply.ts';
import { queryOf, type RequestHead } from '../request-head.ts';
import type { HlsReply, HlsService } from './service.ts';

/** Under this prefix the HLS routes answer (unless a mount has the path). */
export const HLS_PREFIX = '/hls/';

const STATUS_TEXT = {
  200: 'OK',
  204: 'No Content',
  302: 'Found',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
};

/**
 * Answers an HLS request on the raw socket. Unlike the Icecast responses (HTTP/1.0, close),
 * these keep the connection open for HTTP/1.1 clients: a player fetches a segment every few
 * seconds, and a CDN many, so each would otherwise cost a new TCP connection. `ip` is the
 * listener's address (X-Forwarded-For of a trusted proxy already applied); `next` reads the
 * connection's next request.
 */
export function serveHls(
  hls: HlsService,
  serverId: string,
  socket: Socket,
  head: RequestHead,
  ip: string | null,
  next: (socket: Socket) => void,
): void {
  const keepAlive =
    head.version === 'HTTP/1.1' && head.headers.get('connection')?.toLowerCase() !== 'close';
  let reply: HlsReply;
  if (head.method === 'OPTIONS') reply = { status: 204 };
  else if (head.method !== 'GET' && head.method !== 'HEAD') reply = { status: 405 };
  else {
    const token = queryOf(head.target).get('s');
    const client = { ip, userAgent: head.headers.get('user-agent') ?? '' };
    reply = hls.handle(head.path, token, client, head.target);
  }
  const body =
    reply.body === undefined
      ? Buffer.alloc(0)
      : typeof reply.body === 'string'
        ? Buffer.from(reply.body, 'utf8')
        : reply.body;
  let text = `HTTP/1.1 ${reply.status} ${STATUS_TEXT[reply.status]}\r\nServer: ${serverId}\r\nDate: ${httpDate()}\r\n`;
  if (reply.contentType) text += `Content-Type: ${reply.contentType}\r\n`;
  if (reply.location) text += `Location: ${reply.location}\r\n`;
  text += `Cache-Control: ${reply.cache ?? 'no-cache'}\r\nAccess-Control-Allow-Origin: *\r\n`;
  if (head.method === 'OPTIONS') text += 'Access-Control-Allow-Methods: GET, HEAD, OPTIONS\r\n';
  text += `Content-Length: ${body.length}\r\nConnection: ${keepAlive ? 'keep-alive' : 'close'}\r\n\r\n`;
  const headBuf = Buffer.from(text, 'latin1');
  const withBody = head.method === 'GET' && body.length > 0;
  if (!keepAlive) {
    socket.end(withBody ? Buffer.concat([headBuf, body]) : headBuf);
    closeAfterReply(socket);
    return;
  }
  socket.write(withBody ? Buffer.concat([headBuf, body]) : headBuf);
  if (head.rest.length > 0) socket.unshift(head.rest);
  next(socket);
}
