/**
 * The player routes against the real scheduler (services/scheduler) over a real Redis bus, on
 * a generated library, with the api and the scheduler on separate bus connections and separate
 * database handles, as two containers would have. No stream server: the scheduler plays out
 * and keeps retrying its outputs, which is all the player routes need.
 */
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { NowPlaying } from '@radio/core';
import { waitFor } from '@radio/core/testing';
import type { Api } from '../src/index.ts';
import { type RealScheduler, startRealScheduler } from './helpers/real-scheduler.ts';
import { openEvents, type SseClient } from './helpers/sse.ts';
import {
  type Agent,
  BASE,
  expectError,
  loginAll,
  startTestApi,
  type TestApi,
} from './helpers/test-api.ts';

jest.setTimeout(90_000);

describe('player routes driving the real scheduler over Redis (postgres, sessions in redis)', () => {
  let t: TestApi;
  let server: Api;
  let real: RealScheduler;
  let dj: Agent;
  let listener: Agent;
  let events: SseClient;

  beforeAll(async () => {
    t = await startTestApi(
      { dialect: 'postgres', sessions: 'redis' },
      {},
      { scheduler: false, bus: 'redis' },
    );
    real = await startRealScheduler(t);
    server = t.api;
    ({ dj, listener } = await loginAll(t));
    events = await openEvents(`${server.url}${BASE}/events`);
    await events.next('ready');
  });

  afterAll(async () => {
    events?.close();
    await real?.close();
    await t?.close();
  });

  type Track = { id: number; title: string };
  const trackByTitle = async (title: string): Promise<Track> => {
    const res = await listener.get(`${BASE}/tracks`).query({ q: title });
    const found = (res.body.items as Track[]).find((track) => track.title === title);
    if (!found) throw new Error(`no track ${title}`);
    return found;
  };

  it('lists the library the scheduler scanned', async () => {
    const res = await listener.get(`${BASE}/tracks`);
    expect(res.status).toBe(200);
    expect(res.body.total).toBeGreaterThanOrEqual(5);
    expect(
      (await listener.get(`${BASE}/tracks`).query({ status: 'invalid' })).body.total,
    ).toBeGreaterThanOrEqual(1);
  });

  it('play a given track', async () => {
    const morning = await trackByTitle('Morning');
    const res = await dj.post(`${BASE}/player/play`).send({ trackId: morning.id });
    expect(res.status).toBe(200);
    expect(res.body.state).toBe('playing');
    const onAir = await events.next(
      'player.now-playing',
      (np: NowPlaying) => np.trackId === morning.id,
      20_000,
    );
    expect(onAir.data).toMatchObject({ title: 'Morning', artist: 'Alpha Band' });
    const player = await waitFor('the player to report Morning', async () => {
      const body = (await listener.get(`${BASE}/player`)).body;
      return body.nowPlaying?.trackId === morning.id ? body : undefined;
    });
    expect(player).toMatchObject({
      state: 'playing',
      position: expect.any(Number),
      amplify: expect.any(Number),
    });
  });

  it('pause, resume', async () => {
    expect((await dj.post(`${BASE}/player/pause`)).body.state).toBe('paused');
    await events.next('player.state', (s: { state: string }) => s.state === 'paused');
    expect((await dj.post(`${BASE}/player/resume`)).body.state).toBe('playing');
    await events.next('player.state', (s: { state: string }) => s.state === 'playing');
  });

  it('queue a track, then skip to it', async () => {
    const noon = await trackByTitle('Noon');
    const pushed = await dj.post(`${BASE}/player/queue`).send({ trackId: noon.id });
    expect(pushed.status).toBe(201);
    expect(pushed.body.item).toMatchObject({ trackId: noon.id, kind: 'request' });
    await events.next(
      'queue.changed',
      (q: { items: Array<{ trackId: number | null }> }) => q.items[0]?.trackId === noon.id,
    );
    const queue = await listener.get(`${BASE}/player/queue`);
    expect(queue.body.items[0]).toMatchObject({ trackId: noon.id });

    const skipped = await dj.post(`${BASE}/player/skip`);
    expect(skipped.status).toBe(200);
    await events.next('player.now-playing', (np: NowPlaying) => np.trackId === noon.id, 20_000);
  });

  it('stop', async () => {
    const res = await dj.post(`${BASE}/player/stop`);
    expect(res.body).toMatchObject({ state: 'stopped', position: null });
    await events.next('player.state', (s: { state: string }) => s.state === 'stopped');
  });

  it('passes on the scheduler refusing a path outside the library', async () => {
    const res = await dj.post(`${BASE}/player/queue`).send({ uri: '/etc/passwd' });
    expectError(res, 400, 'SCHEDULER_PATH_OUTSIDE_LIBRARY');
  });
});
