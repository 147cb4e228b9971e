import { type DbHandle, nowIso, type Track } from '@radio/db';

/**
 * The library's bookkeeping around files: where tracks are, who uploaded them, and the
 * playlist entries of a track.
 */
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
   * Marks the file at `path` as `userId`'s upload. Set whatever the row said before: a path
   * whose track was deleted can come back as another user's upload in the same row.
   */
  async recordUpload(path: string, userId: number): Promise<void> {
    await this.#handle.db
      .updateTable('tracks')
      .set({ uploaded_by: userId })
      .where('path', '=', path)
      .execute();
  }

  /**
   * Who uploaded a track: its `uploaded_by`, else the latest upload of its path in the audit
   * log (an upload the scheduler indexed only after the upload was answered); null when the
   * file came into the music folder some other way.
   */
  async uploaderOf(track: Pick<Track, 'path' | 'uploaded_by'>): Promise<number | null> {
    if (track.uploaded_by !== null) return track.uploaded_by;
    const upload = await this.#handle.db
      .selectFrom('audit_log')
      .select('user_id')
      .where('action', '=', 'track.upload')
      .where('target', '=', track.path)
      .orderBy('id', 'desc')
      .executeTakeFirst();
    return upload?.user_id ?? null;
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
