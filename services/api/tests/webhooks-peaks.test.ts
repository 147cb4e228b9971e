import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type Bus, createMemoryBus, silentLogger } from '@radio/core';
import { waitFor } from '@radio/core/testing';
import type { DbHandle } from '@radio/db';
import type { WebhookEvent } from '../src/webhooks/events.ts';
import { ListenerPeaks } from '../src/webhooks/listener-peaks.ts';
import { WebhooksRepository } from '../src/webhooks/webhooks.repository.ts';
import { createTestDatabase, type Dialect, type TestDatabase } from './helpers/databases.ts';

/*
 * listeners.peak from real stream.listeners events: the daily peak of a finished day (the
 * record of a day before today is read from the database, as after a night without change),
 * and the all-time record kept across a restart.
 */

const counts = (total: number) => ({
  mounts: [{ mount: '/radio.mp3', listeners: total, peak: total }],
  total,
});

describe.each<Dialect>(['sqlite', 'postgres'])('listener peaks (%s)', (dialect) => {
  let database: TestDatabase;
  let db: DbHandle;
  let bus: Bus;
  const stops: Array<() => Promise<void>> = [];

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    db = await database.open();
    bus = createMemoryBus({ logger: silentLogger() });
  });
  afterAll(async () => {
    for (const stop of stops) await stop();
    await bus.close();
    await database.drop();
  });

  function follow(): WebhookEvent[] {
    const seen: WebhookEvent[] = [];
    const peaks = new ListenerPeaks(
      bus,
      new WebhooksRepository(db),
      (e) => seen.push(e),
      silentLogger(),
    );
    peaks.start();
    stops.push(() => peaks.stop());
    return seen;
  }

  it("sends a finished day's peak with the first count after it, and new all-time records", async () => {
    await new WebhooksRepository(db).savePeakState({
      allTime: { listeners: 100, at: '2026-01-01T20:00:00.000Z' },
      day: { date: '2026-01-02', listeners: 42, at: '2026-01-02T19:30:00.000Z' },
    });
    const seen = follow();
    await bus.publish('stream.listeners', counts(7));
    await bus.publish('stream.listeners', counts(101));
    await waitFor('two events', () => seen.length === 2);
    expect(seen.map(({ key, data }) => ({ key, data }))).toEqual([
      {
        key: 'daily:2026-01-02',
        data: { kind: 'daily', listeners: 42, at: '2026-01-02T19:30:00.000Z', date: '2026-01-02' },
      },
      {
        key: 'all-time:101',
        data: { kind: 'all-time', listeners: 101, previous: 100, at: expect.any(String) },
      },
    ]);
  });

  it('keeps the record across a restart', async () => {
    await stops.pop()?.();
    const seen = follow();
    await bus.publish('stream.listeners', counts(60));
    await bus.publish('stream.listeners', counts(102));
    await waitFor('the new record', () => seen.length === 1);
    expect(seen[0]?.data).toMatchObject({ kind: 'all-time', listeners: 102, previous: 101 });
    const stored = await new WebhooksRepository(db).peakState();
    expect(stored?.allTime.listeners).toBe(102);
    expect(stored?.day).toMatchObject({
      date: new Date().toISOString().slice(0, 10),
      listeners: 102,
    });
  });
});
