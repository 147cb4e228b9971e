import type { Database, DbHandle, Playlist, PlaylistItem, PlaylistsTable, Track } from '@radio/db';
import { containsIgnoreCase, nowIso, toFlag } from '@radio/db';
import { type Kysely, sql, type Transaction } from 'kysely';

export interface PlaylistRow extends Playlist {
  owner_username: string;
  item_count: number;
  duration: number;
}

export interface PlaylistItemRow {
  item: PlaylistItem;
  track: Track;
}

export interface PlaylistListFilter {
  viewerId: number;
  scope: 'all' | 'mine' | 'public';
  q?: string | undefined;
  offset: number;
  limit: number;
}

const UPDATE_BATCH = 500;

/** How a playlist takes part in programming, as stored. */
export type ProgrammingColumns = Pick<PlaylistsTable, 'interval' | 'play_at'> & {
  on_air: 0 | 1;
  kind: Playlist['kind'];
  play_order: Playlist['play_order'];
  weight: number;
  jingle: 0 | 1;
  start_mode: Playlist['start_mode'];
};

export class PlaylistsRepository {
  readonly #handle: DbHandle;

  constructor(handle: DbHandle) {
    this.#handle = handle;
  }

  get #db(): Kysely<Database> {
    return this.#handle.db;
  }

  #withCounts(db: Kysely<Database> = this.#db) {
    const stats = db
      .selectFrom('playlist_items as i')
      .innerJoin('tracks as t', 't.id', 'i.track_id')
      .select((eb) => [
        'i.playlist_id',
        eb.fn.countAll<number>().as('item_count'),
        eb.fn.sum<number | null>('t.duration').as('duration'),
      ])
      .groupBy('i.playlist_id')
      .as('s');
    return db
      .selectFrom('playlists as p')
      .innerJoin('users as u', 'u.id', 'p.owner_id')
      .leftJoin(stats, 's.playlist_id', 'p.id')
      .selectAll('p')
      .select(['u.username as owner_username', 's.item_count', 's.duration']);
  }

  #normalize(
    row: Omit<PlaylistRow, 'item_count' | 'duration'> & {
      item_count: number | null;
      duration: number | null;
    },
  ): PlaylistRow {
    return {
      ...row,
      item_count: Number(row.item_count ?? 0),
      duration: Math.round(Number(row.duration ?? 0) * 1000) / 1000,
    };
  }

  async list(filter: PlaylistListFilter): Promise<{ rows: PlaylistRow[]; total: number }> {
    let base = this.#withCounts();
    let countQuery = this.#db.selectFrom('playlists as p');
    const scope = filter.scope;
    if (scope === 'mine') {
      base = base.where('p.owner_id', '=', filter.viewerId);
      countQuery = countQuery.where('p.owner_id', '=', filter.viewerId);
    } else if (scope === 'public') {
      base = base.where('p.is_public', '=', 1);
      countQuery = countQuery.where('p.is_public', '=', 1);
    } else {
      base = base.where((eb) =>
        eb.or([eb('p.owner_id', '=', filter.viewerId), eb('p.is_public', '=', 1)]),
      );
      countQuery = countQuery.where((eb) =>
        eb.or([eb('p.owner_id', '=', filter.viewerId), eb('p.is_public', '=', 1)]),
      );
    }
    if (filter.q) {
      base = base.where(containsIgnoreCase('p.name', filter.q));
      countQuery = countQuery.where(containsIgnoreCase('p.name', filter.q));
    }
    const [rows, count] = await Promise.all([
      base
        .orderBy(sql`lower(p.name)`)
        .orderBy('p.id')
        .limit(filter.limit)
        .offset(filter.offset)
        .execute(),
      countQuery.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { rows: rows.map((row) => this.#normalize(row)), total: Number(count.n) };
  }

  async findById(id: number): Promise<PlaylistRow | undefined> {
    const row = await this.#withCounts().where('p.id', '=', id).executeTakeFirst();
    return row && this.#normalize(row);
  }

  async items(playlistId: number): Promise<PlaylistItemRow[]> {
    const rows = await this.#db
      .selectFrom('playlist_items as i')
      .innerJoin('tracks as t', 't.id', 'i.track_id')
      .selectAll('t')
      .select([
        'i.id as item_id',
        'i.playlist_id as item_playlist_id',
        'i.track_id as item_track_id',
        'i.position as item_position',
        'i.added_at as item_added_at',
      ])
      .where('i.playlist_id', '=', playlistId)
      .orderBy('i.position')
      .orderBy('i.id')
      .execute();
    return rows.map(
      ({ item_id, item_playlist_id, item_track_id, item_position, item_added_at, ...track }) => ({
        item: {
          id: item_id,
          playlist_id: item_playlist_id,
          track_id: item_track_id,
          position: item_position,
          added_at: item_added_at,
        },
        track,
      }),
    );
  }

  async create(values: {
    ownerId: number;
    name: string;
    description: string | null;
    isPublic: boolean;
    programming?: ProgrammingColumns | undefined;
  }): Promise<number> {
    const row = await this.#db
      .insertInto('playlists')
      .values({
        owner_id: values.ownerId,
        name: values.name,
        description: values.description,
        is_public: toFlag(values.isPublic),
        ...values.programming,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async update(
    id: number,
    patch: {
      name?: string | undefined;
      description?: string | null | undefined;
      isPublic?: boolean | undefined;
      programming?: ProgrammingColumns | undefined;
    },
  ): Promise<void> {
    await this.#db
      .updateTable('playlists')
      .set({
        ...(patch.name !== undefined && { name: patch.name }),
        ...(patch.description !== undefined && { description: patch.description }),
        ...(patch.isPublic !== undefined && { is_public: toFlag(patch.isPublic) }),
        ...patch.programming,
        updated_at: nowIso(),
      })
      .where('id', '=', id)
      .execute();
  }

  async delete(id: number): Promise<boolean> {
    const result = await this.#db.deleteFrom('playlists').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async #itemCount(trx: Transaction<Database>, playlistId: number): Promise<number> {
    const row = await trx
      .selectFrom('playlist_items')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('playlist_id', '=', playlistId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async #touch(trx: Transaction<Database>, playlistId: number): Promise<void> {
    await trx
      .updateTable('playlists')
      .set({ updated_at: nowIso() })
      .where('id', '=', playlistId)
      .execute();
  }

  /**
   * Inserts the tracks at `position` (0-based; the end when undefined or past it), shifting the
   * items after it. Positions stay 0..n-1. Returns the new item ids in order, or null when the
   * playlist would grow beyond `maxItems`.
   */
  addItems(
    playlistId: number,
    trackIds: readonly number[],
    position: number | undefined,
    maxItems: number,
  ): Promise<number[] | null> {
    return this.#db.transaction().execute(async (trx) => {
      const count = await this.#itemCount(trx, playlistId);
      if (count + trackIds.length > maxItems) return null;
      const at = Math.min(position ?? count, count);
      if (at < count) {
        await trx
          .updateTable('playlist_items')
          .set((eb) => ({ position: eb('position', '+', trackIds.length) }))
          .where('playlist_id', '=', playlistId)
          .where('position', '>=', at)
          .execute();
      }
      const inserted = await trx
        .insertInto('playlist_items')
        .values(
          trackIds.map((trackId, k) => ({
            playlist_id: playlistId,
            track_id: trackId,
            position: at + k,
          })),
        )
        .returning(['id', 'position'])
        .execute();
      await this.#touch(trx, playlistId);
      return inserted.sort((a, b) => a.position - b.position).map((row) => row.id);
    });
  }

  /** Removes one item and closes the gap; false when the item is not in this playlist. */
  removeItem(playlistId: number, itemId: number): Promise<boolean> {
    return this.#db.transaction().execute(async (trx) => {
      const item = await trx
        .selectFrom('playlist_items')
        .select(['id', 'position'])
        .where('id', '=', itemId)
        .where('playlist_id', '=', playlistId)
        .executeTakeFirst();
      if (!item) return false;
      await trx.deleteFrom('playlist_items').where('id', '=', itemId).execute();
      await trx
        .updateTable('playlist_items')
        .set((eb) => ({ position: eb('position', '-', 1) }))
        .where('playlist_id', '=', playlistId)
        .where('position', '>', item.position)
        .execute();
      await this.#touch(trx, playlistId);
      return true;
    });
  }

  /**
   * Puts the items in the given order. `itemIds` must hold every item of the playlist exactly
   * once; returns false (and changes nothing) otherwise.
   */
  reorder(playlistId: number, itemIds: readonly number[]): Promise<boolean> {
    return this.#db.transaction().execute(async (trx) => {
      const current = await trx
        .selectFrom('playlist_items')
        .select('id')
        .where('playlist_id', '=', playlistId)
        .execute();
      const wanted = new Set(itemIds);
      if (wanted.size !== itemIds.length || current.length !== itemIds.length) return false;
      if (!current.every((row) => wanted.has(row.id))) return false;
      for (let start = 0; start < itemIds.length; start += UPDATE_BATCH) {
        const batch = itemIds.slice(start, start + UPDATE_BATCH);
        const cases = sql.join(
          batch.map((id, k) => sql`when ${id} then ${sql.lit(start + k)}`),
          sql` `,
        );
        await trx
          .updateTable('playlist_items')
          .set({ position: sql<number>`case id ${cases} end` })
          .where('playlist_id', '=', playlistId)
          .where('id', 'in', batch)
          .execute();
      }
      await this.#touch(trx, playlistId);
      return true;
    });
  }
}
