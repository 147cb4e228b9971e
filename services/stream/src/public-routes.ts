import { create } from 'xmlbuilder2';
import { byPath } from './admin/stats-xml.ts';
import { statusJson } from './admin/status-json.ts';
import { escapeHtml as e, type Reply } from './http-reply.ts';
import type { MountSnapshot, ServerSnapshot } from './stats.ts';

/** What the public pages read. */
export interface PublicContext {
  snapshot(includeIdle: boolean): ServerSnapshot;
  /** A configured or active mount. */
  findMount(path: string): MountSnapshot | null;
  /** Base URL for playlists: the public URL, or what the client used to reach us. */
  baseUrl(host: string | undefined): string;
}

/**
 * Paths served by node:http rather than as a listener: `handlePublic`'s and /metrics (everything
 * else not under /admin/ is a mount path).
 */
export function isPublicPage(path: string): boolean {
  return (
    path === '/' ||
    path === '/health' ||
    path === '/metrics' ||
    path === '/status-json.xsl' ||
    path === '/status.xsl' ||
    path === '/index.html' ||
    path.endsWith('.m3u') ||
    path.endsWith('.xspf')
  );
}

export function handlePublic(
  path: string,
  params: URLSearchParams,
  host: string | undefined,
  ctx: PublicContext,
): Reply | null {
  switch (path) {
    case '/health':
      return health(ctx.snapshot(true));
    case '/status-json.xsl':
      return {
        status: 200,
        contentType: 'application/json; charset=UTF-8',
        body: statusJson(ctx.snapshot(false), params.get('mount') ?? undefined),
        length: true,
      };
    case '/':
    case '/index.html':
    case '/status.xsl':
      return statusPage(ctx.snapshot(true));
  }
  if (path.endsWith('.m3u')) {
    const mount = ctx.findMount(path.slice(0, -4));
    if (!mount) return null;
    return {
      status: 200,
      contentType: 'audio/x-mpegurl',
      body: `${ctx.baseUrl(host)}${mount.path}\r\n`,
    };
  }
  if (path.endsWith('.xspf')) {
    const mount = ctx.findMount(path.slice(0, -5));
    if (!mount) return null;
    return {
      status: 200,
      contentType: 'application/xspf+xml; charset=UTF-8',
      body: xspf(mount, ctx.baseUrl(host)),
      length: true,
    };
  }
  return null;
}

/** For container health checks: cheap, no auth, 200 while the server serves. */
function health(snapshot: ServerSnapshot): Reply {
  const body = JSON.stringify({
    status: 'ok',
    uptimeSeconds: Math.floor((Date.now() - snapshot.serverStart) / 1000),
    listeners: snapshot.listeners,
    sources: snapshot.sources,
    mounts: Object.fromEntries(snapshot.mounts.map((m) => [m.path, m.state])),
  });
  return { status: 200, contentType: 'application/json; charset=utf-8', body, length: true };
}

function xspf(mount: MountSnapshot, base: string): string {
  const doc = create({ version: '1.0', encoding: 'UTF-8' });
  const playlist = doc.ele('playlist', { xmlns: 'http://xspf.org/ns/0/', version: '1' });
  playlist.ele('title');
  playlist.ele('creator');
  const track = playlist.ele('trackList').ele('track');
  track.ele('location').txt(`${base}${mount.path}`);
  if (mount.title !== null) track.ele('title').txt(mount.title);
  const annotation = [
    `Stream Title: ${mount.name ?? ''}`,
    `Stream Description: ${mount.description ?? ''}`,
    `Content Type:${mount.contentType}`,
    ...(mount.bitrate === null ? [] : [`Bitrate: ${mount.bitrate}`]),
    `Current Listeners: ${mount.listeners}`,
    `Peak Listeners: ${mount.peak}`,
    ...(mount.genre === null ? [] : [`Stream Genre: ${mount.genre}`]),
  ].join('\n');
  track.ele('annotation').txt(annotation);
  if (mount.url !== null) track.ele('info').txt(mount.url);
  return `${doc.end({ prettyPrint: true })}\n`;
}

function statusPage(snapshot: ServerSnapshot): Reply {
  const rows = [...snapshot.mounts]
    .sort(byPath)
    .map(
      (m) =>
        `<tr><td><a href="${e(m.path)}">${e(m.path)}</a> <small>(<a href="${e(m.path)}.m3u">M3U</a>)</small></td><td>${e(m.name ?? '')}</td><td>${e(m.contentType)}${m.bitrate === null ? '' : `, ${m.bitrate} kbit/s`}</td><td>${m.state === 'idle' ? 'off air' : 'on air'}</td><td>${m.listeners}</td><td>${e(m.title ?? '')}</td></tr>`,
    )
    .join('\n');
  const body = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${e(snapshot.serverId)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font:15px/1.4 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.3rem .5rem;border-bottom:1px solid #ddd}</style>
</head><body><h1>Streams</h1>
<table><thead><tr><th>Mount</th><th>Name</th><th>Format</th><th>Status</th><th>Listeners</th><th>Now playing</th></tr></thead>
<tbody>${rows}</tbody></table>
<p><a href="/status-json.xsl">status-json.xsl</a> · <a href="/admin/">admin</a></p>
</body></html>
`;
  return { status: 200, contentType: 'text/html; charset=utf-8', body, length: true };
}
