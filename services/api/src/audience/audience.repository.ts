import type {
  Database,
  DbHandle,
  ListenerClient,
  ListenerHourlyTable,
  ListenerSketchesTable,
  NewListenerSession,
} from '@radio/db';
import { nowIso } from '@radio/db';
import { type Kysely, sql, type Transaction } from 'kysely';

/** How far the sums have got (kept in the settings table, so every api process shares it). */
export interface RollupState {
  /** Hours before this (an hour start, epoch ms) are summed. */
  summedThrough: number;
  /** The highest session id seen by the last run: sessions after it may be late arrivals. */
  lastId: number;
  /** Sessions that ended before this were removed (retention). */
  deletedBefore?: number;
  /**
   * Plays that ended before this are counted; absent in the state of a version that did not
   * count plays (its plays are counted from the oldest session on by the next run).
   */
  playsCountedThrough?: number;
}

/** What the sums read of a session. */
export interface SessionSlice {
  id: number;
  mount: string;
  started: number;
  ended: number;
  /** The session's whole length. */
  duration: number;
  country: string | null;
  client: ListenerClient;
  listener: string | null;
}

/** Sketch rows per INSERT: up to 16 KB each. */
const SKETCH_CHUNK = 50;

async function insertSketches(
  trx: Transaction<Database>,
  rows: readonly ListenerSketchesTable[],
): Promise<void> {
  for (let i = 0; i < rows.length; i += SKETCH_CHUNK) {
    await trx
      .insertInto('listener_sketches')
      .values(rows.slice(i, i + SKETCH_CHUNK))
      .onConflict((conflict) =>
        conflict
          .columns(['span', 'start_ms', 'mount', 'country', 'client'])
          .doUpdateSet((eb) => ({ sketch: eb.ref('excluded.sketch') })),
      )
      .execute();
  }
}

const ROLLUP_SETTING = 'audience.rollup';
/** Rows per INSERT: far below SQLite's and PostgreSQL's limits on bound values. */
const INSERT_CHUNK = 500;
/** Sessions read per query while summing. */
const PAGE = 5000;

/** The listener tables' queries: storing sessions, summing them, removing old ones. */
export class AudienceRepository {
  readonly #handle: DbHandle;

  constructor(handle: DbHandle) {
    this.#handle = handle;
  }

  get #db(): Kysely<Database> {
    return this.#handle.db;
  }

  /** Stores sessions in one transaction; a key already stored is skipped. Returns how many were new. */
  async insertSessions(rows: readonly NewListenerSession[]): Promise<number> {
    if (rows.length === 0) return 0;
    return this.#db.transaction().execute(async (trx) => {
      let stored = 0;
      for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
        const result = await trx
          .insertInto('listener_sessions')
          .values(rows.slice(i, i + INSERT_CHUNK))
          .onConflict((conflict) => conflict.column('session_key').doNothing())
          .executeTakeFirst();
        stored += Number(result.numInsertedOrUpdatedRows ?? 0n);
      }
      return stored;
    });
  }

  async rollupState(): Promise<RollupState | null> {
    const row = await this.#db
      .selectFrom('settings')
      .select('value')
      .where('key', '=', ROLLUP_SETTING)
      .executeTakeFirst();
    return row ? (JSON.parse(row.value) as RollupState) : null;
  }

  async saveRollupState(state: RollupState): Promise<void> {
    const value = JSON.stringify(state);
    await this.#db
      .insertInto('settings')
      .values({ key: ROLLUP_SETTING, value })
      .onConflict((conflict) => conflict.column('key').doUpdateSet({ value, updated_at: nowIso() }))
      .execute();
  }

  async maxSessionId(): Promise<number> {
    const row = await sql<{ id: number | string | null }>`
      select max(id) as id from listener_sessions`.execute(this.#db);
    return Number(row.rows[0]?.id ?? 0);
  }

  /**
   * The earliest start of the sessions stored after `afterId` (up to `maxId`), or null; read
   * by id (`+ 0` keeps min() off the started index, which it would walk from the oldest).
   */
  async earliestStartAfter(afterId: number, maxId: number): Promise<number | null> {
    const row = await sql<{ start: number | string | null }>`
      select min(started_ms + 0) as start from listener_sessions
      where id > ${afterId} and id <= ${maxId}`.execute(this.#db);
    const start = row.rows[0]?.start;
    return start === null || start === undefined ? null : Number(start);
  }

  async oldestStart(): Promise<number | null> {
    const row = await sql<{ start: number | string | null }>`
      select min(started_ms) as start from listener_sessions`.execute(this.#db);
    const start = row.rows[0]?.start;
    return start === null || start === undefined ? null : Number(start);
  }

  /** Each session that overlaps [from, to) or starts in it, page by page (by id). */
  async *overlapping(from: number, to: number): AsyncGenerator<SessionSlice[]> {
    let after = 0;
    for (;;) {
      const rows = await this.#db
        .selectFrom('listener_sessions')
        .select([
          'id',
          'mount',
          'started_ms',
          'ended_ms',
          'duration_ms',
          'country',
          'client',
          'listener',
        ])
        .where('started_ms', '<', to)
        .where((eb) => eb.or([eb('ended_ms', '>', from), eb('started_ms', '>=', from)]))
        .where('id', '>', after)
        .orderBy('id')
        .limit(PAGE)
        .execute();
      if (rows.length === 0) return;
      after = Number(rows[rows.length - 1]?.id);
      yield rows.map((row) => ({
        id: Number(row.id),
        mount: row.mount,
        started: Number(row.started_ms),
        ended: Number(row.ended_ms),
        duration: Number(row.duration_ms),
        country: row.country,
        client: row.client,
        listener: row.listener,
      }));
      if (rows.length < PAGE) return;
    }
  }

  /** Replaces the hourly sums and sketches of the hours in [from, to). */
  async replaceHourly(
    from: number,
    to: number,
    rows: readonly ListenerHourlyTable[],
    sketches: readonly ListenerSketchesTable[],
  ): Promise<void> {
    await this.#db.transaction().execute(async (trx) => {
      await trx
        .deleteFrom('listener_hourly')
        .where('hour_ms', '>=', from)
        .where('hour_ms', '<', to)
        .execute();
      await trx
        .deleteFrom('listener_sketches')
        .where('span', '=', 'hour')
        .where('start_ms', '>=', from)
        .where('start_ms', '<', to)
        .execute();
      await insertSketches(trx, sketches);
      for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
        // Another api process may sum the same hours at the same time: the last one wins.
        await trx
          .insertInto('listener_hourly')
          .values(rows.slice(i, i + INSERT_CHUNK))
          .onConflict((conflict) =>
            conflict.columns(['hour_ms', 'mount', 'country', 'client']).doUpdateSet((eb) => ({
              sessions: eb.ref('excluded.sessions'),
              listening_ms: eb.ref('excluded.listening_ms'),
              peak: eb.ref('excluded.peak'),
              present: eb.ref('excluded.present'),
              quarter_listeners: eb.ref('excluded.quarter_listeners'),
              started_duration_ms: eb.ref('excluded.started_duration_ms'),
              present_duration_ms: eb.ref('excluded.present_duration_ms'),
            })),
          )
          .execute();
      }
    });
  }

  /** Replaces the listener sketches of the day starting at `dayStart`. */
  async replaceDaySketches(
    dayStart: number,
    sketches: readonly ListenerSketchesTable[],
  ): Promise<void> {
    await this.#db.transaction().execute(async (trx) => {
      await trx
        .deleteFrom('listener_sketches')
        .where('span', '=', 'day')
        .where('start_ms', '=', dayStart)
        .execute();
      await insertSketches(trx, sketches);
    });
  }

  /** Removes the sessions that ended before `before`; returns how many. */
  async deleteEndedBefore(before: number): Promise<number> {
    const result = await this.#db
      .deleteFrom('listener_sessions')
      .where('ended_ms', '<', before)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
