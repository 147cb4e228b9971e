import type { Socket } from 'node:net';
import type { ServerContext } from './context.ts';
import { closeAfterReply, responseHead, sendReply } from './http-reply.ts';
import { Listener } from './listener.ts';
import type { Mount } from './mount.ts';
import { logRawRequest, refuse } from './raw-reply.ts';
import { isFull, isTrustedEdge, sendElsewhere } from './relay/overflow.ts';
import type { RequestHead } from './request-head.ts';
import { clientAddress, listenerSessionEnded } from './sessions/listener-sessions.ts';

/**
 * Not sent by Icecast; lets browser code (fetch with `Icy-MetaData: 1`) read the ICY headers.
 * Clients that do not know it ignore it.
 */
const EXPOSE_ICY_HEADERS =
  'Access-Control-Expose-Headers: icy-br, icy-description, icy-genre, icy-metaint, icy-name, icy-pub, icy-url, ice-audio-info';

/**
 * Serves GET, HEAD and OPTIONS on a mount path: finds the mount (or its fallback while it has
 * no source), answers CORS preflights and HEAD probes, applies the listener limits (the
 * server's, then the mount's) and hands an admitted listener to its mount, which sends the
 * burst and keeps it fed.
 */
export function serveListener(ctx: ServerContext, socket: Socket, head: RequestHead): void {
  const since = Date.now();
  if (head.method === 'OPTIONS') {
    answerPreflight(ctx, socket, head, since);
    return;
  }
  const mount = servingMount(ctx, head.path);
  if (mount === undefined) {
    refuse(ctx, socket, head, 'STREAM_NOT_FOUND');
    return;
  }
  const icy = head.headers.get('icy-metadata')?.trim() === '1';
  const headText = responseHead(200, {
    serverId: ctx.options.serverId,
    contentType: mount.contentType,
    late: [EXPOSE_ICY_HEADERS, ...mount.listenerHeaders(icy)],
  });
  if (head.method === 'HEAD') {
    // Icecast answers HEAD with 400; players probing a stream expect the GET headers.
    socket.end(headText, 'latin1');
    closeAfterReply(socket);
    logRawRequest(ctx, socket, head, 200, 0, since);
    return;
  }
  const { maxListeners, maxListenersPerMount } = ctx.options;
  const perMount = mount.config.maxListeners ?? maxListenersPerMount;
  if (maxListeners !== null && isFull(ctx, maxListeners) && !isTrustedEdge(ctx, head)) {
    if (!sendElsewhere(ctx, socket, head)) refuse(ctx, socket, head, 'STREAM_SERVER_FULL');
    return;
  }
  if (perMount !== null && mount.listenerCount >= perMount) {
    refuse(ctx, socket, head, 'STREAM_MAX_LISTENERS');
    return;
  }
  admit(ctx, socket, head, mount, icy, headText, since);
}

function answerPreflight(
  ctx: ServerContext,
  socket: Socket,
  head: RequestHead,
  since: number,
): void {
  sendReply(socket, ctx.options.serverId, {
    status: 204,
    late: [
      'Access-Control-Allow-Methods: GET, HEAD, OPTIONS',
      'Access-Control-Allow-Headers: Icy-MetaData, Range, Content-Type',
      EXPOSE_ICY_HEADERS,
      'Access-Control-Max-Age: 86400',
    ],
  });
  logRawRequest(ctx, socket, head, 204, 0, since);
}

/** The mount that serves a path: its own while it is active, else its active fallback. */
function servingMount(ctx: ServerContext, path: string): Mount | undefined {
  const requested = ctx.mounts.get(path);
  if (requested?.active) return requested;
  const fallbackPath = requested?.config.fallbackMount;
  const fallback = fallbackPath ? ctx.mounts.get(fallbackPath) : undefined;
  return fallback?.active ? fallback : undefined;
}

function admit(
  ctx: ServerContext,
  socket: Socket,
  head: RequestHead,
  mount: Mount,
  icy: boolean,
  headText: string,
  since: number,
): void {
  const listener = new Listener({
    id: ctx.nextId(),
    socket,
    ip: clientAddress(ctx, socket, head) ?? '-',
    userAgent: head.headers.get('user-agent') ?? '',
    referer: head.headers.get('referer') ?? '',
    requestLine: `${head.method} ${head.target} ${head.version}`,
    icy: icy && mount.format.icy,
    home: head.path,
  });
  ctx.stats.record('listener-connected');
  socket.setNoDelay(true);
  // An edge's pull is not audience: its listeners are recorded by the edge that serves them.
  const audience = !isTrustedEdge(ctx, head);
  socket.once('close', () => listenerClosed(ctx, listener, since, audience));
  mount.addListener(listener, Buffer.from(headText, 'latin1'));
  // Flowing with no 'data' listener: whatever the client sends (a body on GET) is dropped,
  // and a reset is noticed.
  socket.resume();
}

function listenerClosed(
  ctx: ServerContext,
  listener: Listener,
  since: number,
  audience: boolean,
): void {
  const now = Date.now();
  ctx.stats.record('listener-left');
  if (audience) listenerSessionEnded(ctx, listener, now);
  listener.mount?.removeListener(listener, true);
  listener.socket.removeAllListeners('drain');
  ctx.logs.access({
    ip: listener.ip,
    requestLine: listener.requestLine,
    status: 200,
    bytes: listener.bytesSent,
    referer: listener.referer,
    userAgent: listener.userAgent,
    seconds: (now - since) / 1000,
  });
}
