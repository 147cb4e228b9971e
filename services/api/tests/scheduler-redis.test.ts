/**
 * The player routes over a real Redis bus: the api and a scheduler on separate connections,
 * as in the containers. The scheduler here is FakeScheduler, which answers the commands and
 * publishes the events and state keys the way services/scheduler does.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Track } from '@radio/db';
import type { Api } from '../src/index.ts';
import { ROUTE_SETUPS } from './helpers/databases.ts';
import { openEvents, type SseClient } from './helpers/sse.ts';
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

describe.each(ROUTE_SETUPS)('player over Redis ($dialect, sessions in $sessions)', (setup) => {
  let t: TestApi;
  let server: Api;
  let dj: Agent;
  let listener: Agent;
  let events: SseClient;
  let songs: Track[];

  beforeAll(async () => {
    t = await startTestApi(setup, {}, { bus: 'redis' });
    server = t.api;
    ({ dj, listener } = await loginAll(t));
    songs = await insertTracks(t.db, [
      track({ title: 'Opening', artist: 'Band' }),
      track({ title: 'Request', artist: 'Band' }),
      track({ title: 'Encore', artist: 'Band' }),
    ]);
    events = await openEvents(`${server.url}${BASE}/events`);
    await events.next('ready');
  });
  afterAll(async () => {
    events?.close();
    await t?.close();
  });

  const id = (i: number) => (songs[i] as Track).id;
  type State = { state: string };
  type Queue = { items: Array<{ title: string }> };

  it('play: the scheduler answers and the stream reports the new track and state', async () => {
    const res = await dj.post(`${BASE}/player/play`).send({ trackId: id(0) });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ state: 'playing', nowPlaying: { title: 'Opening' } });
    expect((await events.next('player.now-playing')).data).toMatchObject({ title: 'Opening' });
    expect((await events.next('player.state')).data).toMatchObject({ state: 'playing' });
  });

  it('pause and resume', async () => {
    expect((await dj.post(`${BASE}/player/pause`)).body.state).toBe('paused');
    expect(
      (await events.next('player.state', (d: State) => d.state === 'paused')).data,
    ).toBeDefined();
    expect((await dj.post(`${BASE}/player/resume`)).body.state).toBe('playing');
    expect(
      (await events.next('player.state', (d: State) => d.state === 'playing')).data,
    ).toBeDefined();
  });

  it('queue and skip', async () => {
    const pushed = await dj.post(`${BASE}/player/queue`).send({ trackId: id(1) });
    expect(pushed.status).toBe(201);
    expect((await events.next('queue.changed')).data).toMatchObject({
      items: [{ title: 'Request' }],
    });
    await dj
      .post(`${BASE}/player/queue`)
      .send({ trackId: id(2) })
      .expect(201);
    expect(
      (await events.next('queue.changed', (d: Queue) => d.items.length === 2)).data,
    ).toBeDefined();
    expect(
      (await listener.get(`${BASE}/player/queue`)).body.items.map(
        (i: { title: string }) => i.title,
      ),
    ).toEqual(['Request', 'Encore']);

    const skipped = await dj.post(`${BASE}/player/skip`);
    expect(skipped.body).toMatchObject({ state: 'playing', nowPlaying: { title: 'Request' } });
    expect(
      (await events.next('player.now-playing', (d: { title: string }) => d.title === 'Request'))
        .data,
    ).toBeDefined();
    expect(
      (await events.next('queue.changed', (d: Queue) => d.items.length === 1)).data,
    ).toBeDefined();

    const player = await listener.get(`${BASE}/player`);
    expect(player.body).toMatchObject({
      state: 'playing',
      nowPlaying: { title: 'Request' },
      queue: [{ title: 'Encore' }],
    });
  });

  it('stop', async () => {
    expect((await dj.post(`${BASE}/player/stop`)).body).toMatchObject({
      state: 'stopped',
      position: null,
    });
    expect(
      (await events.next('player.state', (d: State) => d.state === 'stopped')).data,
    ).toBeDefined();
  });

  it('a new client gets the state the scheduler left in Redis first', async () => {
    const late = await openEvents(`${server.url}${BASE}/events`);
    try {
      await late.next('ready');
      expect((await late.next('player.state')).data).toMatchObject({ state: 'stopped' });
      expect((await late.next('player.now-playing')).data).toMatchObject({ title: 'Request' });
      expect((await late.next('queue.changed')).data).toMatchObject({
        items: [{ title: 'Encore' }],
      });
    } finally {
      late.close();
    }
  });

  it('answers 503 once the scheduler is gone', async () => {
    t.scheduler?.stop();
    const res = await dj.post(`${BASE}/player/pause`);
    expectError(res, 503, 'API_SCHEDULER_UNAVAILABLE');
    expect(res.body.error.message).toMatch(/player\.pause/);
  });
});
