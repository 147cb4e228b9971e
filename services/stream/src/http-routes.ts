import type http from 'node:http';
import type { ForwardedRequest } from '@radio/core';
import type { AdminActions } from './admin/actions.ts';
import { type AdminRequest, handleAdmin, isAdminCommand } from './admin/routes.ts';
import { errorReply, type Reply } from './http-reply.ts';
import type { StreamMetrics } from './metrics.ts';
import { handlePublic, isPublicPage } from './public-routes.ts';
import { queryOf } from './request-head.ts';

/** Form posts to /admin/ are small. */
const MAX_BODY_BYTES = 64 * 1024;

/**
 * The answer to a request node:http parsed: /admin/ commands and pages, or a public page
 * (status documents, health, playlists), or the admin's Prometheus metrics. The server writes it
 * to the socket in Icecast's form. `client`: who asked, trusted proxies accounted for.
 */
export async function routeHttpRequest(
  req: http.IncomingMessage,
  client: ForwardedRequest,
  actions: AdminActions,
  metrics: StreamMetrics,
): Promise<Reply> {
  const method = req.method ?? 'GET';
  const target = req.url ?? '/';
  const body = await readBody(req, method === 'POST' ? MAX_BODY_BYTES : 0);
  if (body === null) return errorReply('STREAM_BAD_REQUEST', 'Request body too large');
  let path: string;
  try {
    path = decodeURIComponent(target.split('?')[0] ?? '/');
  } catch {
    return errorReply('STREAM_BAD_REQUEST');
  }
  if (path === '/admin' || path.startsWith('/admin/')) {
    if (method !== 'GET' && method !== 'HEAD' && method !== 'POST') {
      return errorReply('STREAM_METHOD_NOT_ALLOWED');
    }
    const query = target.includes('?') ? target.slice(target.indexOf('?') + 1) : '';
    const formType = req.headers['content-type'] ?? '';
    const form =
      method === 'POST' && formType.startsWith('application/x-www-form-urlencoded') ? body : '';
    const rawQuery = [query, form].filter(Boolean).join('&');
    const request: AdminRequest = {
      method,
      command: path === '/admin' ? '' : path.slice('/admin/'.length),
      params: new URLSearchParams(rawQuery),
      rawQuery,
      authorization: req.headers.authorization,
      client: client.ip ?? '-',
      origin: req.headers.origin ?? req.headers.referer,
      host: client.host ?? undefined,
      fetchSite: firstHeader(req.headers['sec-fetch-site']),
    };
    return handleAdmin(request, actions);
  }
  if (method !== 'GET' && method !== 'HEAD') return errorReply('STREAM_METHOD_NOT_ALLOWED');
  if (path === '/metrics') return metrics.reply(req.headers.authorization, client.ip ?? '-');
  return (
    handlePublic(path, queryOf(target), req.headers.host, actions) ?? errorReply('STREAM_NOT_FOUND')
  );
}

/**
 * The metrics label of a request's path: the page or admin command it names, never the URL
 * itself, so a scan of random paths cannot make new series.
 */
export function routeLabel(target: string): string {
  const path = target.split('?')[0] ?? '/';
  if (path === '/admin' || path.startsWith('/admin/')) {
    const command = path === '/admin' ? '' : path.slice('/admin/'.length);
    return isAdminCommand(command) ? `/admin/${command}` : '/admin/*';
  }
  if (path.endsWith('.m3u')) return '*.m3u';
  if (path.endsWith('.xspf')) return '*.xspf';
  return isPublicPage(path) ? path : 'unmatched';
}

function firstHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** The request body as text, at most `limit` bytes (null when over); drained when 0. */
function readBody(req: http.IncomingMessage, limit: number): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on('data', (chunk: Buffer) => {
      if (limit === 0 || over) return;
      size += chunk.length;
      if (size > limit) {
        over = true;
        return;
      }
      parts.push(chunk);
    });
    req.once('end', () => resolve(over ? null : Buffer.concat(parts).toString('utf8')));
    req.once('error', reject);
  });
}
