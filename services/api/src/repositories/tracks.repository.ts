import type { Database, DbHandle, Track } from '@radio/db';
import type { Kysely } from 'kysely';
import type { TrackIndexSource } from '../search/track-index.ts';

export interface LibraryCounts {
  total: number;
  ok: number;
  invalid: number;
  missing: number;
  /** Seconds and bytes of the ok tracks. */
  duration: number;
  size: number;
}

export class TracksRepository implements TrackIndexSource {
  readonly #handle: DbHandle;

  constructor(handle: DbHandle) {
    this.#handle = handle;
  }

  get #db(): Kysely<Database> {
    return this.#handle.db;
  }

  findById(id: number): Promise<Track | undefined> {
    return this.#db.selectFrom('tracks').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** The ids among `ids` that exist. */
  async existingIds(ids: readonly number[]): Promise<Set<number>> {
    if (ids.length === 0) return new Set();
    const rows = await this.#db
      .selectFrom('tracks')
      .select('id')
      .where('id', 'in', [...new Set(ids)])
      .execute();
    return new Set(rows.map((row) => row.id));
  }

  loadAll(): Promise<Track[]> {
    return this.#db.selectFrom('tracks').selectAll().orderBy('id').execute();
  }

  async fingerprint(): Promise<string> {
    const row = await this.#db
      .selectFrom('tracks')
      .select((eb) => [
        eb.fn.countAll<number>().as('n'),
        eb.fn.max('id').as('maxId'),
        eb.fn.max('updated_at').as('updated'),
        // The analysis worker writes its results without a library change event.
        eb.fn.max('analyzed_at').as('analyzed'),
      ])
      .executeTakeFirstOrThrow();
    return `${Number(row.n)}:${row.maxId ?? 0}:${row.updated ?? ''}:${row.analyzed ?? ''}`;
  }

  async counts(): Promise<LibraryCounts> {
    const rows = await this.#db
      .selectFrom('tracks')
      .select((eb) => [
        'status',
        eb.fn.countAll<number>().as('n'),
        eb.fn.sum<number | null>('duration').as('duration'),
        eb.fn.sum<number | null>('size').as('size'),
      ])
      .groupBy('status')
      .execute();
    const counts: LibraryCounts = { total: 0, ok: 0, invalid: 0, missing: 0, duration: 0, size: 0 };
    for (const row of rows) {
      const n = Number(row.n);
      counts[row.status] = n;
      counts.total += n;
      if (row.status === 'ok') {
        counts.duration = Math.round(Number(row.duration ?? 0) * 1000) / 1000;
        counts.size = Number(row.size ?? 0);
      }
    }
    return counts;
  }
}
