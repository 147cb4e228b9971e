import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { NowPlaying } from '@radio/core';
import { waitFor } from '@radio/core/testing';
import { ROUTE_SETUPS } from './helpers/databases.ts';
import {
  type Agent,
  BASE,
  expectError,
  login,
  loginAll,
  startTestApi,
  type TestApi,
} from './helpers/test-api.ts';
import { signatureIsValid, WebhookReceiver } from './helpers/webhook-receiver.ts';

const WEBHOOK_OPTIONS = {
  allowLoopback: true,
  // Short retries: the receiver is stopped for a real 30 s, but no minute-long waits follow.
  backoff: { baseMs: 200, maxMs: 2000 },
  pollMs: 100,
  timeoutMs: 12_000,
  offlineAfterMs: 300,
};

let songs = 0;
function nowPlaying(title = `Song ${++songs}`): NowPlaying {
  return {
    trackId: null,
    requestId: null,
    path: `music/${title}.mp3`,
    title,
    artist: 'The Band',
    album: null,
    duration: 200,
    startedAt: Date.now() + songs,
    source: 'rotation',
  };
}

interface Delivery {
  id: number;
  event: string;
  status: string;
  attempts: number;
  statusCode: number | null;
  latencyMs: number | null;
  error: string | null;
  nextAttemptAt: string | null;
}

describe.each(ROUTE_SETUPS)('webhooks ($dialect, sessions in $sessions)', (setup) => {
  let t: TestApi;
  let admin: Agent;
  let dj: Agent;
  const receivers: WebhookReceiver[] = [];

  beforeAll(async () => {
    t = await startTestApi(setup, { webhooks: WEBHOOK_OPTIONS });
    ({ admin, dj } = await loginAll(t));
  });
  afterAll(async () => {
    for (const receiver of receivers) await receiver.stop();
    await t.close();
  });

  async function receiver(): Promise<WebhookReceiver> {
    const started = await new WebhookReceiver().start();
    receivers.push(started);
    return started;
  }

  async function addWebhook(
    url: string,
    events: string[] = ['song.changed'],
    extra: Record<string, unknown> = {},
  ): Promise<{ id: number; secret: string }> {
    const res = await admin
      .post(`${BASE}/webhooks`)
      .send({ name: 'hook', url, events, ...extra })
      .expect(201);
    return res.body as { id: number; secret: string };
  }

  async function deliveries(id: number): Promise<Delivery[]> {
    return (await admin.get(`${BASE}/webhooks/${id}/deliveries`).expect(200)).body.items;
  }

  it('creates, lists, reads, changes and deletes webhooks; the secret is shown only when set', async () => {
    const created = await admin
      .post(`${BASE}/webhooks`)
      .send({
        name: 'Chat',
        url: 'http://192.0.2.10/hook',
        events: ['song.changed', 'listeners.peak'],
      })
      .expect(201);
    expect(created.body).toMatchObject({
      name: 'Chat',
      url: 'http://192.0.2.10/hook',
      events: ['song.changed', 'listeners.peak'],
      format: 'generic',
      enabled: true,
    });
    expect(created.body.secret).toMatch(/^[0-9a-f]{64}$/);
    const { id } = created.body;
    const list = await admin.get(`${BASE}/webhooks`).expect(200);
    expect(list.body.items.find((w: { id: number }) => w.id === id)).not.toHaveProperty('secret');
    expect((await admin.get(`${BASE}/webhooks/${id}`).expect(200)).body).not.toHaveProperty(
      'secret',
    );
    const off = await admin
      .patch(`${BASE}/webhooks/${id}`)
      .send({ enabled: false, format: 'discord' });
    expect(off.status).toBe(200);
    expect(off.body).toMatchObject({ enabled: false, format: 'discord' });
    expect(off.body).not.toHaveProperty('secret');
    const rotated = await admin
      .patch(`${BASE}/webhooks/${id}`)
      .send({ rotateSecret: true })
      .expect(200);
    expect(rotated.body.secret).toMatch(/^[0-9a-f]{64}$/);
    expect(rotated.body.secret).not.toBe(created.body.secret);
    await admin.delete(`${BASE}/webhooks/${id}`).expect(204);
    expectError(await admin.get(`${BASE}/webhooks/${id}`), 404, 'API_WEBHOOK_NOT_FOUND');
  });

  it('refuses bad input: a bad URL, an unknown event, an unknown id', async () => {
    const post = (body: Record<string, unknown>) => admin.post(`${BASE}/webhooks`).send(body);
    const valid = { name: 'x', url: 'https://example.com/hook', events: ['song.changed'] };
    expectError(await post({ ...valid, url: 'not a url' }), 400, 'API_VALIDATION');
    expectError(await post({ ...valid, url: 'ftp://example.com/x' }), 400, 'API_VALIDATION');
    expectError(await post({ ...valid, events: ['song.exploded'] }), 400, 'API_VALIDATION');
    expectError(await post({ ...valid, events: [] }), 400, 'API_VALIDATION');
    expectError(await post({ ...valid, format: 'slack' }), 400, 'API_VALIDATION');
    expectError(await post({ ...valid, secret: 'short' }), 400, 'API_VALIDATION');
    expectError(await admin.patch(`${BASE}/webhooks/1`).send({}), 400, 'API_VALIDATION');
    for (const res of [
      await admin.get(`${BASE}/webhooks/999999`),
      await admin.patch(`${BASE}/webhooks/999999`).send({ enabled: false }),
      await admin.delete(`${BASE}/webhooks/999999`),
      await admin.get(`${BASE}/webhooks/999999/deliveries`),
      await admin.post(`${BASE}/webhooks/999999/test`),
    ]) {
      expectError(res, 404, 'API_WEBHOOK_NOT_FOUND');
    }
    expectError(await admin.get(`${BASE}/webhooks/abc`), 400, 'API_VALIDATION');
    expectError(await dj.get(`${BASE}/webhooks`), 403, 'API_FORBIDDEN');
    expectError(await dj.post(`${BASE}/webhooks`).send(valid), 403, 'API_FORBIDDEN');
  });

  it("refuses URLs of the station's own services, on save and on send", async () => {
    for (const url of [
      'http://169.254.169.254/latest/meta-data',
      'http://0.0.0.0:8080/',
      'http://[::]/',
      'http://redis:6379/',
      'http://postgres:5432/',
      'http://stream:8000/admin',
      'http://scheduler/',
      'http://API./',
      'http://user:pw@example.com/',
    ]) {
      expectError(
        await admin.post(`${BASE}/webhooks`).send({ name: 'x', url, events: ['song.changed'] }),
        400,
        'API_WEBHOOK_URL_REFUSED',
      );
    }
    const { id } = await addWebhook('http://192.0.2.10/hook');
    expectError(
      await admin.patch(`${BASE}/webhooks/${id}`).send({ url: 'http://[fe80::1]/' }),
      400,
      'API_WEBHOOK_URL_REFUSED',
    );
    // A URL that became internal after it was saved is refused again when sent.
    await t.db.db
      .updateTable('webhooks')
      .set({ url: 'http://169.254.169.254/' })
      .where('id', '=', id)
      .execute();
    const sent = await admin.post(`${BASE}/webhooks/${id}/test`).expect(200);
    expect(sent.body).toMatchObject({ status: 'failed', statusCode: null });
    expect(sent.body.error).toMatch(/^refused: /);
    await admin.delete(`${BASE}/webhooks/${id}`).expect(204);
  });

  it('delivers song.changed at the change, signed, and records it', async () => {
    const hook = await receiver();
    const { id, secret } = await addWebhook(hook.url);
    const song = nowPlaying('Signed Song');
    const published = performance.now();
    await t.bus.publish('player.now-playing', song);
    const received = await waitFor('the song.changed delivery', () => hook.received[0]);
    process.stderr.write(
      `song.changed: delivered ${Math.round(received.at - published)} ms after\n`,
    );
    expect(received.headers['x-radio-event']).toBe('song.changed');
    expect(received.headers['content-type']).toBe('application/json');
    expect(signatureIsValid(secret, received)).toBe(true);
    expect(signatureIsValid('another secret of some length', received)).toBe(false);
    expect(Number(received.headers['x-radio-timestamp'])).toBeCloseTo(Date.now() / 1000, -2);
    expect(JSON.parse(received.body)).toEqual({
      event: 'song.changed',
      timestamp: new Date(song.startedAt).toISOString(),
      data: {
        trackId: null,
        title: 'Signed Song',
        artist: 'The Band',
        album: null,
        duration: 200,
        startedAt: new Date(song.startedAt).toISOString(),
        source: 'rotation',
      },
    });
    const [delivery] = await waitFor('the delivery recorded', async () => {
      const items = await deliveries(id);
      return items[0]?.status === 'delivered' && items;
    });
    expect(delivery).toMatchObject({
      event: 'song.changed',
      attempts: 1,
      statusCode: 204,
      error: null,
      nextAttemptAt: null,
    });
    expect(delivery?.latencyMs).toEqual(expect.any(Number));
    // The same start announced again is the same change: not sent twice.
    await t.bus.publish('player.now-playing', song);
    await t.bus.publish('player.now-playing', nowPlaying());
    await waitFor('the next song', () => hook.received.length === 2);
    expect(hook.bodies().map((b) => b.data.title)).toEqual(['Signed Song', `Song ${songs}`]);
    await admin.delete(`${BASE}/webhooks/${id}`).expect(204);
  });

  it('sends only the events a webhook chose, and nothing to a disabled one', async () => {
    const hook = await receiver();
    const chosen = await addWebhook(hook.url, ['playout.dead_air', 'live.connected']);
    const disabled = await addWebhook(hook.url, ['song.changed', 'playout.dead_air'], {
      enabled: false,
    });
    await t.bus.publish('player.now-playing', nowPlaying());
    await t.bus.publish('playout.dead_air', {
      silentSeconds: 12.5,
      trackId: null,
      title: 'Quiet',
      action: 'skipped',
    });
    await t.bus.publish('live.connected', {
      dj: { id: 3, name: 'DJ Ana' },
      mount: '/radio.mp3',
      at: 1_800_000_000_000,
    });
    await waitFor('two deliveries', () => hook.received.length >= 2);
    expect(
      hook
        .bodies()
        .map((b) => b.event)
        .sort(),
    ).toEqual(['live.connected', 'playout.dead_air']);
    expect(hook.bodies('playout.dead_air')[0]?.data).toMatchObject({
      silentSeconds: 12.5,
      title: 'Quiet',
      action: 'skipped',
    });
    expect(hook.bodies('live.connected')[0]?.data).toEqual({
      dj: { id: 3, name: 'DJ Ana' },
      mount: '/radio.mp3',
      at: new Date(1_800_000_000_000).toISOString(),
    });
    expect(await deliveries(disabled.id)).toEqual([]);
    await admin.delete(`${BASE}/webhooks/${chosen.id}`).expect(204);
    await admin.delete(`${BASE}/webhooks/${disabled.id}`).expect(204);
  });

  it('retries a 500 with backoff until it is accepted', async () => {
    const hook = await receiver();
    hook.mode = { kind: 'fail', status: 500 };
    const { id } = await addWebhook(hook.url);
    await t.bus.publish('player.now-playing', nowPlaying());
    await waitFor('three failed attempts', () => hook.received.length >= 3);
    const [failing] = await deliveries(id);
    expect(failing).toMatchObject({ status: 'retrying', statusCode: 500 });
    expect(failing?.nextAttemptAt).toEqual(expect.any(String));
    hook.mode = { kind: 'ok' };
    const [delivered] = await waitFor('the delivery accepted', async () => {
      const items = await deliveries(id);
      return items[0]?.status === 'delivered' && items;
    });
    expect(delivered?.attempts).toBeGreaterThanOrEqual(4);
    expect(delivered).toMatchObject({ statusCode: 204, error: null });
    // Every attempt carried the same body.
    expect(new Set(hook.received.map((r) => r.body)).size).toBe(1);
    await admin.delete(`${BASE}/webhooks/${id}`).expect(204);
  });

  it('formats a Discord message for a discord webhook', async () => {
    const hook = await receiver();
    const { id } = await addWebhook(hook.url, ['song.changed'], { format: 'discord' });
    await t.bus.publish('player.now-playing', nowPlaying('Disco'));
    const received = await waitFor('the discord message', () => hook.received[0]);
    const body = JSON.parse(received.body);
    expect(body.content).toBe('Now playing: The Band – Disco');
    expect(body.embeds[0]).toMatchObject({ title: 'song.changed' });
    await admin.delete(`${BASE}/webhooks/${id}`).expect(204);
  });

  it('answers a test send with its outcome', async () => {
    const hook = await receiver();
    const { id, secret } = await addWebhook(hook.url);
    const ok = await admin.post(`${BASE}/webhooks/${id}/test`).expect(200);
    expect(ok.body).toMatchObject({
      event: 'test',
      status: 'delivered',
      statusCode: 204,
      attempts: 1,
    });
    expect(signatureIsValid(secret, hook.received[0] as never)).toBe(true);
    hook.mode = { kind: 'fail', status: 503 };
    const failed = await admin.post(`${BASE}/webhooks/${id}/test`).expect(200);
    expect(failed.body).toMatchObject({ status: 'failed', statusCode: 503, nextAttemptAt: null });
    expect((await deliveries(id)).map((d) => d.status)).toEqual(['failed', 'delivered']);
    await admin.delete(`${BASE}/webhooks/${id}`).expect(204);
  });

  it('tells of a mount without a source (station.offline) and of its return', async () => {
    const hook = await receiver();
    const { id } = await addWebhook(hook.url, ['station.offline', 'station.online']);
    await t.bus.publish('stream.source', { mount: '/radio.mp3', connected: false });
    const offline = await waitFor('station.offline', () => hook.bodies('station.offline')[0]);
    expect(offline.data).toMatchObject({ mount: '/radio.mp3', since: expect.any(String) });
    await t.bus.publish('stream.source', { mount: '/radio.mp3', connected: true });
    const online = await waitFor('station.online', () => hook.bodies('station.online')[0]);
    expect(online.data).toMatchObject({ mount: '/radio.mp3', offlineSeconds: expect.any(Number) });
    // A source back before the limit is no outage.
    await t.bus.publish('stream.source', { mount: '/radio.aac', connected: false });
    await t.bus.publish('stream.source', { mount: '/radio.aac', connected: true });
    await t.bus.publish('player.now-playing', nowPlaying());
    await new Promise((resolve) => setTimeout(resolve, WEBHOOK_OPTIONS.offlineAfterMs * 3));
    expect(hook.bodies().map((b) => b.event)).toEqual(['station.offline', 'station.online']);
    await admin.delete(`${BASE}/webhooks/${id}`).expect(204);
  });

  it('tells of a new all-time listener record', async () => {
    const hook = await receiver();
    const { id } = await addWebhook(hook.url, ['listeners.peak']);
    const counts = (total: number) => ({
      mounts: [{ mount: '/radio.mp3', listeners: total, peak: total }],
      total,
    });
    await t.bus.publish('stream.listeners', counts(5));
    await t.bus.publish('stream.listeners', counts(3));
    await t.bus.publish('stream.listeners', counts(8));
    await waitFor('two records', () => hook.received.length >= 2);
    // Two deliveries to one webhook may cross (two attempts run at once): by size.
    const records = hook.bodies().map((b) => b.data);
    records.sort((a, b) => Number(a.listeners) - Number(b.listeners));
    expect(records).toEqual([
      { kind: 'all-time', listeners: 5, previous: 0, at: expect.any(String) },
      { kind: 'all-time', listeners: 8, previous: 5, at: expect.any(String) },
    ]);
    await admin.delete(`${BASE}/webhooks/${id}`).expect(204);
  });

  it('a receiver that takes 10 s to answer delays nothing else', async () => {
    const slow = await receiver();
    slow.mode = { kind: 'slow', ms: 10_000 };
    const fast = await receiver();
    const slowHook = await addWebhook(slow.url);
    const fastHook = await addWebhook(fast.url);
    for (let i = 0; i < 4; i += 1) {
      const published = performance.now();
      await t.bus.publish('player.now-playing', nowPlaying());
      const received = await waitFor('the fast delivery', () => fast.received[i]);
      // Not queued behind the slow receiver's 10 s: far less than that, however loaded the machine.
      expect(received.at - published).toBeLessThan(5000);
    }
    // The slow one holds at most its own slots meanwhile, and is not done yet.
    expect(slow.received.length).toBeLessThanOrEqual(2);
    const slowDeliveries = await deliveries(slowHook.id);
    expect(slowDeliveries.every((d) => d.status !== 'delivered')).toBe(true);
    await waitFor(
      'the slow deliveries',
      async () => (await deliveries(slowHook.id)).every((d) => d.status === 'delivered'),
      60_000,
    );
    await admin.delete(`${BASE}/webhooks/${slowHook.id}`).expect(204);
    await admin.delete(`${BASE}/webhooks/${fastHook.id}`).expect(204);
  }, 90_000);

  it('a receiver down for 30 s gets the deliveries when it returns, across an api restart', async () => {
    const hook = await receiver();
    const { id, secret } = await addWebhook(hook.url);
    await hook.stop();
    const titles = ['Down 1', 'Down 2', 'Down 3'];
    for (const title of titles) await t.bus.publish('player.now-playing', nowPlaying(title));
    const downSince = Date.now();
    await waitFor('failed attempts', async () => {
      const items = await deliveries(id);
      return items.length === 3 && items.every((d) => d.status === 'retrying' && d.attempts >= 2);
    });
    const [retrying] = await deliveries(id);
    // Refused like any other failure without an answer: the error names no port state.
    expect(retrying?.error).toMatch(/^no answer from the receiver/);
    // The api restarts while the receiver is away: the queue is in the database.
    await t.restart();
    admin = await login(t.app, 'admin');
    await new Promise((resolve) =>
      setTimeout(resolve, Math.max(0, 30_000 - (Date.now() - downSince))),
    );
    expect(hook.received).toEqual([]);
    await hook.start();
    await waitFor('every delivery', () => hook.received.length >= 3);
    expect(
      hook
        .bodies()
        .map((b) => b.data.title)
        .sort(),
    ).toEqual(titles);
    expect(hook.received.every((r) => signatureIsValid(secret, r))).toBe(true);
    const items = await waitFor('all delivered', async () => {
      const list = await deliveries(id);
      return list.every((d) => d.status === 'delivered') && list;
    });
    expect(items.every((d) => d.attempts > 2)).toBe(true);
    await admin.delete(`${BASE}/webhooks/${id}`).expect(204);
  }, 120_000);
});
