import type { DbHandle, ListenerClient } from '@radio/db';
import { type RawBuilder, sql } from 'kysely';
import { type PlayAudience, SessionSpans } from './play-audience.ts';
import { HOUR_MS } from './series.ts';

/*
 * The report queries over listener sessions (epoch ms) and the sums kept of them. Every query
 * reads one time range through the started/ended indexes and groups in the database: only
 * buckets and totals come back, never the sessions themselves (except for the per-play counts,
 * which read two columns of a bounded range).
 */

export interface SessionFilter {
  mount?: string | undefined;
  country?: string | undefined;
  client?: ListenerClient | undefined;
}

/** [from, to) in epoch ms. */
export interface Range {
  from: number;
  to: number;
}

/** The columns a report is broken down and filtered by. */
export const GROUP_COLUMNS = ['mount', 'country', 'client'] as const;
export type GroupColumn = (typeof GROUP_COLUMNS)[number];

export interface SessionTotals {
  sessions: number;
  /** Distinct listeners (a session without a stored listener counts as one). */
  listeners: number;
  /** Time listened inside the range. */
  listeningMs: number;
  /** Whole length of the sessions. */
  durationMs: number;
  /** Sum over the quarter hours of the range of the sessions that listened ≥ 5 min in each. */
  quarterHourListeners: number;
  /** The sessions that started in the range, and their whole length (to join hourly sums). */
  startedSessions: number;
  startedDurationMs: number;
}

export interface GroupTotals {
  key: string | null;
  sessions: number;
  startedSessions: number;
  listeners: number;
  listeningMs: number;
}

export interface PlayRow {
  id: number;
  startedAt: string;
  endedAt: string | null;
  trackId: number | null;
  title: string;
  artist: string | null;
  album: string | null;
  isrc: string | null;
  /** The track's duration in seconds, when the library knows it. */
  duration: number | null;
  /** Its audience as the rollup counted it, or null before that. */
  counted: PlayAudience | null;
}

/** A play that has ended, as the rollup counts it (epoch ms). */
export interface EndedPlay {
  id: number;
  start: number;
  end: number;
}

/** Rows per INSERT: far below SQLite's and PostgreSQL's limits on bound values. */
const INSERT_CHUNK = 500;

export const QUARTER_HOUR_MS = 15 * 60_000;
const QUARTER_MIN_MS = 5 * 60_000;

/** An integer on both dialects (node:sqlite binds every JS number as a REAL). */
const int = (value: number) => sql`cast(${value} as bigint)`;

/** Distinct listeners; sessions without a stored address (LISTENER_PRIVACY=none) count each. */
const LISTENERS = sql`count(distinct listener) + sum(case when listener is null then 1 else 0 end)`;

export class ReportsRepository {
  readonly #handle: DbHandle;
  readonly #now: () => number;

  constructor(handle: DbHandle, now: () => number = Date.now) {
    this.#handle = handle;
    this.#now = now;
  }

  #greatest(a: RawBuilder<unknown>, b: RawBuilder<unknown>): RawBuilder<unknown> {
    return this.#handle.dialect === 'postgres' ? sql`greatest(${a}, ${b})` : sql`max(${a}, ${b})`;
  }

  #least(a: RawBuilder<unknown>, b: RawBuilder<unknown>): RawBuilder<unknown> {
    return this.#handle.dialect === 'postgres' ? sql`least(${a}, ${b})` : sql`min(${a}, ${b})`;
  }

  /**
   * Sessions that overlap the range and pass the filter. No session is longer than the longest
   * stored (read from the duration index), so none that started before `from` less that can
   * reach into the range: the started index reads a bounded stretch even for a short range far
   * back, where "ended after `from`" alone would take every later session. The ended index
   * reads the sessions ending from `from` to now, the started index those starting from
   * `from` less the longest to `to`: for a range that ends less than the longest session ago
   * the ended index reads fewer (a report up to now reads just its rows), for any other (the
   * first hours of a period, before its summed ones) the started index does. SQLite has no
   * statistics of where a bound falls, so a unary plus keeps it off the other index;
   * PostgreSQL's statistics choose well.
   */
  async #overlapping(range: Range, filter: SessionFilter): Promise<RawBuilder<unknown>> {
    const result = await sql<{ ms: number | string | null }>`
      select max(duration_ms) as ms from listener_sessions`.execute(this.#handle.db);
    const longest = Number(result.rows[0]?.ms ?? 0);
    const earliest = range.from - longest;
    const sqlite = this.#handle.dialect === 'sqlite';
    const byEnd = this.#now() - range.to < longest;
    const started = sqlite && byEnd ? sql`+started_ms` : sql`started_ms`;
    const ended = sqlite && !byEnd ? sql`+ended_ms` : sql`ended_ms`;
    return sql`${started} < ${int(range.to)} and ${started} >= ${int(earliest)}
      and ${ended} > ${int(range.from)}${filterSql(filter)}`;
  }

  /**
   * From when the sessions are complete: the hour of the oldest kept one when hourly sums
   * predate it (the retention removed older sessions), else null (all of them are kept);
   * Infinity when only sums are left.
   */
  async sessionsKeptSince(): Promise<number | null> {
    const row = await sql<{ oldest: number | string | null }>`
      select min(started_ms) as oldest from listener_sessions`.execute(this.#handle.db);
    const oldest = row.rows[0]?.oldest;
    const since =
      oldest === null || oldest === undefined
        ? Number.POSITIVE_INFINITY
        : Math.floor(Number(oldest) / HOUR_MS) * HOUR_MS;
    const before = Number.isFinite(since) ? sql` where hour_ms < ${int(since)}` : sql``;
    const older = await sql`select 1 from listener_hourly${before} limit 1`.execute(
      this.#handle.db,
    );
    return older.rows.length > 0 ? since : null;
  }

  /**
   * What the series is made of: the sessions under way at `range.from`, and per bucket of
   * `step` ms (index from `range.from`) how many started in it and how many ended in it (an
   * end exactly on a bucket's start belongs to the bucket before).
   */
  async seriesCounts(
    range: Range,
    step: number,
    filter: SessionFilter,
  ): Promise<{ before: number; starts: Map<number, number>; ends: Map<number, number> }> {
    const db = this.#handle.db;
    const where = filterSql(filter);
    const { from, to } = range;
    const [before, starts, ends] = await Promise.all([
      sql<{ n: number | string }>`
        select count(*) as n from listener_sessions
        where ended_ms > ${int(from)} and started_ms < ${int(from)}${where}`.execute(db),
      sql<{ k: number | string; n: number | string }>`
        select (started_ms - ${int(from)}) / ${int(step)} as k, count(*) as n
        from listener_sessions
        where started_ms >= ${int(from)} and started_ms < ${int(to)}${where}
        group by k`.execute(db),
      sql<{ k: number | string; n: number | string }>`
        select (ended_ms - ${int(from)} - 1) / ${int(step)} as k, count(*) as n
        from listener_sessions
        where ended_ms > ${int(from)} and ended_ms <= ${int(to)} and started_ms < ${int(to)}${where}
        group by k`.execute(db),
    ]);
    const toMap = (rows: { k: number | string; n: number | string }[]) =>
      new Map(rows.map((row) => [Number(row.k), Number(row.n)]));
    return {
      before: Number(before.rows[0]?.n ?? 0),
      starts: toMap(starts.rows),
      ends: toMap(ends.rows),
    };
  }

  /** The range's totals; `range` must start and end on quarter hours for the AQH sum. */
  async totals(range: Range, filter: SessionFilter): Promise<SessionTotals> {
    const start = this.#greatest(sql`started_ms`, int(range.from));
    const end = this.#least(sql`ended_ms`, int(range.to));
    const q = int(QUARTER_HOUR_MS);
    const min = int(QUARTER_MIN_MS);
    // Quarter hours with ≥ 5 minutes of the clipped session: the first and last partly, every
    // one between wholly. Quarter hours are counted from the epoch (UTC).
    const firstQ = sql`(${start}) / ${q}`;
    const lastQ = sql`(${end} - 1) / ${q}`;
    const quarters = sql`case
      when ${end} <= ${start} then 0
      when ${firstQ} = ${lastQ} then case when ${end} - ${start} >= ${min} then 1 else 0 end
      else (case when (${firstQ} + 1) * ${q} - ${start} >= ${min} then 1 else 0 end)
        + (case when ${end} - ${lastQ} * ${q} >= ${min} then 1 else 0 end)
        + (${lastQ} - ${firstQ} - 1)
      end`;
    const result = await sql<Record<keyof SessionTotals, number | string | null>>`
      select count(*) as sessions, ${LISTENERS} as listeners,
        sum(${end} - ${start}) as "listeningMs", sum(duration_ms) as "durationMs",
        sum(${quarters}) as "quarterHourListeners",
        sum(case when started_ms >= ${int(range.from)} then 1 else 0 end) as "startedSessions",
        sum(case when started_ms >= ${int(range.from)} then duration_ms else 0 end)
          as "startedDurationMs"
      from listener_sessions where ${await this.#overlapping(range, filter)}`.execute(
      this.#handle.db,
    );
    const row = result.rows[0];
    return {
      sessions: Number(row?.sessions ?? 0),
      listeners: Number(row?.listeners ?? 0),
      listeningMs: Number(row?.listeningMs ?? 0),
      durationMs: Number(row?.durationMs ?? 0),
      quarterHourListeners: Number(row?.quarterHourListeners ?? 0),
      startedSessions: Number(row?.startedSessions ?? 0),
      startedDurationMs: Number(row?.startedDurationMs ?? 0),
    };
  }

  /** Sessions, listeners and time listened in the range per mount, country or client. */
  async groups(range: Range, filter: SessionFilter, column: GroupColumn): Promise<GroupTotals[]> {
    const start = this.#greatest(sql`started_ms`, int(range.from));
    const end = this.#least(sql`ended_ms`, int(range.to));
    const result = await sql<{
      key: string | null;
      sessions: number | string;
      started: number | string;
      listeners: number | string;
      listeningMs: number | string;
    }>`
      select ${sql.ref(column)} as key, count(*) as sessions, ${LISTENERS} as listeners,
        sum(case when started_ms >= ${int(range.from)} then 1 else 0 end) as started,
        sum(${end} - ${start}) as "listeningMs"
      from listener_sessions where ${await this.#overlapping(range, filter)}
      group by ${sql.ref(column)}`.execute(this.#handle.db);
    return result.rows.map((row) => ({
      key: row.key,
      sessions: Number(row.sessions),
      startedSessions: Number(row.started),
      listeners: Number(row.listeners),
      listeningMs: Number(row.listeningMs),
    }));
  }

  /**
   * Distinct listeners of the sessions that overlap each window `[from, to)`, all ending at
   * `to`, in one pass over the widest: a listener is in a window when its last session ended
   * inside it. A session without a stored listener counts as one of its own. Grouping is a
   * hash aggregate on PostgreSQL, much cheaper than count(distinct), which sorts.
   */
  async uniqueListeners(
    froms: readonly number[],
    to: number,
    filter: SessionFilter,
  ): Promise<number[]> {
    if (froms.length === 0) return [];
    const widest = Math.min(...froms);
    const columns = froms.map(
      (from, i) => sql`sum(case when last > ${int(from)} then 1 else 0 end) as ${sql.ref(`w${i}`)}`,
    );
    const result = await sql<Record<string, number | string | null>>`
      select ${sql.join(columns)} from (
        select coalesce(listener, '#' || id) as who, max(ended_ms) as last from listener_sessions
        where ${await this.#overlapping({ from: widest, to }, filter)} group by who
      ) as listeners`.execute(this.#handle.db);
    const row = result.rows[0];
    return froms.map((_, i) => Number(row?.[`w${i}`] ?? 0));
  }

  /**
   * The distinct listeners (a session without one stands for itself) of the sessions that
   * overlap the range, with the mount, country ('' unknown) and client they listened by.
   */
  async listenerValues(
    range: Range,
    filter: SessionFilter,
  ): Promise<{ mount: string; country: string; client: string; who: string }[]> {
    const result = await sql<{ mount: string; country: string; client: string; who: string }>`
      select distinct mount, coalesce(country, '') as country, client,
        coalesce(listener, '#' || id) as who
      from listener_sessions where ${await this.#overlapping(range, filter)}`.execute(
      this.#handle.db,
    );
    return result.rows;
  }

  /** Start and end of every session that overlaps the range (for the per-play counts). */
  async spans(range: Range): Promise<SessionSpans> {
    const result = await sql<{ s: number | string; e: number | string }>`
      select started_ms as s, ended_ms as e from listener_sessions
      where ${await this.#overlapping(range, {})}`.execute(this.#handle.db);
    const starts = new Float64Array(result.rows.length);
    const ends = new Float64Array(result.rows.length);
    result.rows.forEach((row, i) => {
      starts[i] = Number(row.s);
      ends[i] = Number(row.e);
    });
    return new SessionSpans(starts, ends);
  }

  /** Music played in [from, to) (ISO), oldest first; jingles left out. */
  async plays(from: string, to: string): Promise<PlayRow[]> {
    const rows = await this.#handle.db
      .selectFrom('play_history as p')
      .leftJoin('tracks as t', 't.id', 'p.track_id')
      .leftJoin('play_listeners as l', 'l.play_id', 'p.id')
      .select([
        'p.id as id',
        'p.started_at as startedAt',
        'p.ended_at as endedAt',
        'p.track_id as trackId',
        'p.title as title',
        'p.artist as artist',
        't.album as album',
        't.isrc as isrc',
        't.duration as duration',
        'l.listeners_at_start as atStart',
        'l.listeners_at_end as atEnd',
        'l.left_during as leftDuring',
        'l.listeners as listeners',
      ])
      .where('p.started_at', '>=', from)
      .where('p.started_at', '<', to)
      .where('p.jingle', '=', 0)
      .orderBy('p.started_at')
      .orderBy('p.id')
      .execute();
    return rows.map(({ atStart, atEnd, leftDuring, listeners, ...row }) => ({
      ...row,
      id: Number(row.id),
      duration: row.duration === null ? null : Number(row.duration),
      counted:
        atStart === null || atEnd === null || leftDuring === null || listeners === null
          ? null
          : {
              listenersAtStart: Number(atStart),
              listenersAtEnd: Number(atEnd),
              leftDuring: Number(leftDuring),
              listeners: Number(listeners),
            },
    }));
  }

  /** The music that ended in (from, to] (epoch ms) and started at `notBefore` or later. */
  async endedPlays(from: number, to: number, notBefore: number): Promise<EndedPlay[]> {
    const iso = (ms: number) => new Date(ms).toISOString();
    const rows = await this.#handle.db
      .selectFrom('play_history')
      .select(['id', 'started_at', 'ended_at'])
      .where('ended_at', '>', iso(from))
      .where('ended_at', '<=', iso(to))
      .where('started_at', '>=', iso(notBefore))
      .where('jingle', '=', 0)
      .execute();
    return rows.map((row) => ({
      id: Number(row.id),
      start: Date.parse(row.started_at),
      end: Date.parse(row.ended_at as string),
    }));
  }

  /** Keeps the plays' counted audiences, replacing earlier counts. */
  async saveCounts(rows: readonly { id: number; audience: PlayAudience }[]): Promise<void> {
    const values = rows.map(({ id, audience }) => ({
      play_id: id,
      listeners_at_start: audience.listenersAtStart,
      listeners_at_end: audience.listenersAtEnd ?? 0,
      left_during: audience.leftDuring ?? 0,
      listeners: audience.listeners,
    }));
    await this.#handle.db.transaction().execute(async (trx) => {
      for (let i = 0; i < values.length; i += INSERT_CHUNK) {
        await trx
          .insertInto('play_listeners')
          .values(values.slice(i, i + INSERT_CHUNK))
          .onConflict((conflict) =>
            conflict.column('play_id').doUpdateSet((eb) => ({
              listeners_at_start: eb.ref('excluded.listeners_at_start'),
              listeners_at_end: eb.ref('excluded.listeners_at_end'),
              left_during: eb.ref('excluded.left_during'),
              listeners: eb.ref('excluded.listeners'),
            })),
          )
          .execute();
      }
    });
  }
}

/** ` and …` for each filter given (the same columns in the sessions and the hourly sums). */
export function filterSql(filter: SessionFilter): RawBuilder<unknown> {
  const none = sql``;
  const mount = filter.mount === undefined ? none : sql` and mount = ${filter.mount}`;
  const country = filter.country === undefined ? none : sql` and country = ${filter.country}`;
  const client = filter.client === undefined ? none : sql` and client = ${filter.client}`;
  return sql`${mount}${country}${client}`;
}
