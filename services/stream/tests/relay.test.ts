import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from '@jest/globals';
import { waitFor } from '@radio/core/testing';
import {
  ADMIN_AUTH,
  decodeErrors,
  pushSine,
  Resources,
  request,
  StreamListener,
  sleep,
} from './helpers.ts';
import { type StreamNode, startNode, stopNode } from './relay-helpers.ts';

/*
 * Origin plus two edges, each a stream server process started from the environment as in a
 * deployment (no Redis: the edges report to the origin's admin API).
 */

const resources = new Resources();
afterAll(() => resources.dispose());

async function setTitle(node: StreamNode, title: string): Promise<void> {
  const res = await request(
    node.server,
    `/admin/metadata?mount=/radio.mp3&mode=updinfo&song=${encodeURIComponent(title)}`,
    { headers: { Authorization: ADMIN_AUTH } },
  );
  expect(res.status).toBe(200);
}

async function statusJson(node: StreamNode): Promise<{
  icestats: { source?: { listeners: number }; edges?: { node: string; listeners: number }[] };
}> {
  const res = await request(node.server, '/status-json.xsl');
  return JSON.parse(res.body);
}

function statsXmlTotal(xml: string): number {
  return Number(/<icestats>[\s\S]*?<listeners>(\d+)<\/listeners>/.exec(xml)?.[1]);
}

/** One GET as a player sends it, redirects not followed. */
async function get(
  url: string,
  userAgent: string,
): Promise<{ status: number; location: string | null; body: string }> {
  const res = await fetch(url, { headers: { 'user-agent': userAgent }, redirect: 'manual' });
  return { status: res.status, location: res.headers.get('location'), body: await res.text() };
}

/** Whether a node serves HLS yet: asked of the master, which starts no session. */
async function hasHls(node: StreamNode): Promise<boolean> {
  const res = await fetch(`${node.url}/hls/radio.m3u8`);
  await res.arrayBuffer();
  return res.ok;
}

/**
 * An HLS player: fetches the master (following 302s as hls.js and Safari do), then its media
 * playlist and newest segment about once a second, with the session token it was handed.
 */
class HlsPlayer {
  /** Where the master playlist was finally served. */
  readonly masterUrl: string;
  readonly mediaUrl: string;
  readonly userAgent: string;
  /** Status of every fetch after the master. */
  readonly statuses: number[] = [];
  #running = true;
  readonly #loop: Promise<void>;

  static async start(url: string, userAgent: string): Promise<HlsPlayer> {
    let at = url;
    let res = await get(at, userAgent);
    for (let hop = 0; res.status === 302 && hop < 3; hop++) {
      at = new URL(res.location ?? '', at).href;
      res = await get(at, userAgent);
    }
    const line = res.body.split('\n').find((l) => l.includes('live.m3u8'));
    if (line === undefined) throw new Error(`no variant in the master at ${at}`);
    return new HlsPlayer(at, new URL(line, at).href, userAgent);
  }

  private constructor(masterUrl: string, mediaUrl: string, userAgent: string) {
    this.masterUrl = masterUrl;
    this.mediaUrl = mediaUrl;
    this.userAgent = userAgent;
    this.#loop = this.#play();
  }

  async #play(): Promise<void> {
    while (this.#running) {
      const media = await get(this.mediaUrl, this.userAgent);
      this.statuses.push(media.status);
      const segment = media.body
        .split('\n')
        .filter((l) => l.includes('.aac?'))
        .at(-1);
      if (segment)
        this.statuses.push(
          (await get(new URL(segment, this.mediaUrl).href, this.userAgent)).status,
        );
      await sleep(1000);
    }
  }

  stop(): Promise<void> {
    this.#running = false;
    return this.#loop;
  }
}

function listen(node: StreamNode): StreamListener {
  const listener = new StreamListener(node.port, '/radio.mp3', { icy: true, keepAudio: true });
  resources.socket(listener.socket);
  return listener;
}

describe('edge relays (origin and two edges as processes)', () => {
  test('edge listeners hear the origin, its titles and a 5 s source outage; the origin counts all', async () => {
    const origin = await startNode(resources);
    const source = pushSine(resources, origin.server, { mount: '/radio.mp3', frequency: 440 });
    await waitFor('the origin source', async () => (await statusJson(origin)).icestats.source);
    await setTitle(origin, 'First song');
    const atOrigin = listen(origin);
    await waitFor('audio at the origin', () => atOrigin.audioBytes > 20_000);

    const env = { RELAY_FROM: origin.url };
    const [edgeA, edgeB] = await Promise.all([
      startNode(resources, env),
      startNode(resources, env),
    ]);
    if (!edgeA || !edgeB) throw new Error('edges did not start');
    // A listener that comes before the edge has pulled the mount gets a 404, as on any server.
    for (const edge of [edgeA, edgeB]) {
      await waitFor(
        'the relayed mount on the edge',
        async () => (await statusJson(edge)).icestats.source,
      );
    }
    const listeners = [listen(edgeA), listen(edgeA), listen(edgeB)];
    await waitFor(
      'audio and the title on every edge listener',
      () => listeners.every((l) => l.audioBytes > 70_000 && l.titles.includes('First song')),
      30_000,
    );
    expect(listeners[0]?.statusLine).toBe('HTTP/1.0 200 OK');

    // The edge passes the origin's own frames on: a stretch of an edge listener's audio is in
    // what the origin's listener received.
    const edgeAudio = Buffer.concat(listeners[0]?.audio ?? []);
    const originAudio = Buffer.concat(atOrigin.audio);
    expect(originAudio.indexOf(edgeAudio.subarray(40_000, 56_000))).toBeGreaterThanOrEqual(0);

    // A title change reaches the edges' listeners in their ICY stream.
    await setTitle(origin, 'Second song');
    await waitFor('the new title on every edge listener', () =>
      listeners.every((l) => l.titles.includes('Second song')),
    );

    // One audience: 1 listener of the origin and 3 of the edges, the edges' pulls not counted.
    await waitFor(
      'the whole audience in status-json.xsl',
      async () => {
        const status = await statusJson(origin);
        return status.icestats.source?.listeners === 4 && status.icestats.edges?.length === 2;
      },
      15_000,
    );
    const stats = await request(origin.server, '/admin/stats.xml', {
      headers: { Authorization: ADMIN_AUTH },
    });
    expect(statsXmlTotal(stats.body)).toBe(4);
    expect(stats.body.match(/<edge node=/g)).toHaveLength(2);

    // The origin's source gone for 5 s: every edge listener stays, then hears the new source.
    await source.dispose();
    const lostAt = Date.now();
    const before = listeners.map((l) => l.audioBytes);
    await sleep(5000);
    expect(listeners.map((l) => l.closed)).toEqual([false, false, false]);
    // Silence kept coming through the outage (16,000 B/s at 128 kbit/s).
    listeners.forEach((l, i) => {
      expect(l.audioBytes - (before[i] ?? 0)).toBeGreaterThan(3 * 16_000);
    });
    pushSine(resources, origin.server, { mount: '/radio.mp3', frequency: 880 });
    await waitFor('the source back on the origin', async () =>
      Boolean((await statusJson(origin)).icestats.source),
    );
    await setTitle(origin, 'After the outage');
    await waitFor(
      'the title after the outage on every edge listener',
      () => listeners.every((l) => l.titles.includes('After the outage')),
      20_000,
    );
    expect(listeners.map((l) => l.closed)).toEqual([false, false, false]);
    expect(Date.now() - lostAt).toBeGreaterThan(5000);

    // Live audio, silence and live audio again decode as one clean MP3 stream.
    const file = join(await resources.tempDir(), 'edge.mp3');
    await writeFile(file, Buffer.concat(listeners[2]?.audio ?? []));
    expect(await decodeErrors(file)).toEqual([]);

    // An edge that stops is forgotten: its listeners leave the origin's count.
    for (const l of listeners.slice(2)) l.close();
    await stopNode(edgeB);
    await waitFor(
      'the stopped edge to expire',
      async () => {
        const status = await statusJson(origin);
        return status.icestats.edges?.length === 1 && status.icestats.source?.listeners === 3;
      },
      15_000,
    );
  }, 120_000);

  test('a full node sends new listeners to one with room (302)', async () => {
    const origin = await startNode(resources, { MAX_LISTENERS: '1' });
    pushSine(resources, origin.server, { mount: '/radio.mp3' });
    await waitFor('the origin source', async () => (await statusJson(origin)).icestats.source);
    const edge = await startNode(resources, { RELAY_FROM: origin.url, MAX_LISTENERS: '1' });
    await waitFor(
      'the edge relaying and reported',
      async () => (await statusJson(origin)).icestats.edges?.length === 1,
      15_000,
    );
    await waitFor('the edge relaying', async () =>
      Boolean((await statusJson(edge)).icestats.source),
    );

    const first = listen(origin);
    await waitFor('the first listener', () => first.audioBytes > 0);
    // The origin is full (its edge's pull does not count): the next listener goes to the edge.
    const second = await request(origin.server, '/radio.mp3');
    expect(second.status).toBe(302);
    expect(second.headers.location).toBe(`${edge.url}/radio.mp3`);
    const onEdge = listen(edge);
    await waitFor('a listener on the edge', () => onEdge.audioBytes > 0);
    // The edge is full too: it sends listeners back to the origin's listen URL.
    const third = await request(edge.server, '/radio.mp3');
    expect(third.status).toBe(302);
    expect(third.headers.location).toBe(`${origin.url}/radio.mp3`);
    // Once the edge reports itself full, the origin has nowhere to send them: 403 as before.
    await waitFor(
      'the full edge reported',
      async () => (await statusJson(origin)).icestats.edges?.[0]?.listeners === 1,
      15_000,
    );
    expect((await request(origin.server, '/radio.mp3')).status).toBe(403);
  }, 90_000);

  test('HLS players count against MAX_LISTENERS: a full node sends new ones on, never its own', async () => {
    // 3 s segments: a session lives 6 s past its last fetch, ample for a player fetching each second.
    const limits = { MAX_LISTENERS: '1', HLS_SEGMENT_SECONDS: '3' };
    const origin = await startNode(resources, limits);
    pushSine(resources, origin.server, { mount: '/radio.aac', codec: 'aac' });
    await waitFor('HLS at the origin', () => hasHls(origin), 20_000);
    const edge = await startNode(resources, { ...limits, RELAY_FROM: origin.url });
    await waitFor(
      'the edge reported',
      async () => (await statusJson(origin)).icestats.edges?.length === 1,
      15_000,
    );
    await waitFor('HLS at the edge', () => hasHls(edge), 20_000);

    const first = await HlsPlayer.start(`${origin.url}/hls/radio.m3u8`, 'player one');
    resources.onCleanup(() => first.stop());
    expect(first.masterUrl).toBe(`${origin.url}/hls/radio.m3u8`);
    await waitFor('the first session', () => first.statuses.length > 0);

    // The origin is full with one HLS session: a new player is sent to the edge, on the same
    // path (the query kept), and so is a direct listener.
    const master = await get(`${origin.url}/hls/radio.m3u8`, 'player two');
    expect(master.status).toBe(302);
    expect(master.location).toBe(`${edge.url}/hls/radio.m3u8`);
    const media = await get(`${origin.url}/hls/radio/live.m3u8?s=freshToken0001`, 'player two');
    expect(media.status).toBe(302);
    expect(media.location).toBe(`${edge.url}/hls/radio/live.m3u8?s=freshToken0001`);
    const direct = await request(origin.server, '/radio.aac');
    expect(direct.status).toBe(302);
    expect(direct.headers.location).toBe(`${edge.url}/radio.aac`);

    // The second player follows the 302 and plays at the edge, which is full then: it sends the
    // next new player back to the origin's same path.
    const second = await HlsPlayer.start(`${origin.url}/hls/radio.m3u8`, 'player two');
    resources.onCleanup(() => second.stop());
    expect(second.masterUrl).toBe(`${edge.url}/hls/radio.m3u8`);
    await waitFor('the second session', () => second.statuses.length > 0);
    const third = await get(`${edge.url}/hls/radio.m3u8`, 'player three');
    expect(third.status).toBe(302);
    expect(third.location).toBe(`${origin.url}/hls/radio.m3u8`);

    // Once the edge reports itself full, nowhere has room: the refusal a direct listener gets.
    await waitFor(
      'the full edge reported',
      async () => (await statusJson(origin)).icestats.edges?.[0]?.listeners === 1,
      15_000,
    );
    const refused = await get(`${origin.url}/hls/radio/live.m3u8`, 'player four');
    expect(refused).toMatchObject({ status: 403, body: 'Icecast connection limit reached' });
    expect((await get(`${origin.url}/hls/radio.m3u8`, 'player four')).status).toBe(403);
    expect((await request(origin.server, '/radio.aac')).status).toBe(403);

    // Sessions already admitted were never refused, full or not.
    const beforeStop = first.statuses.length;
    await waitFor('more fetches of both players', () => first.statuses.length > beforeStop + 4);
    await Promise.all([first.stop(), second.stop()]);
    expect([...new Set([...first.statuses, ...second.statuses])]).toEqual([200]);

    // A player that stops fetching ends its session two segment durations later: room again.
    await waitFor(
      'room at the origin again',
      async () => (await get(`${origin.url}/hls/radio.m3u8`, 'player five')).status === 200,
      20_000,
    );
  }, 120_000);
});
