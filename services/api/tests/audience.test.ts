import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  type Bus,
  CommandFailedError,
  createMemoryBus,
  type ListenerSessionRecord,
  silentLogger,
} from '@radio/core';
import type { DbHandle } from '@radio/db';
import { AudienceRepository, type RollupState } from '../src/audience/audience.repository.ts';
import { CountryLookup } from '../src/audience/country-lookup.ts';
import { HyperLogLog } from '../src/audience/hyperloglog.ts';
import { ListenerPrivacy } from '../src/audience/listener-privacy.ts';
import { AudienceRollup } from '../src/audience/rollup.ts';
import { SessionIngest } from '../src/audience/session-ingest.ts';
import { playsQuery } from '../src/reports/reports.dto.ts';
import { createReports } from '../src/reports/reports.ts';
import { createTestDatabase, type Dialect, type TestDatabase } from './helpers/databases.ts';
import { insertPlays } from './helpers/listener-sessions.ts';

/*
 * The api's side of listener sessions on both dialects: a batch on the bus is stored with its
 * client, country and listener value, once; the hourly job sums and expires them.
 */

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** A UTC midnight, so days and hours are easy to read. */
const T0 = Date.UTC(2026, 0, 10);

let n = 0;
function record(overrides: Partial<ListenerSessionRecord> = {}): ListenerSessionRecord {
  n += 1;
  return {
    key: `k-${process.pid}-${n}`,
    mount: '/radio.mp3',
    transport: 'icecast',
    startedAt: T0,
    endedAt: T0 + 60_000,
    bytes: 1000,
    userAgent: 'VLC/3.0.18 LibVLC/3.0.18',
    ip: '8.8.8.8',
    ...overrides,
  };
}

describe('CountryLookup', () => {
  it('reads countries from the packaged GeoLite2 database; private and mapped addresses', async () => {
    const lookup = new CountryLookup();
    expect(await lookup.country('8.8.8.8')).toBe('US');
    expect(await lookup.country('::ffff:81.2.69.142')).toBe('GB');
    expect(await lookup.country('2a00:1450:4001::1')).toBe('DE');
    for (const none of ['127.0.0.1', '10.1.2.3', '192.168.0.1', '::1', 'nonsense', null]) {
      expect(await lookup.country(none)).toBeNull();
    }
  });
});

describe('ListenerPrivacy', () => {
  it('hashes with a salt made once, 0600; full keeps the address; none keeps nothing', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'radio-privacy-'));
    try {
      const [a, b] = [new ListenerPrivacy('hashed', dir), new ListenerPrivacy('hashed', dir)];
      const [ha, hb] = await Promise.all([a.listener('8.8.8.8'), b.listener('8.8.8.8')]);
      expect(ha).toMatch(/^[0-9a-f]{32}$/);
      expect(hb).toBe(ha);
      expect(await a.listener('8.8.4.4')).not.toBe(ha);
      const salt = join(dir, 'listener-salt');
      expect((await stat(salt)).mode & 0o777).toBe(0o600);
      expect((await readFile(salt, 'utf8')).trim()).toMatch(/^[0-9a-f]{64}$/);
      const other = await mkdtemp(join(tmpdir(), 'radio-privacy-'));
      expect(await new ListenerPrivacy('hashed', other).listener('8.8.8.8')).not.toBe(ha);
      await rm(other, { recursive: true, force: true });
      expect(await new ListenerPrivacy('full', dir).listener('8.8.8.8')).toBe('8.8.8.8');
      expect(await new ListenerPrivacy('none', dir).listener('8.8.8.8')).toBeNull();
      expect(await a.listener(null)).toBeNull();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe.each<Dialect>(['sqlite', 'postgres'])('listener sessions (%s)', (dialect) => {
  let database: TestDatabase;
  let db: DbHandle;
  let dir: string;
  let bus: Bus;
  let repo: AudienceRepository;
  let ingest: SessionIngest;
  let stop: () => void;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    db = await database.open();
    dir = await mkdtemp(join(tmpdir(), 'radio-audience-'));
    bus = createMemoryBus({ logger: silentLogger() });
    repo = new AudienceRepository(db);
    ingest = new SessionIngest(
      repo,
      new CountryLookup(),
      new ListenerPrivacy('hashed', dir),
      silentLogger(),
    );
    stop = ingest.start(bus);
  }, 30_000);

  afterAll(async () => {
    stop();
    await bus.close();
    await database.drop();
    await rm(dir, { recursive: true, force: true });
  });

  it('stores a batch with client, country and hashed listener, each key once', async () => {
    const sessions = [
      record({ ip: '81.2.69.142', userAgent: 'curl/8.5.0' }),
      record({ ip: '10.0.0.1', userAgent: null, transport: 'hls', endedAt: T0 - 5 }),
      record(),
    ];
    const reply = await bus.request('listeners.sessions', { node: 'edge-1:8000', sessions });
    expect(reply).toEqual({ stored: 3 });
    // The same batch again (its reply was lost): stored once.
    expect(await bus.request('listeners.sessions', { node: 'edge-1:8000', sessions })).toEqual({
      stored: 0,
    });
    expect(ingest.stored).toBe(3);
    const rows = await db.db
      .selectFrom('listener_sessions')
      .selectAll()
      .where(
        'session_key',
        'in',
        sessions.map((s) => s.key),
      )
      .orderBy('id')
      .execute();
    expect(
      rows.map((r) => [r.client, r.client_name, r.country, r.node, r.transport, r.duration_ms]),
    ).toEqual([
      ['bot', 'curl', 'GB', 'edge-1:8000', 'icecast', 60_000],
      ['other', null, null, 'edge-1:8000', 'hls', 0],
      ['player', 'VLC', 'US', 'edge-1:8000', 'icecast', 60_000],
    ]);
    expect(rows[0]?.listener).toMatch(/^[0-9a-f]{32}$/);
    expect(rows[0]?.listener).not.toBe(rows[2]?.listener);
    expect(Number(rows[0]?.started_ms)).toBe(T0);
  });

  it('answers an error when the database fails, so the stream server keeps the batch', async () => {
    const broken = await database.open();
    await broken.close();
    const failing = new SessionIngest(
      new AudienceRepository(broken),
      new CountryLookup(),
      new ListenerPrivacy('none', dir),
      silentLogger(),
    );
    const otherBus = createMemoryBus({ logger: silentLogger() });
    const stopFailing = failing.start(otherBus);
    try {
      await expect(
        otherBus.request('listeners.sessions', { node: 'n', sessions: [record()] }),
      ).rejects.toBeInstanceOf(CommandFailedError);
      expect(failing.stored).toBe(0);
    } finally {
      stopFailing();
      await otherBus.close();
    }
  });

  it('sums hours and days, sums again for late sessions, and expires old sessions', async () => {
    await db.db.deleteFrom('listener_sessions').execute();
    let now = T0 + 2 * DAY + 30 * 60_000;
    const reports = createReports(db, () => now);
    const rollup = new AudienceRollup(
      repo,
      reports.plays,
      { retentionDays: 2, intervalMs: HOUR, now: () => now },
      silentLogger(),
    );
    const at = (h: number, m = 0) => T0 + h * HOUR + m * 60_000;
    await ingest.store({
      node: 'n',
      sessions: [
        // Day 1, 10:30-12:15 from the US (spans three hours), and 11:00-11:30 from GB.
        record({ startedAt: at(10, 30), endedAt: at(12, 15), ip: '8.8.8.8' }),
        record({ startedAt: at(11), endedAt: at(11, 30), ip: '81.2.69.142' }),
        // The same US listener again on day 2.
        record({ startedAt: at(24 + 5), endedAt: at(24 + 5, 10), ip: '8.8.8.8' }),
        // Over midnight of day 2 into day 3.
        record({ startedAt: at(47, 50), endedAt: at(48, 20), ip: '8.8.4.4', mount: '/radio.aac' }),
      ],
    });
    await insertPlays(db, [
      // Heard by the US and GB listeners of day 1.
      { title: 'Day One', artist: 'A', start: at(11, 10), end: at(11, 20) },
      // Jingles are not in the play log.
      { title: 'ID', artist: null, start: at(11, 20), end: at(11, 21), jingle: true },
      // Heard by the US listener of day 2 from its start; they leave during it.
      { title: 'Day Two', artist: 'A', start: at(29), end: at(29, 12) },
      // Still on air in the current hour: counted from the sessions until it is summed.
      { title: 'On Air', artist: 'A', start: at(48, 10), end: null },
    ]);
    const first = await rollup.run();
    expect(first).toMatchObject({
      from: T0 + 10 * HOUR,
      to: at(48),
      days: 2,
      plays: 2,
      deleted: 0,
    });
    // Each play's listeners at start and end, left during, heard it.
    const counted = async () =>
      (
        await db.db
          .selectFrom('play_listeners as l')
          .innerJoin('play_history as p', 'p.id', 'l.play_id')
          .select(['p.title', 'l.listeners_at_start', 'l.listeners_at_end', 'l.left_during'])
          .select('l.listeners')
          .orderBy('p.started_at')
          .execute()
      ).map((r) => [r.title, r.listeners_at_start, r.listeners_at_end, r.left_during, r.listeners]);
    expect(await counted()).toEqual([
      ['Day One', 2, 2, 0, 2],
      ['Day Two', 1, 0, 1, 1],
    ]);
    // A state saved by a version that did not count plays: the next run counts them from the
    // oldest session, though no hour needs summing again.
    const { playsCountedThrough: _, ...older } = (await repo.rollupState()) as RollupState;
    await repo.saveRollupState(older);
    await db.db.deleteFrom('play_listeners').execute();
    expect(await rollup.run()).toMatchObject({ from: at(48), to: at(48), days: 0, plays: 2 });
    expect(await counted()).toEqual([
      ['Day One', 2, 2, 0, 2],
      ['Day Two', 1, 0, 1, 1],
    ]);
    const hourly = async () =>
      (
        await db.db
          .selectFrom('listener_hourly')
          .selectAll()
          .orderBy('hour_ms')
          .orderBy('country')
          .execute()
      ).map((r) => [
        (Number(r.hour_ms) - T0) / HOUR,
        r.mount,
        r.country,
        r.client,
        r.sessions,
        Number(r.listening_ms) / 60_000,
        r.peak,
        // Under way in the hour, quarter hours of ≥ 5 min, lengths (min) started and under way.
        Number(r.present),
        Number(r.quarter_listeners),
        Number(r.started_duration_ms) / 60_000,
        Number(r.present_duration_ms) / 60_000,
      ]);
    expect(await hourly()).toEqual([
      [10, '/radio.mp3', 'US', 'player', 1, 30, 1, 1, 2, 105, 105],
      [11, '/radio.mp3', 'GB', 'player', 1, 30, 1, 1, 2, 30, 30],
      [11, '/radio.mp3', 'US', 'player', 0, 60, 1, 1, 4, 0, 105],
      [12, '/radio.mp3', 'US', 'player', 0, 15, 1, 1, 1, 0, 105],
      [29, '/radio.mp3', 'US', 'player', 1, 10, 1, 1, 1, 10, 10],
      [47, '/radio.aac', 'US', 'player', 1, 10, 1, 1, 1, 30, 30],
    ]);
    // The listeners' sketches: per hour and day, mount, country and client, merged as the
    // reports merge them.
    const sketch = async (span: 'hour' | 'day', start: number, column: string, key: string) => {
      const rows = await db.db
        .selectFrom('listener_sketches')
        .select('sketch')
        .where('span', '=', span)
        .where('start_ms', '=', start)
        .where(column as 'mount', '=', key)
        .execute();
      const merged = new HyperLogLog();
      for (const row of rows) merged.mergeBytes(row.sketch);
      return merged.count();
    };
    expect(await sketch('hour', at(11), 'mount', '/radio.mp3')).toBe(2);
    expect(await sketch('hour', at(11), 'country', 'GB')).toBe(1);
    expect(await sketch('hour', at(12), 'client', 'player')).toBe(1);
    expect(await sketch('day', T0 + DAY, 'country', 'US')).toBe(2);
    const daily = async () => [
      await sketch('day', T0, 'mount', '/radio.mp3'),
      await sketch('day', T0 + DAY, 'mount', '/radio.aac'),
      await sketch('day', T0 + DAY, 'mount', '/radio.mp3'),
    ];
    expect(await daily()).toEqual([2, 1, 1]);

    // Half a day later: a late session of day 2 arrives (a stream server back after an
    // outage), and day 1's sessions are now past the two days kept.
    now += 12 * HOUR - 10 * 60_000;
    await ingest.store({
      node: 'n',
      sessions: [record({ startedAt: at(29, 5), endedAt: at(29, 20), ip: '81.2.69.142' })],
    });
    const second = await rollup.run();
    expect(second).toMatchObject({ from: at(29), to: at(60), days: 1, plays: 1, deleted: 2 });
    // Day two's play is counted again with the late listener, who was still there at its end.
    expect(await counted()).toEqual([
      ['Day One', 2, 2, 0, 2],
      ['Day Two', 1, 1, 1, 2],
    ]);
    // Day one's play keeps its listeners in the play log, though its sessions are gone.
    const log = await reports.plays.tracks(
      playsQuery.parse({
        from: new Date(at(11)).toISOString(),
        to: new Date(at(12)).toISOString(),
      }),
    );
    expect(log.plays).toEqual([
      expect.objectContaining({
        listenersAtStart: 2,
        listenersAtEnd: 2,
        leftDuring: 0,
        listeners: 2,
      }),
    ]);
    expect((await hourly()).filter((row) => row[0] === 29)).toEqual([
      [29, '/radio.mp3', 'GB', 'player', 1, 15, 1, 1, 2, 15, 15],
      [29, '/radio.mp3', 'US', 'player', 1, 10, 1, 1, 1, 10, 10],
    ]);
    expect(await sketch('hour', at(29), 'mount', '/radio.mp3')).toBe(2);
    // Day 1's sums stay, though its sessions are gone; day 2 counts the late listener.
    expect(await daily()).toEqual([2, 1, 2]);
    expect((await hourly()).filter((row) => Number(row[0]) < 13)).toHaveLength(4);
    const left = await db.db.selectFrom('listener_sessions').select('started_ms').execute();
    expect(left.map((r) => (Number(r.started_ms) - T0) / HOUR).sort((a, b) => a - b)).toEqual([
      29,
      29 + 5 / 60,
      47 + 50 / 60,
    ]);
  });
});
