import type { Database, DbHandle, Schedule, StartMode } from '@radio/db';
import { nowIso } from '@radio/db';
import type { Kysely } from 'kysely';

/** A schedule entry with the names of what it plays: its playlist, or its DJ. */
export interface ScheduleRow extends Schedule {
  playlist_name: string | null;
  /** The DJ's display name on air, else the user name. */
  dj_name: string | null;
}

/** The stored columns of an entry, as the service writes them. */
export interface ScheduleValues {
  playlist_id: number | null;
  dj_user_id: number | null;
  title: string | null;
  days: number;
  start_time: string;
  end_time: string;
  start_date: string | null;
  end_date: string | null;
  priority: number;
  start_mode: StartMode;
}

export class SchedulesRepository {
  readonly #handle: DbHandle;

  constructor(handle: DbHandle) {
    this.#handle = handle;
  }

  get #db(): Kysely<Database> {
    return this.#handle.db;
  }

  #select() {
    return this.#db
      .selectFrom('schedules as s')
      .leftJoin('playlists as p', 'p.id', 's.playlist_id')
      .leftJoin('users as u', 'u.id', 's.dj_user_id')
      .leftJoin('dj_accounts as d', 'd.user_id', 's.dj_user_id')
      .selectAll('s')
      .select(['p.name as playlist_name', 'u.username', 'd.display_name']);
  }

  #row(
    row: Schedule & {
      playlist_name: string | null;
      username: string | null;
      display_name: string | null;
    },
  ): ScheduleRow {
    const { username, display_name, ...rest } = row;
    return { ...rest, dj_name: row.dj_user_id === null ? null : display_name || username };
  }

  /** Every entry, by start time then id. */
  async list(): Promise<ScheduleRow[]> {
    const rows = await this.#select().orderBy('s.start_time').orderBy('s.id').execute();
    return rows.map((row) => this.#row(row));
  }

  async findById(id: number): Promise<ScheduleRow | undefined> {
    const row = await this.#select().where('s.id', '=', id).executeTakeFirst();
    return row && this.#row(row);
  }

  async create(values: ScheduleValues): Promise<number> {
    const row = await this.#db
      .insertInto('schedules')
      .values(values)
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async update(id: number, values: ScheduleValues): Promise<void> {
    await this.#db
      .updateTable('schedules')
      .set({ ...values, updated_at: nowIso() })
      .where('id', '=', id)
      .execute();
  }

  async delete(id: number): Promise<boolean> {
    const result = await this.#db.deleteFrom('schedules').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
