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

  /** Track ids played most recently first (for the rotation's no-repeat window at start). */
  async recentTrackIds(limit: number): Promise<number[]> {
    const rows = await this.#db
      .selectFrom('play_history')
      .select('track_id')
      .where('track_id', 'is not', null)
      .orderBy('started_at', 'desc')
      .limit(limit)
      .execute();
    return rows.flatMap((row) => (row.track_id === null ? [] : [row.track_id]));
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
