import { edgesJson } from '../relay/status-edges.ts';
import type { MountSnapshot, ServerSnapshot } from '../stats.ts';
import { byPath, icecastDate, icecastIsoDate } from './stats-xml.ts';

/**
 * `/status-json.xsl`: Icecast 2.4's JSON (made by its XSL from the stats tree): the public
 * fields only, `source` an object when there is one source and an array when more, and the
 * `"dummy":null` the XSL adds after each source object (and in place of `source` when none).
 */
export function statusJson(snapshot: ServerSnapshot, only?: string): string {
  const mounts = snapshot.mounts
    .filter((mount) => mount.state !== 'idle' && (only === undefined || mount.path === only))
    .sort(byPath)
    .map(publicSource);
  const icestats: Record<string, unknown> = {
    admin: snapshot.admin,
    host: snapshot.host,
    location: snapshot.location,
    server_id: snapshot.serverId,
    server_start: icecastDate(snapshot.serverStart),
    server_start_iso8601: icecastIsoDate(snapshot.serverStart),
  };
  if (mounts.length === 1) icestats.source = mounts[0];
  else if (mounts.length > 1) icestats.source = mounts;
  else icestats.dummy = null; // the XSL's placeholder when there is no source to close the object
  if (only === undefined && snapshot.edges?.length) icestats.edges = edgesJson(snapshot.edges);

  return JSON.stringify({ icestats });
}

function publicSource(mount: MountSnapshot): Record<string, unknown> {
  const source: Record<string, unknown> = {};
  const put = (name: string, value: unknown): void => {
    if (value !== null && value !== undefined) source[name] = value;
  };
  put('audio_info', mount.audioInfo);
  put('bitrate', mount.bitrate);
  put('channels', mount.channels);
  put('genre', mount.genre ?? 'various');
  // Of `listeners`, the HLS sessions (not an Icecast field; clients ignore it).
  put('hls_listeners', mount.hlsListeners);
  put('listener_peak', mount.peak);
  put('listeners', mount.listeners);
  put('listenurl', mount.listenUrl);
  put('samplerate', mount.sampleRate);
  put('server_description', mount.description ?? 'Unspecified description');
  put('server_name', mount.name ?? 'Unspecified name');
  put('server_type', mount.contentType);
  put('server_url', mount.url);
  put('stream_start', mount.streamStart === null ? null : icecastDate(mount.streamStart));
  put(
    'stream_start_iso8601',
    mount.streamStart === null ? null : icecastIsoDate(mount.streamStart),
  );
  put('title', mount.title);
  source.dummy = null;
  return source;
}
