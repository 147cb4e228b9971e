/**
 * The report rows of `pnpm bench:api`: the audience reports over one million listener sessions
 * (30 days of a station averaging about a thousand listeners: 45 minutes a session on average,
 * three mounts, twenty countries, five client families, 200,000 distinct listeners) and the
 * play log of those 30 days, on each dialect. Each report is computed by the api's own service
 * in this process (no HTTP: the figures are the database work and the arithmetic), RUNS times
 * after a warm-up, and the table gives the median and p99.
 *
 * The rows are made inside the database (generate_series on PostgreSQL, a recursive CTE on
 * SQLite) in a few seconds, not sent from Node. Environment: BENCH_SESSIONS (1000000),
 * BENCH_REPORT_RUNS (20), BENCH_DIALECTS (postgres,sqlite), BENCH_POSTGRES_URL.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { silentLogger } from '@radio/core';
import { createDb, type DbHandle, migrateToLatest } from '@radio/db';
import { sql } from 'kysely';
import { AudienceRepository } from '../src/audience/audience.repository.ts';
import { AudienceRollup } from '../src/audience/rollup.ts';
import { listenersQuery, playsQuery } from '../src/reports/reports.dto.ts';
import { ReportsRepository } from '../src/reports/reports.repository.ts';
import { createReports } from '../src/reports/reports.ts';

const SESSIONS = Number(process.env.BENCH_SESSIONS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_REPORT_RUNS ?? 20);
const DIALECTS = (process.env.BENCH_DIALECTS ?? 'postgres,sqlite').split(',') as Array<
  'postgres' | 'sqlite'
>;
const POSTGRES_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

const DAY = 86_400_000;
const HOUR = 3_600_000;
const SPAN_SECONDS = 30 * 86_400;
/** A play every four minutes over the 30 days. */
const PLAY_MS = 4 * 60_000;

export const REPORT_HEADER = ['db', 'report', 'rows read', 'median ms', 'p99 ms', 'target'];

interface Bench {
  db: DbHandle;
  cleanup(): Promise<void>;
}

async function openBench(dialect: 'postgres' | 'sqlite'): Promise<Bench> {
  if (dialect === 'sqlite') {
    const dir = await mkdtemp(join(tmpdir(), 'radio-bench-reports-'));
    const db = await createDb(`sqlite:${join(dir, 'radio.db')}`);
    await migrateToLatest(db.db);
    return {
      db,
      async cleanup() {
        await db.close();
        await rm(dir, { recursive: true, force: true });
      },
    };
  }
  const schema = `bench_reports_${randomBytes(4).toString('hex')}`;
  const db = await createDb(`${POSTGRES_URL}?schema=${schema}`);
  await migrateToLatest(db.db);
  return {
    db,
    async cleanup() {
      await db.close();
      const admin = await createDb(POSTGRES_URL);
      await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(admin.db);
      await admin.close();
    },
  };
}

/**
 * The session columns from a row number `g`, spread by multiplicative hashing so starts,
 * lengths, countries and listeners do not march in step; the last ones end at `end`.
 */
function sessionColumns(end: number) {
  const start = sql`${sql.lit(end - SPAN_SECONDS * 1000)} + ((g * 104729) % ${sql.lit(SPAN_SECONDS)}) * 1000`;
  const length = sql`(30 + (g * 7907) % 5370) * 1000`;
  return sql`'s' || g as session_key,
    case g % 3 when 0 then '/radio.mp3' when 1 then '/radio.aac' else '/radio-low.mp3' end as mount,
    'icecast' as transport, 'node-1' as node, ${start} as started_ms,
    ${start} + ${length} as ended_ms, ${length} as duration_ms, ${length} / 8 as bytes,
    'bench' as user_agent,
    case (g * 13) % 5 when 0 then 'browser' when 1 then 'app' when 2 then 'player'
      when 3 then 'bot' else 'other' end as client,
    null as client_name,
    substr('DEFRUSBRJPGBITESNLPLSECAAUMXINKRCHATBEIE', cast(1 + ((g * 17) % 20) * 2 as integer), 2)
      as country,
    'L' || ((g * 48271) % 200000) as listener`;
}

const SESSION_TARGET = sql`listener_sessions (session_key, mount, transport, node, started_ms,
  ended_ms, duration_ms, bytes, user_agent, client, client_name, country, listener)`;

async function fill(db: DbHandle, end: number): Promise<void> {
  const plays = Math.floor((30 * DAY) / PLAY_MS);
  const playStart = (column: string) =>
    db.dialect === 'postgres'
      ? sql`to_char(to_timestamp((${sql.lit(end - 30 * DAY)} + ${sql.raw(column)} * ${sql.lit(PLAY_MS)}) / 1000.0) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`
      : sql`strftime('%Y-%m-%dT%H:%M:%fZ', (${sql.lit(end - 30 * DAY)} + ${sql.raw(column)} * ${sql.lit(PLAY_MS)}) / 1000.0, 'unixepoch')`;
  const playColumns = sql`'Title ' || g, 'Artist ' || (g % 700), ${playStart('g')}, ${playStart('(g + 1)')}, 'rotation', case when g % 10 = 0 then 1 else 0 end`;
  const playTarget = sql`play_history (title, artist, started_at, ended_at, source, jingle)`;
  if (db.dialect === 'postgres') {
    await sql`insert into ${SESSION_TARGET} select * from (select ${sessionColumns(end)}
      from generate_series(1::bigint, ${sql.lit(SESSIONS)}) as g) as s
      order by ended_ms`.execute(db.db);
    await sql`insert into ${playTarget} select ${playColumns}
      from generate_series(0::bigint, ${sql.lit(plays - 1)}) as g`.execute(db.db);
    await sql`analyze`.execute(db.db);
    return;
  }
  await sql`with recursive n(g) as (select 1 union all select g + 1 from n where g < ${sql.lit(SESSIONS)})
    insert into ${SESSION_TARGET} select * from (select ${sessionColumns(end)} from n)
    order by ended_ms`.execute(db.db);
  await sql`with recursive n(g) as (select 0 union all select g + 1 from n where g < ${sql.lit(plays - 1)})
    insert into ${playTarget} select ${playColumns} from n`.execute(db.db);
  await sql`analyze`.execute(db.db);
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
}

async function time(run: () => Promise<unknown>): Promise<{ median: number; p99: number }> {
  for (let i = 0; i < 3; i++) await run();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    await run();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { median: percentile(times, 50), p99: percentile(times, 99) };
}

async function sessionsIn(db: DbHandle, from: number, to: number): Promise<number> {
  const result = await sql<{ n: number | string }>`select count(*) as n from listener_sessions
    where started_ms < ${sql.lit(to)} and ended_ms > ${sql.lit(from)}`.execute(db.db);
  return Number(result.rows[0]?.n ?? 0);
}

/**
 * The sums built as production builds them: the api's rollup job, first over all 30 days (an
 * api started on a database of sessions and no sums), then the run after the next hour ends
 * (what it does every hour). Each once: a row of its own, its time in both columns.
 */
async function rollupRows(db: DbHandle, name: string, end: number): Promise<string[][]> {
  let now = end;
  const rollup = new AudienceRollup(
    new AudienceRepository(db),
    createReports(db, () => now).plays,
    { retentionDays: 400, intervalMs: HOUR, now: () => now },
    silentLogger(),
  );
  const rows: string[][] = [];
  const runs: Array<[string, number, number]> = [
    ['rollup: sums of the 30 days, from none', end, SESSIONS],
    ['rollup: the run after an hour ends', end + HOUR, await sessionsIn(db, end - HOUR, end)],
  ];
  for (const [label, at, read] of runs) {
    now = at;
    const started = performance.now();
    await rollup.run();
    const ms = (performance.now() - started).toFixed(1);
    console.error(`  ${label}: ${ms} ms`);
    rows.push([name, label, read.toLocaleString('en'), ms, ms, '—']);
  }
  return rows;
}

/** The report rows on each dialect. */
export async function reportRows(): Promise<{ rows: string[][]; notes: string[] }> {
  const rows: string[][] = [];
  for (const dialect of DIALECTS) {
    const name = dialect === 'postgres' ? 'PostgreSQL' : 'SQLite';
    const bench = await openBench(dialect);
    try {
      const end = Math.floor(Date.now() / 60_000) * 60_000;
      const started = performance.now();
      console.error(`${name}: making ${SESSIONS.toLocaleString()} sessions ...`);
      await fill(bench.db, end);
      console.error(`  made in ${((performance.now() - started) / 1000).toFixed(1)} s`);
      rows.push(...(await rollupRows(bench.db, name, end)));
      const reports = createReports(bench.db, () => end);
      const repository = new ReportsRepository(bench.db, () => end);
      const period = (days: number, extra: Record<string, string> = {}) => ({
        from: new Date(end - days * DAY).toISOString(),
        to: new Date(end).toISOString(),
        ...extra,
      });
      const cases: Array<[string, number, () => Promise<unknown>]> = [
        [
          'listeners, 24 h (per minute)',
          1,
          () => reports.listeners.listeners(listenersQuery.parse(period(1))),
        ],
        [
          'listeners, 24 h, one country',
          1,
          () => reports.listeners.listeners(listenersQuery.parse(period(1, { country: 'DE' }))),
        ],
        [
          'listeners, 7 days (per hour)',
          7,
          () => reports.listeners.listeners(listenersQuery.parse(period(7))),
        ],
        [
          'listeners, 30 days (per hour)',
          30,
          () => reports.listeners.listeners(listenersQuery.parse(period(30))),
        ],
        // What the unique listeners of every report would cost read from the sessions alone
        // (before the rollup's first run); with sums, only the hours not summed yet are read.
        [
          'unique listeners of 24 h, 7 and 30 days, sessions only',
          30,
          () =>
            repository.uniqueListeners(
              [1, 7, 30].map((days) => end - days * DAY),
              end,
              {},
            ),
        ],
        ['tracks, 24 h', 1, () => reports.plays.tracks(playsQuery.parse(period(1)))],
        ['plays.csv, 24 h', 1, () => reports.plays.csv(playsQuery.parse(period(1)))],
        ['plays.csv, 30 days', 30, () => reports.plays.csv(playsQuery.parse(period(30)))],
      ];
      for (const [label, days, run] of cases) {
        const read = await sessionsIn(bench.db, end - days * DAY, end);
        const { median, p99 } = await time(run);
        console.error(`  ${label}: p99 ${p99.toFixed(1)} ms`);
        rows.push([
          name,
          label,
          read.toLocaleString('en'),
          median.toFixed(1),
          p99.toFixed(1),
          p99 < 200 ? 'met' : 'missed',
        ]);
      }
    } finally {
      await bench.cleanup();
    }
  }
  return {
    rows,
    notes: [
      `\n${SESSIONS.toLocaleString('en')} sessions over 30 days and a play every 4 minutes; each report ${RUNS} times after 3 warm-up runs, in one process. "rows read" counts the sessions that overlap the period; the listeners reports read the sums the rollup rows built for complete hours and the sessions only of the hours not summed; the play log reads the audience the rollup counted for each play, and the sessions only for plays not counted yet. Target: p99 < 200 ms.`,
    ],
  };
}
