import type { Db } from './db.ts';

/** Reads playlists for `playlist.play`; the api owns writing them. */
export class PlaylistRepository {
  readonly #db: Db;

  constructor(db: Db) {
    this.#db = db;
  }

  async exists(id: number): Promise<boolean> {
    const row = await this.#db
      .selectFrom('playlists')
      .select('id')
      .where('id', '=', id)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** The playlist's track ids in order (including tracks that are no longer playable). */
  async trackIds(id: number): Promise<number[]> {
    const rows = await this.#db
      .selectFrom('playlist_items')
      .select('track_id')
      .where('playlist_id', '=', id)
      .orderBy('position')
      .orderBy('id')
      .execute();
    return rows.map((row) => row.track_id);
  }
}
