import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { waitFor } from '@radio/core/testing';
import request from 'supertest';
import { ROUTE_SETUPS } from './helpers/databases.ts';
import { BASE, createUser, login, startTestApi, type TestApi } from './helpers/test-api.ts';

/** An Icecast-like stream server: /health and /status-json.xsl with two mounts on air. */
async function fakeStreamServer(): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    if (req.url === '/health') {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    } else if (req.url === '/status-json.xsl') {
      const port = (server.address() as AddressInfo).port;
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          icestats: {
            source: [
              { listenurl: `http://127.0.0.1:${port}/radio.mp3`, listeners: 4, listener_peak: 9 },
              {
                listenurl: `http://127.0.0.1:${port}/radio-low.mp3`,
                listeners: 1,
                listener_peak: 2,
              },
            ],
          },
        }),
      );
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe.each(ROUTE_SETUPS)('status routes ($dialect, sessions in $sessions)', (setup) => {
  let t: TestApi;
  let stream: { url: string; server: Server };

  beforeAll(async () => {
    stream = await fakeStreamServer();
    t = await startTestApi(setup, {
      streamUrl: stream.url,
      publicStreamUrl: 'https://radio.example.org/',
    });
  });
  afterAll(async () => {
    await t.close();
    await new Promise((resolve) => stream.server.close(resolve));
  });

  it('GET /status: service, version, uptime and the health of everything, without a session', async () => {
    const res = await request(t.app).get(`${BASE}/status`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      service: 'api',
      version: expect.stringMatching(/^\d+\.\d+\.\d+/),
      uptime: expect.any(Number),
      status: 'ok',
      health: {
        db: { ok: true, dialect: setup.dialect },
        bus: { ok: true, kind: 'memory' },
        stream: { ok: true },
        scheduler: { ok: true },
      },
      fallback: null,
    });
  });

  it('GET /status and /streaming-status say why while the fallback is on air', async () => {
    const fallback = {
      reason: 'empty-library' as const,
      message: 'the music folder is empty: add files to MUSIC_DIR',
    };
    await t.bus.setState('player-state', { state: 'playing', position: 3, amplify: 1, fallback });
    expect((await request(t.app).get(`${BASE}/status`)).body.fallback).toEqual(fallback);
    expect((await request(t.app).get(`${BASE}/streaming-status`)).body.fallback).toEqual(fallback);
    // A file appeared and plays: the scheduler clears it.
    await t.bus.setState('player-state', {
      state: 'playing',
      position: 0,
      amplify: 1,
      fallback: null,
    });
    expect((await request(t.app).get(`${BASE}/status`)).body.fallback).toBeNull();
    expect((await request(t.app).get(`${BASE}/streaming-status`)).body.fallback).toBeNull();
  });

  it('GET /status reports a stream server that is down', async () => {
    const down = await startTestApi(setup);
    try {
      const res = await request(down.app).get(`${BASE}/status`);
      expect(res.body.status).toBe('degraded');
      expect(res.body.health.stream).toMatchObject({ ok: false, error: expect.any(String) });
    } finally {
      await down.close();
    }
  });

  it('GET /auth-status: anonymous, then logged in', async () => {
    expect((await request(t.app).get(`${BASE}/auth-status`)).body).toEqual({
      authenticated: false,
      setupRequired: true,
    });
    await createUser(t.db, 'someone');
    const agent = await login(t.app, 'someone');
    const res = await agent.get(`${BASE}/auth-status`);
    expect(res.body).toMatchObject({
      authenticated: true,
      user: { username: 'someone', role: 'listener' },
    });
  });

  it('GET /streaming-status: mounts with public URLs, falling back to the stream server stats', async () => {
    const res = await request(t.app).get(`${BASE}/streaming-status`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      mounts: [
        {
          mount: '/radio.mp3',
          format: 'mp3',
          bitrate: 128,
          quality: 'high',
          url: 'https://radio.example.org/radio.mp3',
          listeners: 4,
          peak: 9,
          sourceConnected: true,
        },
        {
          mount: '/radio.aac',
          format: 'aac',
          bitrate: 96,
          quality: 'high',
          url: 'https://radio.example.org/radio.aac',
          listeners: null,
          peak: null,
          sourceConnected: false,
        },
        {
          mount: '/radio-low.mp3',
          format: 'mp3',
          bitrate: 64,
          quality: 'low',
          url: 'https://radio.example.org/radio-low.mp3',
          listeners: 1,
          peak: 2,
          sourceConnected: true,
        },
      ],
      hlsUrl: 'https://radio.example.org/hls/radio.m3u8',
      totalListeners: null,
      nowPlaying: null,
      fallback: null,
    });
  });

  it('GET /streaming-status prefers the bus: listener state, source events, now playing', async () => {
    const bus = t.bus;
    await bus.setState('listeners', {
      mounts: [
        { mount: '/radio.mp3', listeners: 10, peak: 12 },
        { mount: '/radio.aac', listeners: 3, peak: 3 },
      ],
      total: 13,
    });
    await bus.publish('stream.source', {
      mount: '/radio.aac',
      connected: true,
      contentType: 'audio/aac',
      bitrate: 96,
    });
    await bus.publish('stream.source', { mount: '/radio.mp3', connected: false });
    await bus.setState('now-playing', {
      trackId: 1,
      requestId: null,
      path: 'a.mp3',
      title: 'On Air',
      artist: 'Someone',
      album: null,
      duration: 100,
      startedAt: Date.now(),
      source: 'rotation',
    });
    const body = await waitFor('the second mount to report its source', async () => {
      const res = await request(t.app).get(`${BASE}/streaming-status`);
      return res.body.mounts[1].sourceConnected === true ? res.body : undefined;
    });
    expect(
      body.mounts.map((m: { listeners: number; sourceConnected: boolean }) => [
        m.listeners,
        m.sourceConnected,
      ]),
    ).toEqual([
      [10, false],
      [3, true],
      [0, true],
    ]);
    expect(body.totalListeners).toBe(13);
    expect(body.nowPlaying).toMatchObject({ title: 'On Air', artist: 'Someone' });
  });
});
