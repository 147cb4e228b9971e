import { type DbHandle, nowIso, type Track } from '@radio/db';

/** The library's bookkeeping around files: where tracks are, and playlist entries of a track. */
export class LibraryRepository {
  readonly #handle: DbHandle;

  constructor(handle: DbHandle) {
    this.#handle = handle;
  }

  findByPath(path: string): Promise<Track | undefined> {
    return this.#handle.db
      .selectFrom('tracks')
      .selectAll()
      .where('path', '=', path)
      .executeTakeFirst();
  }

  /**
   * Removes a track from every playlist, closing the gaps it leaves so positions stay 0..n-1.
   * Returns how many playlist entries went.
   */
  removeFromPlaylists(trackId: number): Promise<number> {
    return this.#handle.db.transaction().execute(async (trx) => {
      const items = await trx
        .selectFrom('playlist_items')
        .select(['id', 'playlist_id', 'position'])
        .where('track_id', '=', trackId)
        .orderBy('position', 'desc')
        .execute();
      // From the last position down: each shift leaves the positions still to visit as they were.
      for (const item of items) {
        await trx.deleteFrom('playlist_items').where('id', '=', item.id).execute();
        await trx
          .updateTable('playlist_items')
          .set((eb) => ({ position: eb('position', '-', 1) }))
          .where('playlist_id', '=', item.playlist_id)
          .where('position', '>', item.position)
          .execute();
      }
      const playlists = [...new Set(items.map((item) => item.playlist_id))];
      if (playlists.length > 0) {
        await trx
          .updateTable('playlists')
          .set({ updated_at: nowIso() })
          .where('id', 'in', playlists)
          .execute();
      }
      return items.length;
    });
  }
}
