import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
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

describe.each(ROUTE_SETUPS)('live events ($dialect, sessions in $sessions)', (setup) => {
  let t: TestApi;
  let server: Api;
  let dj: Agent;
  let admin: Agent;
  const clients: SseClient[] = [];

  beforeAll(async () => {
    t = await startTestApi(setup, { events: { heartbeatMs: 50, maxClients: 3 } });
    server = t.api;
    ({ dj, admin } = await loginAll(t));
  });
  afterAll(async () => {
    for (const client of clients) client.close();
    await t.close();
  });

  async function connect(): Promise<SseClient> {
    const client = await openEvents(`${server.url}${BASE}/events`);
    clients.push(client);
    return client;
  }

  it('streams as text/event-stream, with retry and a ready marker when there is no state yet', async () => {
    const client = await connect();
    expect(client.status).toBe(200);
    expect(client.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(client.headers['cache-control']).toMatch(/no-cache/);
    await client.next('ready');
    expect(client.events.map((e) => e.event)).toEqual(['ready']);
    client.close();
  });

  it('relays player, queue, listener, scan, analysis and dead-air events as they happen', async () => {
    const [song] = await insertTracks(t.db, [track({ title: 'Live Song', artist: 'Band' })]);
    const client = await connect();
    await client.next('ready');
    await dj.post(`${BASE}/player/play`).send({ trackId: song?.id }).expect(200);
    expect((await client.next('player.now-playing')).data).toMatchObject({
      title: 'Live Song',
      trackId: song?.id,
    });
    expect((await client.next('player.state')).data).toMatchObject({ state: 'playing' });
    await dj.post(`${BASE}/player/pause`).expect(200);
    expect((await client.next('player.state')).data).toMatchObject({ state: 'paused' });
    await dj.post(`${BASE}/player/queue`).send({ trackId: song?.id }).expect(201);
    const queue = await client.next('queue.changed');
    expect(queue.data).toMatchObject({ items: [{ title: 'Live Song' }] });
    expect(queue.id).toEqual(expect.any(String));
    // What the stream server does on a change: the state key, then the event.
    const counts = { mounts: [{ mount: '/radio.mp3', listeners: 2, peak: 2 }], total: 2 };
    await t.bus.setState('listeners', counts);
    await t.bus.publish('stream.listeners', counts);
    expect((await client.next('stream.listeners')).data).toMatchObject({ total: 2 });
    await t.bus.publish('stream.source', { mount: '/radio.mp3', connected: true });
    expect((await client.next('stream.source')).data).toMatchObject({ connected: true });
    await admin.post(`${BASE}/admin/library/scan`).expect(202);
    expect((await client.next('library.scan')).data).toMatchObject({
      scanId: 'scan-1',
      state: 'running',
    });
    expect((await client.next('library.scan')).data).toMatchObject({
      scanId: 'scan-1',
      state: 'done',
    });
    // The analysis worker's progress (state key, then event) and a dead-air skip.
    const analysis = {
      state: 'running' as const,
      pending: 3,
      analysed: 1,
      failed: 0,
      current: ['a.mp3'],
      rate: 12.5,
    };
    await t.bus.setState('library-analysis', analysis);
    await t.bus.publish('library.analysis', analysis);
    expect((await client.next('library.analysis')).data).toEqual(analysis);
    await t.bus.publish('playout.dead_air', {
      silentSeconds: 10.2,
      trackId: song?.id ?? null,
      title: 'Live Song',
      action: 'skipped',
    });
    expect((await client.next('playout.dead_air')).data).toEqual({
      silentSeconds: 10.2,
      trackId: song?.id,
      title: 'Live Song',
      action: 'skipped',
    });
    await dj.post(`${BASE}/player/stop`).expect(200);
    expect(
      (await client.next('player.state', (data: { state: string }) => data.state === 'stopped'))
        .data,
    ).toMatchObject({
      state: 'stopped',
    });
    client.close();
  });

  it('gives a reconnecting client the current state first', async () => {
    const client = await connect();
    await client.next('ready');
    const firsts = client.events.map((e) => e.event);
    expect(firsts).toEqual([
      'player.state',
      'player.now-playing',
      'queue.changed',
      'stream.listeners',
      'library.scan',
      'library.analysis',
      'ready',
    ]);
    expect((await client.next('player.now-playing')).data).toMatchObject({ title: 'Live Song' });
    expect((await client.next('player.state')).data).toMatchObject({ state: 'stopped' });
    client.close();
  });

  it('limits the number of open streams', async () => {
    const open = [await connect(), await connect(), await connect()];
    await Promise.all(open.map((client) => client.next('ready')));
    const refused = await fetch(`${server.url}${BASE}/events`);
    expect(refused.status).toBe(503);
    expectError(
      { status: refused.status, body: await refused.json() } as never,
      503,
      'API_TOO_MANY_LISTENERS',
    );
    for (const client of open) client.close();
  });
});
