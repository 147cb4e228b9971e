import type { Socket } from 'node:net';
import { checkAdminAuth } from '../auth.ts';
import type { ServerContext } from '../context.ts';
import type { HlsReply } from '../hls/service.ts';
import { errorReply, sendReply } from '../http-reply.ts';
import { logRawRequest } from '../raw-reply.ts';
import type { RequestHead } from '../request-head.ts';
import { isEdgePull } from './audience.ts';

/**
 * An edge pulling a mount (its User-Agent and this server's admin credentials): never turned
 * away for MAX_LISTENERS, since the listeners it serves are counted where they are.
 */
export function isTrustedEdge(ctx: ServerContext, head: RequestHead): boolean {
  const { adminUser, adminPassword } = ctx.options;
  return (
    isEdgePull(head.headers.get('user-agent') ?? '') &&
    checkAdminAuth(head.headers.get('authorization'), adminUser, adminPassword)
  );
}

/**
 * MAX_LISTENERS reached: the listeners of all mounts and the HLS sessions, less the edges'
 * pulls (counted only when the plain count is at the limit, so a server below it pays nothing).
 */
export function isFull(ctx: ServerContext, maxListeners: number): boolean {
  let hls = 0;
  for (const mount of ctx.mounts.values()) hls += mount.hlsListeners;
  if (ctx.stats.listeners + hls < maxListeners) return false;
  let pulls = 0;
  for (const mount of ctx.mounts.values()) {
    for (const listener of mount.listeners) if (isEdgePull(listener.userAgent)) pulls += 1;
  }
  return ctx.stats.listeners + hls - pulls >= maxListeners;
}

/**
 * A new HLS player on a full server: a 302 to the same HLS path (and query) on a node with
 * room, else the refusal a direct listener gets. Null while the server has room.
 */
export function hlsOverflow(ctx: ServerContext, path: string, target: string): HlsReply | null {
  const { maxListeners } = ctx.options;
  if (maxListeners === null || !isFull(ctx, maxListeners)) return null;
  const elsewhere = ctx.elsewhere(path);
  if (elsewhere === null) {
    const refusal = errorReply('STREAM_SERVER_FULL');
    return { status: 403, contentType: refusal.contentType, body: refusal.body };
  }
  const query = target.indexOf('?');
  const location = query === -1 ? elsewhere : `${elsewhere}${target.slice(query)}`;
  return {
    status: 302,
    contentType: 'text/plain; charset=utf-8',
    location,
    body: `This server is full; listen at ${location}\n`,
  };
}

/**
 * A full server sends a new listener to a node with room: a 302 to the same mount there.
 * Returns false when no node has room (the caller refuses as before).
 */
export function sendElsewhere(ctx: ServerContext, socket: Socket, head: RequestHead): boolean {
  const target = ctx.elsewhere(head.path);
  if (target === null) return false;
  sendReply(socket, ctx.options.serverId, {
    status: 302,
    contentType: 'text/plain; charset=utf-8',
    early: [`Location: ${target}`],
    body: `This server is full; listen at ${target}\n`,
    length: true,
  });
  logRawRequest(ctx, socket, head, 302, 0, Date.now());
  return true;
}
