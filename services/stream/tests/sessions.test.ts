import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { createMemoryBus, type ListenerSessionRecord, silentLogger } from '@radio/core';
import { waitFor } from '@radio/core/testing';
import type { StreamServer } from '../src/index.ts';
import { ADMIN_AUTH, pushSine, Resources, StreamListener } from './helpers.ts';

/*
 * What the stream server records of its listeners, read off the bus as the api would get it:
 * HLS sessions when they end, Icecast listeners when they leave, never an edge's pull or a
 * HEAD probe; behind a trusted proxy, the address X-Forwarded-For names.
 */

const resources = new Resources();
afterAll(() => resources.dispose());

const bus = createMemoryBus({ logger: silentLogger() });
resources.onCleanup(() => bus.close());
const records: ListenerSessionRecord[] = [];
const nodes = new Set<string>();
bus.handleCommands({
  'listeners.sessions': (batch) => {
    records.push(...batch.sessions);
    nodes.add(batch.node);
    return { stored: batch.sessions.length };
  },
});

let server: StreamServer;
let base: string;

beforeAll(async () => {
  // Every test client is on loopback: here loopback is the trusted proxy.
  server = await resources.server({ hlsSegmentSeconds: 1, trustedProxies: ['127.0.0.1'] }, bus);
  base = `http://127.0.0.1:${server.port}`;
  pushSine(resources, server, { mount: '/radio.aac', codec: 'aac' });
  await waitFor('three HLS segments', async () => {
    const res = await fetch(`${base}/hls/radio/live.m3u8`);
    return res.ok && (await res.text()).split('.aac?').length > 3;
  });
});

const recordsOf = (userAgent: string) => records.filter((r) => r.userAgent === userAgent);

describe('listener sessions', () => {
  test('an HLS session is one record when it ends: its fetches, bytes and address', async () => {
    const agent = 'AppleCoreMedia/1.0.0.21A329 (iPhone; U; CPU OS 17_0 like Mac OS X; en_us)';
    const headers = { 'user-agent': agent, 'x-forwarded-for': '9.9.9.9, 5.9.0.1' };
    const master = await (await fetch(`${base}/hls/radio.m3u8`, { headers })).text();
    const mediaPath = master.split('\n').find((line) => line.includes('live.m3u8')) as string;
    const mediaUrl = new URL(mediaPath, `${base}/hls/radio.m3u8`);
    const startedAt = Date.now();
    let bytes = 0;
    let lastFetch = 0;
    for (let round = 0; round < 2; round++) {
      const media = await fetch(mediaUrl, { headers });
      const text = await media.text();
      bytes += Buffer.byteLength(text);
      const segment = text
        .split('\n')
        .filter((line) => line.includes('.aac'))
        .at(-1) as string;
      const body = await (await fetch(new URL(segment, mediaUrl), { headers })).arrayBuffer();
      bytes += body.byteLength;
      lastFetch = Date.now();
      await new Promise((done) => setTimeout(done, 1000));
    }
    const [record] = await waitFor('the HLS session record', () => {
      const got = recordsOf(agent);
      return got.length > 0 && got;
    });
    expect(recordsOf(agent)).toHaveLength(1);
    expect(record).toMatchObject({ mount: '/radio.aac', transport: 'hls', ip: '5.9.0.1', bytes });
    expect(Math.abs((record?.startedAt ?? 0) - startedAt)).toBeLessThan(1000);
    // It ends one segment after its last fetch.
    expect(Math.abs((record?.endedAt ?? 0) - (lastFetch + 1000))).toBeLessThan(1000);
    expect(record?.key).toMatch(/^[0-9a-f-]{36}$/);
  });

  test('an Icecast listener is recorded when it leaves; an edge pull and a HEAD are not', async () => {
    const listener = new StreamListener(server.port, '/radio.aac', {
      headers: ['User-Agent: VLC/3.0.18 LibVLC/3.0.18', 'X-Forwarded-For: 81.2.69.142'],
    });
    resources.socket(listener.socket);
    const edge = new StreamListener(server.port, '/radio.aac', {
      headers: ['User-Agent: RadioEdge/1 (edge-1:8000)', `Authorization: ${ADMIN_AUTH}`],
    });
    resources.socket(edge.socket);
    await waitFor('both served', () => listener.bodyBytes > 0 && edge.bodyBytes > 0);
    const head = await fetch(`${base}/radio.aac`, {
      method: 'HEAD',
      headers: { 'user-agent': 'probe/1.0' },
    });
    expect(head.status).toBe(200);
    await new Promise((done) => setTimeout(done, 500));
    listener.socket.destroy();
    edge.socket.destroy();
    const [record] = await waitFor('the listener record', () => {
      const got = recordsOf('VLC/3.0.18 LibVLC/3.0.18');
      return got.length > 0 && got;
    });
    expect(record).toMatchObject({ mount: '/radio.aac', transport: 'icecast', ip: '81.2.69.142' });
    expect(record?.bytes).toBeGreaterThan(0);
    expect((record?.endedAt ?? 0) - (record?.startedAt ?? 0)).toBeGreaterThanOrEqual(400);
    // Another flush goes by: still nothing of the edge or the probe.
    await new Promise((done) => setTimeout(done, 2500));
    expect(records.filter((r) => r.userAgent?.startsWith('RadioEdge/'))).toEqual([]);
    expect(recordsOf('probe/1.0')).toEqual([]);
    expect([...nodes]).toEqual([expect.stringMatching(new RegExp(`:${server.port}$`))]);
    expect(server.sessionStats()).toMatchObject({ buffered: 0, dropped: 0, failures: 0 });
  });
});
