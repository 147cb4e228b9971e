import type { Socket } from 'node:net';
import type { ServerContext } from './context.ts';
import { ERRORS, type StreamErrorCode } from './errors.ts';
import { errorReply, sendReply } from './http-reply.ts';
import type { RequestHead } from './request-head.ts';

/** The access log line of a request served from the raw socket (a source or a listener). */
export function logRawRequest(
  ctx: Pick<ServerContext, 'logs'>,
  socket: Socket,
  head: RequestHead,
  status: number,
  bytes: number,
  since: number,
): void {
  ctx.logs.access({
    ip: socket.remoteAddress ?? '-',
    requestLine: `${head.method} ${head.target} ${head.version}`,
    status,
    bytes,
    referer: head.headers.get('referer'),
    userAgent: head.headers.get('user-agent'),
    seconds: (Date.now() - since) / 1000,
  });
}

/** Refuses a source or listener with the code's answer (head only for HEAD) and logs it. */
export function refuse(
  ctx: Pick<ServerContext, 'options' | 'logs'>,
  socket: Socket,
  head: RequestHead,
  code: StreamErrorCode,
): void {
  sendReply(socket, ctx.options.serverId, errorReply(code), head.method === 'HEAD');
  logRawRequest(ctx, socket, head, ERRORS[code].status, 0, Date.now());
}
