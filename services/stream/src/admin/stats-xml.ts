import { create } from 'xmlbuilder2';
import { appendEdgesXml } from '../relay/status-edges.ts';
import type { ListenerSnapshot, MountSnapshot, ServerSnapshot } from '../stats.ts';

/*
 * Icecast's XML documents, element for element: the names, their order (Icecast's stats tree
 * is sorted by name, byte order), which ones appear only when known, and the document form
 * libxml2 writes (`<?xml version="1.0"?>`, a newline, the root, a newline; empty elements as
 * open and close tags).
 */

type XMLBuilder = ReturnType<typeof create>;

function serialize(root: XMLBuilder): string {
  return `<?xml version="1.0"?>\n${root.end({ headless: true, allowEmptyTags: true })}\n`;
}

/** `Sat, 21 Nov 2026 09:01:10 +0000` */
export function icecastDate(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toUTCString().replace('GMT', '+0000');
}

/** `2026-11-21T09:01:10+0000` */
export function icecastIsoDate(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 19)}+0000`;
}

export const byPath = (a: { path: string }, b: { path: string }): number =>
  a.path < b.path ? -1 : a.path > b.path ? 1 : 0;

/** The per-source fields of stats.xml in Icecast's order; absent ones are left out. */
export function sourceFields(mount: MountSnapshot): [string, string | number][] {
  const fields: [string, string | number | null][] = [
    ['audio_info', mount.audioInfo],
    ['bitrate', mount.bitrate],
    ['channels', mount.channels],
    ['genre', mount.genre ?? 'various'],
    // Of `listeners`, the HLS sessions (not an Icecast field; clients ignore it).
    ['hls_listeners', mount.hlsListeners ?? null],
    ['listener_peak', mount.peak],
    ['listeners', mount.listeners],
    ['listenurl', mount.listenUrl],
    ['max_listeners', mount.maxListeners ?? 'unlimited'],
    ['public', mount.public ? 1 : 0],
    ['samplerate', mount.sampleRate],
    ['server_description', mount.description ?? 'Unspecified description'],
    ['server_name', mount.name ?? 'Unspecified name'],
    ['server_type', mount.contentType],
    ['server_url', mount.url],
    ['slow_listeners', mount.slowListeners],
    ['source_ip', mount.sourceIp],
    ['stream_start', mount.streamStart === null ? null : icecastDate(mount.streamStart)],
    ['stream_start_iso8601', mount.streamStart === null ? null : icecastIsoDate(mount.streamStart)],
    ['title', mount.title],
    ['total_bytes_read', mount.totalBytesRead],
    ['total_bytes_sent', mount.totalBytesSent],
    ['user_agent', mount.userAgent],
  ];
  return fields.filter((field): field is [string, string | number] => field[1] !== null);
}

/** `/admin/stats.xml` (and `/admin/stats`), all sources or the one of `?mount=`. */
export function statsXml(snapshot: ServerSnapshot, only?: string): string {
  const c = snapshot.counters;
  const root = create().ele('icestats');
  const globals: [string, string | number][] = [
    ['admin', snapshot.admin],
    ['client_connections', c.clientConnections],
    ['clients', c.clients],
    ['connections', c.connections],
    ['file_connections', c.fileConnections],
    ['host', snapshot.host],
    ['listener_connections', c.listenerConnections],
    ['listeners', snapshot.listeners],
    ['location', snapshot.location],
    ['server_id', snapshot.serverId],
    ['server_start', icecastDate(snapshot.serverStart)],
    ['server_start_iso8601', icecastIsoDate(snapshot.serverStart)],
    ['source_client_connections', c.sourceClientConnections],
    ['source_relay_connections', 0],
    ['source_total_connections', c.sourceClientConnections],
    ['sources', snapshot.sources],
    ['stats', 0],
    ['stats_connections', 0],
  ];
  for (const [name, value] of globals) root.ele(name).txt(String(value));
  const mounts = snapshot.mounts
    .filter((mount) => mount.state !== 'idle' && (only === undefined || mount.path === only))
    .sort(byPath);
  for (const mount of mounts) {
    const source = root.ele('source', { mount: mount.path });
    for (const [name, value] of sourceFields(mount)) source.ele(name).txt(String(value));
  }
  if (only === undefined) appendEdgesXml(root, snapshot.edges ?? []);
  return serialize(root);
}

/** `/admin/listmounts` */
export function listMountsXml(mounts: MountSnapshot[], now = Date.now()): string {
  const root = create().ele('icestats');
  for (const mount of [...mounts].sort(byPath)) appendMountSummary(root, mount, now);
  return serialize(root);
}

function appendMountSummary(root: XMLBuilder, mount: MountSnapshot, now: number): void {
  const source = root.ele('source', { mount: mount.path });
  source.ele('fallback').txt(mount.fallback ?? '');
  source.ele('listeners').txt(String(mount.listeners));
  const since = mount.sourceConnectedAt ?? mount.streamStart ?? now;
  source.ele('Connected').txt(String(Math.max(0, Math.floor((now - since) / 1000))));
  source.ele('content-type').txt(mount.contentType);
}

/** `/admin/moveclients` without a destination: the mount and where its listeners could go. */
export function moveClientsXml(current: string, others: MountSnapshot[], now = Date.now()): string {
  const root = create().ele('icestats');
  root.ele('current_source').txt(current);
  for (const mount of [...others].sort(byPath)) appendMountSummary(root, mount, now);
  return serialize(root);
}

/** `/admin/listclients?mount=` */
export function listClientsXml(
  mount: string,
  listeners: ListenerSnapshot[],
  now = Date.now(),
): string {
  const root = create().ele('icestats');
  const source = root.ele('source', { mount });
  source.ele('Listeners').txt(String(listeners.length));
  for (const listener of listeners) {
    const entry = source.ele('listener');
    entry.ele('IP').txt(listener.ip);
    entry.ele('UserAgent').txt(listener.userAgent);
    entry
      .ele('Connected')
      .txt(String(Math.max(0, Math.floor((now - listener.connectedAt) / 1000))));
    entry.ele('ID').txt(String(listener.id));
  }
  return serialize(root);
}

/** The answer of the admin actions: `<iceresponse><message>…</message><return>1</return>`. */
export function iceResponseXml(message: string, ok: boolean): string {
  const root = create().ele('iceresponse');
  root.ele('message').txt(message);
  root.ele('return').txt(ok ? '1' : '0');
  return serialize(root);
}
