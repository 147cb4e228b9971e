import type { DbHandle } from '@radio/db';
import { sql } from 'kysely';
import { HyperLogLog } from '../audience/hyperloglog.ts';
import {
  filterSql,
  GROUP_COLUMNS,
  type GroupColumn,
  type Range,
  type SessionFilter,
} from './reports.repository.ts';
import { ceilTo, floorTo } from './series.ts';

/*
 * The report queries over the sums the audience rollup keeps of complete hours
 * (listener_hourly, listener_sketches). Ranges given here start and end on hours.
 */

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
/** The rollup's state in the settings table (see the audience repository). */
const ROLLUP_SETTING = 'audience.rollup';

/** An integer on both dialects (node:sqlite binds every JS number as a REAL). */
const int = (value: number) => sql`cast(${value} as bigint)`;

export interface SummedTotals {
  /** Sessions under way in the first hour plus those started in the later ones. */
  sessions: number;
  listeningMs: number;
  durationMs: number;
  quarterHourListeners: number;
}

export interface SummedGroup {
  key: string;
  sessions: number;
  listeningMs: number;
}

export interface SummedBreakdown {
  totals: SummedTotals;
  groups(column: GroupColumn): SummedGroup[];
}

type Numeric = number | string | null;

export class SumsRepository {
  readonly #handle: DbHandle;

  constructor(handle: DbHandle) {
    this.#handle = handle;
  }

  /**
   * The hour before which the sums are complete, or null before the rollup's first run: the
   * rollup's last run summed every hour before its `summedThrough`, but a session stored since
   * (a stream server that waited out an outage) belongs to the hours from its start on, which
   * the next run sums again; until then those hours are read from the sessions.
   */
  async summedThrough(): Promise<number | null> {
    const row = await this.#handle.db
      .selectFrom('settings')
      .select('value')
      .where('key', '=', ROLLUP_SETTING)
      .executeTakeFirst();
    if (row === undefined) return null;
    const state = JSON.parse(row.value) as { summedThrough?: number; lastId?: number };
    if (typeof state.summedThrough !== 'number') return null;
    // `+ 0`: min over the started index would walk it from the oldest session for the few
    // rows with a newer id; this reads just those, by id.
    const late = await sql<{ start: Numeric }>`
      select min(started_ms + 0) as start from listener_sessions
      where id > ${int(state.lastId ?? 0)}`.execute(this.#handle.db);
    const start = late.rows[0]?.start;
    if (start === null || start === undefined) return state.summedThrough;
    return Math.min(state.summedThrough, floorTo(Number(start), HOUR_MS));
  }

  /** Per hour of the range, the sessions under way at some time in it. */
  async present(range: Range, filter: SessionFilter): Promise<Map<number, number>> {
    const result = await sql<{ hour: Numeric; n: Numeric }>`
      select hour_ms as hour, sum(present) as n from listener_hourly
      where hour_ms >= ${int(range.from)} and hour_ms < ${int(range.to)}${filterSql(filter)}
      group by hour_ms`.execute(this.#handle.db);
    return new Map(result.rows.map((row) => [Number(row.hour), Number(row.n)]));
  }

  /**
   * The range's totals and its groups by mount, country and client, from one read of the sums
   * grouped by all three (a few hundred rows for any range: each further query over a month's
   * sums cost as much again). `firstUnderWay`: the first hour counts the sessions under way in
   * it (when the period starts with it), else those started in it (the part before was read
   * from the sessions).
   */
  async breakdown(
    range: Range,
    filter: SessionFilter,
    firstUnderWay: boolean,
  ): Promise<SummedBreakdown> {
    const first = int(firstUnderWay ? range.from : -1);
    const result = await sql<Record<GroupColumn, string> & Record<keyof SummedTotals, Numeric>>`
      select mount, country, client,
        sum(case when hour_ms = ${first} then present else sessions end) as sessions,
        sum(listening_ms) as "listeningMs",
        sum(case when hour_ms = ${first} then present_duration_ms else started_duration_ms end)
          as "durationMs",
        sum(quarter_listeners) as "quarterHourListeners"
      from listener_hourly
      where hour_ms >= ${int(range.from)} and hour_ms < ${int(range.to)}${filterSql(filter)}
      group by mount, country, client`.execute(this.#handle.db);
    const totals: SummedTotals = {
      sessions: 0,
      listeningMs: 0,
      durationMs: 0,
      quarterHourListeners: 0,
    };
    const groups = new Map(GROUP_COLUMNS.map((column) => [column, new Map<string, SummedGroup>()]));
    for (const row of result.rows) {
      const sessions = Number(row.sessions ?? 0);
      const listeningMs = Number(row.listeningMs ?? 0);
      totals.sessions += sessions;
      totals.listeningMs += listeningMs;
      totals.durationMs += Number(row.durationMs ?? 0);
      totals.quarterHourListeners += Number(row.quarterHourListeners ?? 0);
      for (const [column, byKey] of groups) {
        const key = row[column];
        const group = byKey.get(key) ?? { key, sessions: 0, listeningMs: 0 };
        group.sessions += sessions;
        group.listeningMs += listeningMs;
        byKey.set(key, group);
      }
    }
    return {
      totals,
      groups: (column) => [...(groups.get(column)?.values() ?? [])],
    };
  }

  /**
   * The merged sketches of the listeners of the range, in all and per value of each column:
   * the days wholly inside it from the day sketches, the hours at its ends from the hours'.
   */
  async sketches(
    range: Range,
    filter: SessionFilter,
    columns: readonly GroupColumn[],
  ): Promise<{
    all: HyperLogLog;
    by: Map<GroupColumn, Map<string, HyperLogLog>>;
    /** How many stored sketches were merged (none: the counts are exact). */
    merged: number;
  }> {
    const dayFrom = ceilTo(range.from, DAY_MS);
    const dayTo = Math.max(dayFrom, floorTo(range.to, DAY_MS));
    const hours = (from: number, to: number) =>
      sql`(span = 'hour' and start_ms >= ${int(from)} and start_ms < ${int(to)})`;
    const spans =
      dayFrom >= dayTo
        ? hours(range.from, range.to)
        : sql`(${hours(range.from, dayFrom)} or ${hours(dayTo, range.to)}
            or (span = 'day' and start_ms >= ${int(dayFrom)} and start_ms < ${int(dayTo)}))`;
    const result = await sql<{
      mount: string;
      country: string;
      client: string;
      sketch: Uint8Array;
    }>`
      select mount, country, client, sketch from listener_sketches
      where ${spans}${filterSql(filter)}`.execute(this.#handle.db);
    const all = new HyperLogLog();
    const by = new Map(columns.map((column) => [column, new Map<string, HyperLogLog>()]));
    for (const row of result.rows) {
      all.mergeBytes(row.sketch);
      for (const [column, sketches] of by) {
        let sketch = sketches.get(row[column]);
        if (sketch === undefined) {
          sketch = new HyperLogLog();
          sketches.set(row[column], sketch);
        }
        sketch.mergeBytes(row.sketch);
      }
    }
    return { all, by, merged: result.rows.length };
  }
}
