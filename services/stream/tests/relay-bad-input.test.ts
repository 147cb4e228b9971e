import net from 'node:net';
import { afterAll, describe, expect, test } from '@jest/globals';
import { createMemoryBus, createMemoryHub, silentLogger } from '@radio/core';
import { freePort, waitFor } from '@radio/core/testing';
import {
  ADMIN_AUTH,
  pushSine,
  Resources,
  request,
  SOURCE_AUTH,
  StreamListener,
} from './helpers.ts';
import { loggedServer } from './relay-helpers.ts';

/* What an edge does with an origin it cannot use, and the report path through the bus. */

const resources = new Resources();
afterAll(() => resources.dispose());

const FAST = { relayPollMs: 300, edgeReportMs: 300 };

function live(server: { snapshot(): { mounts: { path: string; state: string }[] } }, path: string) {
  return server.snapshot().mounts.some((m) => m.path === path && m.state === 'live');
}

describe('edge relays: bad input', () => {
  test('an unreachable origin is logged with why and retried until it answers', async () => {
    const port = await freePort();
    const edge = await loggedServer(resources, { relayFrom: `http://127.0.0.1:${port}`, ...FAST });
    await waitFor('the reason in the log', () => edge.said('unreachable: ECONNREFUSED'));
    expect((await request(edge.server, '/radio.mp3')).status).toBe(404);

    const origin = await resources.server({ port });
    pushSine(resources, origin, { mount: '/radio.mp3' });
    await waitFor('the edge relaying once the origin answers', () =>
      live(edge.server, '/radio.mp3'),
    );
    await waitFor('the recovery in the log', () => edge.said('answers again'));
  });

  test('an origin gone for good: edge listeners get silence through the grace, then are closed', async () => {
    const origin = await resources.server();
    pushSine(resources, origin, { mount: '/radio.mp3' });
    await waitFor('the origin source', () => live(origin, '/radio.mp3'));
    const edge = await loggedServer(resources, {
      relayFrom: `http://127.0.0.1:${origin.port}`,
      sourceGraceMs: 2000,
      ...FAST,
    });
    await waitFor('the edge relaying', () => live(edge.server, '/radio.mp3'));
    const listener = new StreamListener(edge.server.port, '/radio.mp3');
    resources.socket(listener.socket);
    await waitFor('audio on the edge', () => listener.bodyBytes > 20_000);

    await origin.close();
    await waitFor('the loss in the log', () => edge.said('relay of /radio.mp3 lost'));
    const atLoss = listener.bodyBytes;
    await waitFor('silence during the grace', () => listener.bodyBytes > atLoss + 8000);
    expect(listener.closed).toBe(false);
    await waitFor('the listener let go after the grace', () => listener.closed);
  });

  test('an origin that refuses the credentials: logged, retried, nothing relayed', async () => {
    const origin = await loggedServer(resources);
    pushSine(resources, origin.server, { mount: '/radio.mp3' });
    await waitFor('the origin source', () => live(origin.server, '/radio.mp3'));
    const edge = await loggedServer(resources, {
      relayFrom: `http://127.0.0.1:${origin.server.port}`,
      adminPassword: 'not-the-origins',
      ...FAST,
    });
    await waitFor('the refusal in the log', () => edge.said('refused the relay credentials (401)'));
    const refusals = (): number =>
      origin.lines.filter(
        (line) =>
          line.msg === 'access' &&
          String(line.request).includes('/admin/stats.xml') &&
          line.status === 401,
      ).length;
    await waitFor('the edge asking again', () => refusals() >= 3);
    expect(live(edge.server, '/radio.mp3')).toBe(false);
    expect((await request(edge.server, '/radio.mp3')).status).toBe(404);
    // Said once per outage, not once per retry.
    expect(edge.lines.filter((line) => line.msg.includes('refused the relay')).length).toBe(1);
  });

  test('a listed mount the edge cannot cut into frames is skipped with a warning', async () => {
    const origin = await resources.server();
    pushSine(resources, origin, { mount: '/radio.mp3' });
    // A source of bytes the edge has no frame parser for (passed through by the origin).
    const raw = net.connect(origin.port, '127.0.0.1', () =>
      raw.write(
        `PUT /data.bin HTTP/1.1\r\nAuthorization: ${SOURCE_AUTH}\r\nContent-Type: application/octet-stream\r\n\r\n`,
      ),
    );
    resources.socket(raw);
    const feed = setInterval(() => raw.write(Buffer.alloc(4096, 7)), 100);
    resources.onCleanup(() => clearInterval(feed));
    await waitFor(
      'both origin mounts',
      () => live(origin, '/radio.mp3') && live(origin, '/data.bin'),
    );
    const edge = await loggedServer(resources, {
      relayFrom: `http://127.0.0.1:${origin.port}`,
      ...FAST,
    });
    await waitFor('the warning', () =>
      edge.lines.some(
        (line) => line.level === 'warn' && line.msg.includes('origin mount /data.bin skipped'),
      ),
    );
    await waitFor('the other mount relayed', () => live(edge.server, '/radio.mp3'));
    expect(edge.server.snapshot(true).mounts.some((m) => m.path === '/data.bin')).toBe(false);
  });

  test('a relayed AAC mount is served as HLS on the edge, and its sessions reach the origin count', async () => {
    const origin = await resources.server(FAST);
    pushSine(resources, origin, { mount: '/radio.aac', codec: 'aac' });
    await waitFor('the origin source', () => live(origin, '/radio.aac'));
    const edge = await loggedServer(resources, {
      relayFrom: `http://127.0.0.1:${origin.port}`,
      ...FAST,
    });
    await waitFor('the edge relaying', () => live(edge.server, '/radio.aac'));
    const base = edge.server.url;
    const media = await waitFor(
      'a media playlist with segments on the edge',
      async () => {
        const master = await (await fetch(`${base}/hls/radio.m3u8`)).text();
        const line = master.split('\n').find((l) => l.includes('live.m3u8'));
        if (!line) return false;
        const url = new URL(line, `${base}/hls/radio.m3u8`).href;
        const text = await (await fetch(url)).text();
        const segment = text.split('\n').find((l) => l.includes('.aac'));
        return segment ? new URL(segment, url).href : false;
      },
      30_000,
    );
    const segment = await fetch(media);
    expect(segment.status).toBe(200);
    expect((await segment.arrayBuffer()).byteLength).toBeGreaterThan(1000);
    await waitFor('the edge HLS session in the origin count', async () => {
      const status = JSON.parse((await request(origin, '/status-json.xsl')).body);
      return status.icestats.source?.listeners === 1;
    });
  });

  test('with a bus, edges report on edge.listeners and the origin counts them', async () => {
    const hub = createMemoryHub();
    const originBus = createMemoryBus({ logger: silentLogger(), hub });
    const edgeBus = createMemoryBus({ logger: silentLogger(), hub });
    resources.onCleanup(() => originBus.close());
    resources.onCleanup(() => edgeBus.close());
    const origin = await loggedServer(resources, FAST, originBus);
    pushSine(resources, origin.server, { mount: '/radio.mp3' });
    await waitFor('the origin source', () => live(origin.server, '/radio.mp3'));
    const edge = await loggedServer(
      resources,
      { relayFrom: `http://127.0.0.1:${origin.server.port}`, ...FAST },
      edgeBus,
    );
    await waitFor('the edge relaying', () => live(edge.server, '/radio.mp3'));
    const listeners = [0, 1].map(() => {
      const listener = new StreamListener(edge.server.port, '/radio.mp3');
      resources.socket(listener.socket);
      return listener;
    });
    await waitFor('audio on the edge', () => listeners.every((l) => l.bodyBytes > 0));
    await waitFor('the edge listeners in the origin count', async () => {
      const counts = await originBus.getState('listeners');
      const mp3 = counts?.mounts.find((m) => m.mount === '/radio.mp3');
      return counts?.total === 2 && mp3?.listeners === 2;
    });
    const stats = await request(origin.server, '/admin/stats.xml', {
      headers: { Authorization: ADMIN_AUTH },
    });
    expect(stats.body).toContain(`<listenurl>${edge.server.url}</listenurl>`);
    // Reports went over the bus, not the admin API.
    expect(
      origin.lines.some((line) => String(line.request ?? '').includes('/admin/edge-listeners')),
    ).toBe(false);
  });
});
