import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Track } from '@radio/db';
import request from 'supertest';
import { ROUTE_SETUPS } from './helpers/databases.ts';
import {
  type Agent,
  BASE,
  expectError,
  insertTracks,
  loginAll,
  startTestApi,
  type TestApi,
  track,
} from './helpers/test-api.ts';

describe.each(ROUTE_SETUPS)('player ($dialect, sessions in $sessions)', (setup) => {
  let t: TestApi;
  let admin: Agent;
  let dj: Agent;
  let listener: Agent;
  let tracks: Track[];

  beforeAll(async () => {
    t = await startTestApi(setup);
    ({ admin, dj, listener } = await loginAll(t));
    tracks = await insertTracks(t.db, [
      track({ title: 'First', artist: 'A' }),
      track({ title: 'Second', artist: 'B' }),
      track({ title: 'Broken', status: 'invalid' }),
    ]);
  });
  afterAll(() => t.close());

  const first = () => (tracks[0] as Track).id;
  const second = () => (tracks[1] as Track).id;

  it('GET /player: state, now playing with position, queue and amplify (any session)', async () => {
    const res = await listener.get(`${BASE}/player`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      state: 'stopped',
      nowPlaying: null,
      position: null,
      amplify: 1,
      queue: [],
    });
    expectError(await request(t.app).get(`${BASE}/player`), 401, 'API_UNAUTHENTICATED');
  });

  it('play, pause, resume, stop and skip go to the scheduler and answer its result', async () => {
    const played = await dj.post(`${BASE}/player/play`).send({ trackId: first() });
    expect(played.status).toBe(200);
    expect(played.body).toMatchObject({
      state: 'playing',
      nowPlaying: { trackId: first(), title: 'First' },
    });
    expect((await dj.post(`${BASE}/player/pause`)).body.state).toBe('paused');
    expect((await admin.post(`${BASE}/player/resume`).send({})).body.state).toBe('playing');
    const status = await listener.get(`${BASE}/player`);
    expect(status.body).toMatchObject({
      state: 'playing',
      nowPlaying: { title: 'First' },
      position: expect.any(Number),
    });

    await dj.post(`${BASE}/player/queue`).send({ trackId: second() });
    const skipped = await dj.post(`${BASE}/player/skip`);
    expect(skipped.body).toMatchObject({ state: 'playing', nowPlaying: { title: 'Second' } });
    expect((await dj.post(`${BASE}/player/stop`)).body).toMatchObject({
      state: 'stopped',
      position: null,
    });
    expect(t.scheduler?.received).toEqual([
      'player.play',
      'player.pause',
      'player.resume',
      'queue.push',
      'player.skip',
      'player.stop',
    ]);
    // Play with nothing: resume the rotation.
    expect((await dj.post(`${BASE}/player/play`)).body.state).toBe('playing');
  });

  it('control needs dj or admin; bad input is 400, unknown ids 404', async () => {
    for (const action of ['play', 'pause', 'resume', 'stop', 'skip']) {
      expectError(await listener.post(`${BASE}/player/${action}`).send({}), 403, 'API_FORBIDDEN');
      expectError(
        await request(t.app).post(`${BASE}/player/${action}`).send({}),
        401,
        'API_UNAUTHENTICATED',
      );
    }
    expectError(
      await dj.post(`${BASE}/player/play`).send({ trackId: 'one' }),
      400,
      'API_VALIDATION',
    );
    expectError(
      await dj.post(`${BASE}/player/play`).send({ trackId: first(), playlistId: 1 }),
      400,
      'API_VALIDATION',
    );
    expectError(await dj.post(`${BASE}/player/pause`).send({ now: true }), 400, 'API_VALIDATION');
    expectError(
      await dj.post(`${BASE}/player/play`).send({ trackId: 999999 }),
      404,
      'API_TRACK_NOT_FOUND',
    );
    expectError(
      await dj.post(`${BASE}/player/play`).send({ playlistId: 999999 }),
      404,
      'API_PLAYLIST_NOT_FOUND',
    );
    expectError(
      await dj.post(`${BASE}/player/play`).send({ trackId: (tracks[2] as Track).id }),
      409,
      'API_CONFLICT',
    );
  });

  it('queue: push by track id or URI, list it', async () => {
    t.scheduler?.queue.splice(0);
    const pushed = await dj.post(`${BASE}/player/queue`).send({ trackId: first() });
    expect(pushed.status).toBe(201);
    expect(pushed.body).toMatchObject({
      requestId: expect.any(String),
      item: { trackId: first(), title: 'First' },
    });
    const uri = await admin
      .post(`${BASE}/player/queue`)
      .send({ uri: 'http://example.com/jingle.mp3' });
    expect(uri.body.item).toMatchObject({ trackId: null, path: 'http://example.com/jingle.mp3' });
    const list = await listener.get(`${BASE}/player/queue`);
    expect(list.body.items.map((item: { title: string }) => item.title)).toEqual([
      'First',
      'http://example.com/jingle.mp3',
    ]);
    expect((await listener.get(`${BASE}/player`)).body.queue).toHaveLength(2);

    expectError(
      await listener.post(`${BASE}/player/queue`).send({ trackId: first() }),
      403,
      'API_FORBIDDEN',
    );
    expectError(await dj.post(`${BASE}/player/queue`).send({}), 400, 'API_VALIDATION');
    expectError(
      await dj.post(`${BASE}/player/queue`).send({ trackId: first(), uri: 'x' }),
      400,
      'API_VALIDATION',
    );
    expectError(
      await dj.post(`${BASE}/player/queue`).send({ trackId: 999999 }),
      404,
      'API_TRACK_NOT_FOUND',
    );
    expectError(await request(t.app).get(`${BASE}/player/queue`), 401, 'API_UNAUTHENTICATED');
  });

  it('amplify: set within bounds', async () => {
    expect((await dj.put(`${BASE}/player/amplify`).send({ value: 1.5 })).body).toEqual({
      amplify: 1.5,
    });
    expect((await listener.get(`${BASE}/player`)).body.amplify).toBe(1.5);
    expectError(await dj.put(`${BASE}/player/amplify`).send({ value: 5 }), 400, 'API_VALIDATION');
    expectError(await dj.put(`${BASE}/player/amplify`).send({ value: '2' }), 400, 'API_VALIDATION');
    expectError(await dj.put(`${BASE}/player/amplify`).send({}), 400, 'API_VALIDATION');
    expectError(
      await listener.put(`${BASE}/player/amplify`).send({ value: 1 }),
      403,
      'API_FORBIDDEN',
    );
  });

  it('history: newest first, paginated', async () => {
    await t.db.db
      .insertInto('play_history')
      .values([
        {
          track_id: first(),
          title: 'First',
          artist: 'A',
          source: 'rotation',
          started_at: '2026-01-01T10:00:00.000Z',
        },
        {
          track_id: second(),
          title: 'Second',
          artist: 'B',
          source: 'request',
          started_at: '2026-01-01T10:05:00.000Z',
          request_id: 'r1',
        },
        {
          track_id: null,
          title: 'Deleted',
          artist: null,
          source: 'playlist',
          started_at: '2026-01-01T10:10:00.000Z',
        },
      ])
      .execute();
    const res = await listener.get(`${BASE}/player/history`).query({ limit: 2 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ total: 3, page: 1, limit: 2 });
    expect(res.body.items.map((item: { title: string }) => item.title)).toEqual([
      'Deleted',
      'Second',
    ]);
    expect(res.body.items[1]).toMatchObject({
      trackId: second(),
      source: 'request',
      requestId: 'r1',
      endedAt: null,
    });
    expectError(
      await listener.get(`${BASE}/player/history`).query({ limit: -1 }),
      400,
      'API_VALIDATION',
    );
    expectError(await request(t.app).get(`${BASE}/player/history`), 401, 'API_UNAUTHENTICATED');
  });

  it('passes on a refusal of the scheduler with its code and a fitting status', async () => {
    // The fake scheduler refuses a track that vanished after the api checked it.
    await t.db.db.deleteFrom('tracks').where('id', '=', second()).execute();
    const res = await t.bus
      .request('queue.push', { trackId: second() })
      .catch((error: unknown) => error);
    expect((res as { code: string }).code).toBe('SCHEDULER_TRACK_NOT_FOUND');
  });
});

describe.each(ROUTE_SETUPS)('player without a scheduler ($dialect)', (setup) => {
  let t: TestApi;
  let dj: Agent;

  beforeAll(async () => {
    t = await startTestApi(setup, { commandTimeoutMs: 200 }, { scheduler: false });
    ({ dj } = await loginAll(t));
  });
  afterAll(() => t.close());

  it('answers 503 with a clear message when the scheduler does not answer', async () => {
    for (const [method, path] of [
      ['get', '/player'],
      ['post', '/player/pause'],
      ['post', '/player/play'],
      ['get', '/player/queue'],
      ['put', '/player/amplify'],
    ] as const) {
      const req =
        method === 'get'
          ? dj.get(`${BASE}${path}`)
          : dj[method](`${BASE}${path}`).send(path.endsWith('amplify') ? { value: 1 } : {});
      const res = await req;
      expectError(res, 503, 'API_SCHEDULER_UNAVAILABLE');
      expect(res.body.error.message).toMatch(/scheduler did not answer/);
      expect(res.headers['retry-after']).toBeDefined();
    }
  });

  it('still serves the routes that do not need it', async () => {
    expect((await dj.get(`${BASE}/player/history`)).status).toBe(200);
    const status = await request(t.app).get(`${BASE}/status`);
    expect(status.body).toMatchObject({
      status: 'degraded',
      health: { scheduler: { ok: false }, db: { ok: true } },
    });
  });
});
