import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { createMemoryBus, type EventMessage, parseAdtsHeader, silentLogger } from '@radio/core';
import { waitFor } from '@radio/core/testing';
import type { StreamServer } from '../src/index.ts';
import {
  ADMIN_AUTH,
  decodeErrors,
  ffmpegPath,
  ffprobe,
  pushSine,
  Resources,
  rawExchange,
  request,
  StreamListener,
} from './helpers.ts';

const resources = new Resources();
afterAll(() => resources.dispose());

const bus = createMemoryBus({ logger: silentLogger() });
resources.onCleanup(() => bus.close());
const events: EventMessage[] = [];
bus.onEvent((event) => {
  events.push(event);
});

let server: StreamServer;
let base: string;

beforeAll(async () => {
  // The 100 players below all come from 127.0.0.1, over fetch's pool of connections.
  server = await resources.server({ hlsSegmentSeconds: 1, maxConnectionsPerClient: 1000 }, bus);
  base = `http://127.0.0.1:${server.port}`;
  pushSine(resources, server, { mount: '/radio.aac', codec: 'aac' });
  pushSine(resources, server, { mount: '/radio.mp3' });
  await waitFor('three HLS segments', async () => {
    const res = await fetch(`${base}/hls/radio/live.m3u8`);
    return res.ok && (await res.text()).split('.aac?').length > 3;
  });
});

interface Listed {
  url: string;
  startedAt: number;
  duration: number;
}

/** The segments a media playlist lists, with their absolute URLs. */
function parseMedia(text: string, url: string): Listed[] {
  const out: Listed[] = [];
  let startedAt = 0;
  let duration = 0;
  for (const line of text.split('\n')) {
    if (line.startsWith('#EXT-X-PROGRAM-DATE-TIME:')) startedAt = Date.parse(line.slice(25));
    else if (line.startsWith('#EXTINF:')) duration = Number.parseFloat(line.slice(8));
    else if (line !== '' && !line.startsWith('#'))
      out.push({ url: new URL(line, url).href, startedAt, duration });
  }
  return out;
}

/** A segment split into its ID3 tags (with the audio seconds before each) and its frames. */
function parseSegment(data: Buffer): { tags: { at: number; text: string }[]; frames: Buffer } {
  const tags: { at: number; text: string }[] = [];
  const frames: Buffer[] = [];
  let seconds = 0;
  let offset = 0;
  while (offset < data.length) {
    if (data.toString('latin1', offset, offset + 3) === 'ID3') {
      const size =
        ((data[offset + 6] as number) << 21) |
        ((data[offset + 7] as number) << 14) |
        ((data[offset + 8] as number) << 7) |
        (data[offset + 9] as number);
      tags.push({ at: seconds, text: data.toString('utf8', offset + 10, offset + 10 + size) });
      offset += 10 + size;
      continue;
    }
    const header = parseAdtsHeader(data, offset);
    if (header === null) throw new Error(`no frame at ${offset}`);
    frames.push(data.subarray(offset, offset + header.length));
    seconds += header.samples / header.sampleRate;
    offset += header.length;
  }
  return { tags, frames: Buffer.concat(frames) };
}

/** One HLS player's round: the master, its media playlist, the newest segment. */
async function playRound(
  media: string | null,
): Promise<{ media: string; segment: Buffer; listed: Listed[] }> {
  let mediaUrl = media;
  if (mediaUrl === null) {
    const master = await (await fetch(`${base}/hls/radio.m3u8`)).text();
    const line = master.split('\n').find((l) => l.includes('live.m3u8'));
    mediaUrl = new URL(line as string, `${base}/hls/radio.m3u8`).href;
  }
  const listed = parseMedia(await (await fetch(mediaUrl)).text(), mediaUrl);
  const last = listed.at(-1) as Listed;
  const segment = Buffer.from(await (await fetch(last.url)).arrayBuffer());
  return { media: mediaUrl, segment, listed };
}

describe('HLS', () => {
  test('ffprobe and ffmpeg play the master playlist without a decoding error', async () => {
    const stream = await ffprobe(`${base}/hls/radio.m3u8`);
    expect(stream.codec_name).toBe('aac');
    const seconds = 4;
    const { bytes, errors } = await new Promise<{ bytes: number; errors: string }>((resolve) => {
      const child = resources.child(
        spawn(
          ffmpegPath,
          ['-v', 'error', '-i', `${base}/hls/radio.m3u8`, '-t', String(seconds)].concat([
            '-f',
            's16le',
            '-ac',
            '2',
            '-ar',
            '44100',
            '-',
          ]),
          { stdio: ['ignore', 'pipe', 'pipe'] },
        ),
      );
      let bytes = 0;
      let errors = '';
      child.stdout?.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
      });
      child.stderr?.on('data', (chunk: Buffer) => {
        errors += chunk.toString();
      });
      child.once('close', () => resolve({ bytes, errors }));
    });
    expect(errors).toBe('');
    expect(bytes).toBe(seconds * 44100 * 4);
  });

  test('playlists and segments: headers, sliding window, packed audio with a timestamp', async () => {
    const master = await request(server, '/hls/radio.m3u8');
    expect(master.status).toBe(200);
    expect(master.headers['content-type']).toBe('application/vnd.apple.mpegurl');
    expect(master.headers['cache-control']).toBe('max-age=1');
    expect(master.headers['access-control-allow-origin']).toBe('*');
    expect(master.body).toMatch(/#EXT-X-STREAM-INF:BANDWIDTH=\d+,CODECS="mp4a.40.2"\n/);
    expect(master.body).toMatch(/\nradio\/live\.m3u8\?s=[\w-]+\n/);

    const { media, segment, listed } = await playRound(null);
    expect(listed.length).toBeGreaterThanOrEqual(3);
    expect(listed.length).toBeLessThanOrEqual(6);
    for (const entry of listed) expect(entry.duration).toBeGreaterThanOrEqual(1);
    const head = await request(server, new URL(media).pathname + new URL(media).search);
    expect(head.headers['cache-control']).toMatch(/max-age=1$/);
    expect(head.body).toContain('#EXT-X-TARGETDURATION:1\n');
    expect(head.body).toContain('#EXT-X-START:TIME-OFFSET=');
    const last = listed.at(-1) as Listed;
    const seg = await request(server, new URL(last.url).pathname + new URL(last.url).search);
    expect(seg.headers['cache-control']).toMatch(/^public, max-age=\d+, immutable$/);
    expect(seg.headers['content-type']).toBe('audio/aac');
    const parsed = parseSegment(segment);
    expect(parsed.tags[0]?.at).toBe(0);
    expect(parsed.tags[0]?.text).toContain('com.apple.streaming.transportStreamTimestamp');
  });

  test("a segment's audio bytes are the mount's own frames", async () => {
    const capture = new StreamListener(server.port, '/radio.aac', { keepAudio: true });
    resources.socket(capture.socket);
    await waitFor('some audio', () => capture.bodyBytes > 0);
    // A segment that starts after the capture did.
    const startedAfter = Date.now();
    let found: Buffer | null = null;
    await waitFor(
      'a segment made after the capture started',
      async () => {
        const { listed } = await playRound(null);
        const fresh = listed.find((entry) => entry.startedAt > startedAfter + 500);
        if (!fresh) return false;
        found = Buffer.from(await (await fetch(fresh.url)).arrayBuffer());
        return true;
      },
      10_000,
    );
    const frames = parseSegment(found as unknown as Buffer).frames;
    await waitFor(
      'the capture to pass it',
      () =>
        Buffer.concat(capture.audio).length > 0 && Buffer.concat(capture.audio).includes(frames),
    );
    capture.close();
  });

  test('the ID3 title arrives within one segment of the audio it belongs to', async () => {
    const title = `Title ${Date.now()}`;
    const setAt = Date.now();
    const res = await request(
      server,
      `/admin/metadata?mount=/radio.aac&mode=updinfo&song=${encodeURIComponent(title)}`,
      { headers: { Authorization: ADMIN_AUTH } },
    );
    expect(res.status).toBe(200);
    let placed: number | null = null;
    let duration = 0;
    let segment = Buffer.alloc(0);
    await waitFor('a segment with the title', async () => {
      const { listed } = await playRound(null);
      for (const entry of listed) {
        const data = Buffer.from(await (await fetch(entry.url)).arrayBuffer());
        const tag = parseSegment(data).tags.find((t) => t.text.includes(title));
        if (tag) {
          placed = entry.startedAt + tag.at * 1000;
          duration = entry.duration;
          segment = data;
          return true;
        }
      }
      return false;
    });
    expect(Math.abs((placed as unknown as number) - setAt)).toBeLessThanOrEqual(duration * 1000);
    // The tag inside the segment does not disturb a decoder.
    const file = join(await resources.tempDir(), 'title.aac');
    await writeFile(file, segment);
    expect(await decodeErrors(file)).toEqual([]);
  });

  test('100 HLS sessions are 100 listeners of /radio.aac, and end when they stop fetching', async () => {
    const players = await Promise.all(Array.from({ length: 100 }, () => playRound(null)));
    let running = true;
    const loop = (async () => {
      while (running) {
        await Promise.all(players.map((player) => playRound(player.media)));
        await new Promise((resolve) => setTimeout(resolve, 300));
      }
    })();
    const aac = () => server.snapshot().mounts.find((m) => m.path === '/radio.aac');
    await waitFor('100 HLS listeners', () => aac()?.hlsListeners === 100);
    expect(aac()?.listeners).toBe(100);
    const json = JSON.parse((await request(server, '/status-json.xsl')).body) as {
      icestats: { source: { listenurl: string; listeners: number; hls_listeners: number }[] };
    };
    const source = json.icestats.source.find((s) => s.listenurl.endsWith('/radio.aac'));
    expect(source).toMatchObject({ listeners: 100, hls_listeners: 100 });
    const xml = await request(server, '/admin/stats.xml', {
      headers: { Authorization: ADMIN_AUTH },
    });
    expect(xml.body).toMatch(
      /<source mount="\/radio\.aac">[\s\S]*?<hls_listeners>100<\/hls_listeners>/,
    );
    await waitFor('the bus count', () =>
      events.some((event) => {
        const payload = event.payload as { mounts?: { mount: string; listeners: number }[] };
        return (
          event.type === 'stream.listeners' &&
          payload.mounts?.some((m) => m.mount === '/radio.aac' && m.listeners === 100) === true
        );
      }),
    );
    running = false;
    await loop;
    await waitFor('the sessions to end', () => aac()?.hlsListeners === 0, 10_000);
    expect(aac()?.listeners).toBe(0);
  });

  test('a forged or malformed token starts a new session, never an error', async () => {
    const { listed } = await playRound(null);
    const segment = new URL((listed.at(-1) as Listed).url);
    const before = server.snapshot().mounts.find((m) => m.path === '/radio.aac')?.hlsListeners ?? 0;
    for (const token of ['forgedTokenAAAAAAAAA', 'x', '../../etc']) {
      const res = await request(server, `${segment.pathname}?s=${encodeURIComponent(token)}`);
      expect(res.status).toBe(200);
      const media = await request(server, `/hls/radio/live.m3u8?s=${encodeURIComponent(token)}`);
      expect(media.status).toBe(200);
    }
    const after = server.snapshot().mounts.find((m) => m.path === '/radio.aac')?.hlsListeners ?? 0;
    expect(after).toBeGreaterThan(before);
  });

  test("one connection carries a player's requests (HTTP/1.1 keep-alive, pipelined too)", async () => {
    const get = (path: string, last = false): string =>
      `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${last ? 'Connection: close\r\n' : ''}\r\n`;
    const answer = await rawExchange(
      server.port,
      get('/hls/radio.m3u8') + get('/hls/radio/live.m3u8') + get('/hls/none/live.m3u8', true),
    );
    expect(answer.closed).toBe(true);
    expect([...answer.text.matchAll(/^HTTP\/1\.1 (\d+)/gm)].map((m) => m[1])).toEqual([
      '200',
      '200',
      '404',
    ]);
    const options = await rawExchange(
      server.port,
      'OPTIONS /hls/radio.m3u8 HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n',
    );
    expect(options.text).toMatch(/^HTTP\/1\.1 204 No Content\r\n/);
    expect(options.text).toContain('Access-Control-Allow-Origin: *\r\n');
  });

  test('unknown or expired playlists and segments: 404 at once', async () => {
    // Segment 0 has left the window and the grace after it once the window starts at 3.
    const { listed } = await waitFor('segment 0 to expire', async () => {
      const round = await playRound(null);
      return /-([3-9]|\d\d+)\.aac/.test(round.listed[0]?.url ?? '') && round;
    });
    const url = new URL((listed.at(-1) as Listed).url);
    const [, streamId] = /\/([0-9a-z]+)-\d+\.aac$/.exec(url.pathname) as unknown as [
      string,
      string,
    ];
    for (const path of [
      '/hls/nothing/live.m3u8',
      '/hls/radio/0-0.aac',
      `/hls/radio/${streamId}-0.aac`,
      `/hls/radio/${streamId}-999999.aac`,
      '/hls/radio.mp3/live.m3u8',
      '/hls/',
      '/hls/other.m3u8',
    ]) {
      const res = await request(server, path);
      expect([path, res.status]).toEqual([path, 404]);
    }
  });
});
