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
});
