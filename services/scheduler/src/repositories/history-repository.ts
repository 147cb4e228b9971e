import type { PlaySource } from '@radio/db';
import { nowIso } from '@radio/db';
import type { Db } from './db.ts';

export interface HistoryStart {
  trackId: number | null;
  title: string;
  artist: string | null;
  source: PlaySource;
  requestId: string | null;
  startedAt: Date;
  /** The playlist it came from (scheduled, rotation or a rule's). */
  playlistId?: number | null;
  /** A jingle: kept out of the listener-facing history. */
  jingle?: boolean;
  /** The listener request it answers. */
  songRequestId?: number | null;
}

/** Writes `play_history`: a row when a track goes on air, its end time when it leaves. */
export class HistoryRepository {
  readonly #db: Db;

  constructor(db: Db) {
    this.#db = db;
  }

  async start(entry: HistoryStart): Promise<number> {
    const row = await this.#db
      .insertInto('play_history')
      .values({
        track_id: entry.trackId,
        title: entry.title,
        artist: entry.artist,
        source: entry.source,
        request_id: entry.requestId,
        started_at: entry.startedAt.toISOString(),
        playlist_id: entry.playlistId ?? null,
        jingle: entry.jingle ? 1 : 0,
        song_request_id: entry.songRequestId ?? null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async end(id: number, endedAt: Date = new Date()): Promise<void> {
    await this.#db
      .updateTable('play_history')
      .set({ ended_at: endedAt.toISOString() })
      .where('id', '=', id)
      .execute();
  }

  /** Closes rows a previous run left open (it stopped without writing an end). */
  async closeDangling(): Promise<void> {
    await this.#db
      .updateTable('play_history')
      .set({ ended_at: nowIso() })
      .where('ended_at', 'is', null)
      .execute();
  }
}
