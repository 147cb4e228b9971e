import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type Bus, createRedisBus, type NowPlaying, silentLogger } from '@radio/core';
import { waitFor } from '@radio/core/testing';
import type { DbHandle } from '@radio/db';
import { type Api, createApi } from '../src/index.ts';
import { WebhooksRepository } from '../src/webhooks/webhooks.repository.ts';
import {
  createTestDatabase,
  createTestRedis,
  type Dialect,
  REDIS_URL,
  type TestDatabase,
  type TestRedis,
} from './helpers/databases.ts';
import { signatureIsValid, WebhookReceiver } from './helpers/webhook-receiver.ts';

/*
 * Several api processes on one database and one Redis bus, as the compose scale profile runs
 * them: every process sees each bus event, yet each webhook gets it once, and each queued
 * delivery is claimed and sent by one process.
 */

const PROCESSES = 3;

function song(n: number): NowPlaying {
  return {
    trackId: null,
    requestId: null,
    path: `music/${n}.mp3`,
    title: `Song ${n}`,
    artist: null,
    album: null,
    duration: 120,
    startedAt: 1_800_000_000_000 + n,
    source: 'rotation',
  };
}

describe.each<Dialect>(['sqlite', 'postgres'])('webhooks across api processes (%s)', (dialect) => {
  let database: TestDatabase;
  let redis: TestRedis;
  let dir: string;
  let publisher: Bus;
  let receiver: WebhookReceiver;
  const apis: Api[] = [];
  const buses: Bus[] = [];
  let db: DbHandle;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    redis = await createTestRedis();
    dir = await mkdtemp(join(tmpdir(), 'radio-webhooks-'));
    receiver = await new WebhookReceiver().start();
    const logger = silentLogger();
    publisher = await createRedisBus({ url: REDIS_URL, logger, prefix: redis.prefix });
    db = await database.open();
    for (let i = 0; i < PROCESSES; i += 1) {
      const bus = await createRedisBus({ url: REDIS_URL, logger, prefix: redis.prefix });
      buses.push(bus);
      const api = createApi(
        {
          sessionSecret: 'test-session-secret-0123456789',
          streamUrl: 'http://127.0.0.1:9',
          musicDir: dir,
          dataDir: dir,
          scryptCost: 10,
          webhooks: { allowLoopback: true, pollMs: 50, backoff: { baseMs: 100, maxMs: 500 } },
        },
        { db: await database.open(), bus, logger },
      );
      await api.start();
      apis.push(api);
    }
  }, 60_000);

  afterAll(async () => {
    for (const api of apis) await api.close();
    for (const bus of buses) await bus.close();
    await publisher.close();
    await receiver.stop();
    await redis.cleanup();
    await database.drop();
    await rm(dir, { recursive: true, force: true });
  });

  it('queues each event once per webhook and sends each delivery once', async () => {
    const hooks = await Promise.all(
      [receiver.url, receiver.url].map((url, i) =>
        db.db
          .insertInto('webhooks')
          .values({
            name: `hook ${i}`,
            url,
            events: '["song.changed"]',
            secret: `secret-of-hook-${i}-0123456789`,
            format: 'generic',
          })
          .returningAll()
          .executeTakeFirstOrThrow(),
      ),
    );
    // The receiver fails the first attempts so retries, too, go through the claims.
    receiver.mode = { kind: 'fail', status: 503 };
    for (let n = 1; n <= 10; n += 1) await publisher.publish('player.now-playing', song(n));
    await waitFor('some failed attempts', () => receiver.received.length >= 20);
    receiver.mode = { kind: 'ok' };
    const rows = await waitFor('every delivery delivered', async () => {
      const all = await db.db.selectFrom('webhook_deliveries').selectAll().execute();
      return all.length === 20 && all.every((row) => row.status === 'delivered') && all;
    });
    for (const hook of hooks) {
      const titles = rows
        .filter((row) => row.webhook_id === hook.id)
        .map((row) => JSON.parse(row.payload).data.title)
        .sort();
      expect(titles).toEqual(Array.from({ length: 10 }, (_, i) => `Song ${i + 1}`).sort());
    }
    // Each delivery was answered 2xx once: no second process sent it again.
    const answered = receiver.received
      .filter((request) => request.status === 204)
      .map((request) => {
        const hook = hooks.findIndex((h) => signatureIsValid(h.secret, request));
        return `${hook} ${JSON.parse(request.body).data.title}`;
      });
    const each = hooks.flatMap((_, hook) =>
      Array.from({ length: 10 }, (_, i) => `${hook} Song ${i + 1}`),
    );
    expect(answered.sort()).toEqual(each.sort());
    // And every attempt counted reached the receiver: one that could not be sent within its
    // claim is released uncounted.
    const attempts = rows.reduce((sum, row) => sum + row.attempts, 0);
    expect(receiver.received.length).toBe(attempts);
  }, 60_000);

  it('lets one of two concurrent claims win', async () => {
    // The processes' own workers would claim these rows too: they are done with.
    for (const api of apis.splice(0)) await api.close();
    const repos = [new WebhooksRepository(db), new WebhooksRepository(await database.open())];
    const [hook] = await db.db.selectFrom('webhooks').select('id').execute();
    const webhookId = hook?.id as number;
    for (let round = 0; round < 10; round += 1) {
      await repos[0]?.enqueue(webhookId, 'test', `claim-${round}`, '{}');
      const row = await db.db
        .selectFrom('webhook_deliveries')
        .select('id')
        .where('event_key', '=', `claim-${round}`)
        .executeTakeFirstOrThrow();
      const now = new Date(Date.now() + 1000).toISOString();
      const until = new Date(Date.now() + 60_000).toISOString();
      const won = await Promise.all(repos.map((repo) => repo.claim(row.id, now, until)));
      expect(won.filter(Boolean)).toHaveLength(1);
    }
  });

  it('records an attempt only under the claim it was made in', async () => {
    const repo = new WebhooksRepository(db);
    const [hook] = await db.db.selectFrom('webhooks').select('id').execute();
    await repo.enqueue(hook?.id as number, 'test', 'fenced', '{}');
    const { id } = await db.db
      .selectFrom('webhook_deliveries')
      .select('id')
      .where('event_key', '=', 'fenced')
      .executeTakeFirstOrThrow();
    const now = new Date(Date.now() + 1000).toISOString();
    const first = new Date(Date.now() + 60_000).toISOString();
    expect(await repo.claim(id, now, first)).toBe(true);
    // A claim that ran out and was taken by another process records nothing.
    const stale = new Date(Date.now() + 30_000).toISOString();
    expect(await repo.settle(id, stale, { status: 'delivered' })).toBeUndefined();
    await repo.release(id, stale);
    expect(await repo.job(id)).toMatchObject({
      delivery: { status: 'pending', attempts: 1, claimed_until: first },
    });
    // The claim's own attempt is released (not counted), or recorded.
    await repo.release(id, first);
    expect(await repo.job(id)).toMatchObject({
      delivery: { status: 'pending', attempts: 0, claimed_until: null },
    });
    expect(await repo.claim(id, now, first)).toBe(true);
    expect(await repo.settle(id, first, { status: 'delivered' })).toMatchObject({
      status: 'delivered',
      claimed_until: null,
    });
  });

  it('keeps the latest deliveries of a webhook, and any still being retried', async () => {
    const repo = new WebhooksRepository(db);
    const hook = await db.db
      .insertInto('webhooks')
      .values({
        name: 'bounded',
        url: receiver.url,
        events: '[]',
        secret: 'x'.repeat(32),
        format: 'generic',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    for (let n = 0; n < 30; n += 1) {
      await repo.enqueue(hook.id, 'song.changed', `keep-${n}`, '{}');
    }
    const ids = await db.db
      .selectFrom('webhook_deliveries')
      .select('id')
      .where('webhook_id', '=', hook.id)
      .orderBy('id')
      .execute();
    // All settled but the oldest, which is still being retried.
    const settled = ids.slice(1).map((row) => row.id);
    await db.db
      .updateTable('webhook_deliveries')
      .set({ status: 'delivered' })
      .where('id', 'in', settled)
      .execute();
    await db.db
      .updateTable('webhook_deliveries')
      .set({ status: 'retrying' })
      .where('id', '=', ids[0]?.id as number)
      .execute();
    await repo.prune(hook.id, 10);
    const left = (await repo.recent(hook.id, 100)).map((row) => row.id).sort((a, b) => a - b);
    expect(left).toEqual([ids[0]?.id, ...ids.slice(-10).map((row) => row.id)]);
    // A second queue of the same occurrence is ignored.
    expect(await repo.enqueue(hook.id, 'song.changed', 'keep-29', '{}')).toBe(false);
  });
});
