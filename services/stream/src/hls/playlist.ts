import type { HlsVariant } from './variant.ts';

/*
 * The playlists. Media playlists are live (no EXT-X-ENDLIST) with a sliding window; segment
 * URLs carry the listener's session token. EXT-X-START tells players (hls.js, Safari) to start
 * in the newest segment rather than three target durations back: that is what keeps the delay
 * behind the Icecast mounts within a couple of segment durations.
 */

/** The media playlist of a variant; `token` is appended to each segment URL. */
export function mediaPlaylist(variant: HlsVariant, token: string): string {
  const window = variant.window;
  const first = window[0];
  const target = Math.max(
    Math.ceil(variant.segmentSeconds),
    ...window.map((segment) => Math.round(segment.duration)),
  );
  const lines = [
    '#EXTM3U',
    '#EXT-X-VERSION:3',
    `#EXT-X-TARGETDURATION:${target}`,
    `#EXT-X-MEDIA-SEQUENCE:${first?.sequence ?? 0}`,
    `#EXT-X-START:TIME-OFFSET=-${variant.segmentSeconds.toFixed(1)}`,
  ];
  for (const segment of window) {
    if (segment.discontinuity && segment !== first) lines.push('#EXT-X-DISCONTINUITY');
    lines.push(`#EXT-X-PROGRAM-DATE-TIME:${new Date(segment.startedAt).toISOString()}`);
    lines.push(`#EXTINF:${segment.duration.toFixed(5)},`);
    lines.push(`${variant.streamId}-${segment.sequence}.aac?s=${token}`);
  }
  return `${lines.join('\n')}\n`;
}

/** The master playlist: every AAC mount's rendition, as variants of one programme. */
export function masterPlaylist(variants: readonly HlsVariant[], token: string): string {
  const lines = ['#EXTM3U', '#EXT-X-VERSION:3', '#EXT-X-INDEPENDENT-SEGMENTS'];
  for (const variant of variants) {
    const bandwidth = Math.max(variant.bitsPerSecond, 1000);
    lines.push(`#EXT-X-STREAM-INF:BANDWIDTH=${bandwidth},CODECS="mp4a.40.2"`);
    lines.push(`${variant.name}/live.m3u8?s=${token}`);
  }
  return `${lines.join('\n')}\n`;
}
