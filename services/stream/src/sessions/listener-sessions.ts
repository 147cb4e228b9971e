import type { Socket } from 'node:net';
import type { ServerContext } from '../context.ts';
import type { EndedHlsSession } from '../hls/sessions.ts';
import type { Listener } from '../listener.ts';
import type { RequestHead } from '../request-head.ts';
import type { SessionRecorder } from './session-recorder.ts';

/*
 * Where the server's connections become finished sessions: an Icecast listener when its socket
 * closes, an HLS session when it ends (idle, its stream gone, or the server closing).
 */

/** The listener's address: the peer, or what a trusted proxy's X-Forwarded-For says. */
export function clientAddress(
  ctx: ServerContext,
  socket: Socket,
  head: RequestHead,
): string | null {
  return ctx.proxies.resolve(socket.remoteAddress, head.headers.get('x-forwarded-for'));
}

/**
 * An Icecast listener's connection closed (an edge's pull is not one: see listener-admission).
 * Its session ended when the client hung up (its FIN), if it did, else now. A client that
 * half-closes and reads on (`nc`) is counted to its FIN: rare, and the safer side.
 */
export function listenerSessionEnded(
  ctx: ServerContext,
  listener: Listener,
  closedAt: number,
): void {
  ctx.sessions.record({
    mount: listener.home,
    transport: 'icecast',
    startedAt: listener.connectedAt,
    endedAt: listener.peerEndedAt ?? closedAt,
    bytes: listener.bytesSent,
    userAgent: listener.userAgent === '' ? null : listener.userAgent,
    ip: listener.ip === '-' ? null : listener.ip,
  });
}

export function hlsSessionEnded(
  recorder: SessionRecorder,
  session: EndedHlsSession,
  endedAt: number,
): void {
  // Sessions without a mount were never given a playlist or segment of one: nothing was heard.
  if (session.mount === null) return;
  const userAgent = session.visitor?.userAgent ?? '';
  recorder.record({
    mount: session.mount,
    transport: 'hls',
    startedAt: session.startedAt,
    endedAt,
    bytes: session.bytes,
    userAgent: userAgent === '' ? null : userAgent,
    ip: session.visitor?.ip ?? null,
  });
}
