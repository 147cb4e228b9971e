import type { SongRequestUpdate } from '@radio/core';
import type { Db } from './db.ts';

/** Writes the scheduler's side of listener requests: when each is planned, and when it played. */
export class RequestRepository {
  readonly #db: Db;

  constructor(db: Db) {
    this.#db = db;
  }

  /**
   * A pending request went on air: played, with its time. Null when it was not pending any
   * more (removed meanwhile), so nothing is announced for it.
   */
  async markPlayed(id: number, playedAt: number): Promise<SongRequestUpdate | null> {
    const updated = await this.#db
      .updateTable('song_requests')
      .set({ status: 'played', played_at: new Date(playedAt).toISOString(), planned_at: null })
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) return null;
    return this.#update(id);
  }

  /**
   * Where the plan has each pending request now (null: not in the plan). Only pending rows
   * change; returns the updates of those that did.
   */
  async setPlanned(
    planned: readonly { id: number; plannedAt: number | null }[],
  ): Promise<SongRequestUpdate[]> {
    const updates: SongRequestUpdate[] = [];
    for (const { id, plannedAt } of planned) {
      const updated = await this.#db
        .updateTable('song_requests')
        .set({ planned_at: plannedAt === null ? null : new Date(plannedAt).toISOString() })
        .where('id', '=', id)
        .where('status', '=', 'pending')
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) === 0) continue;
      const update = await this.#update(id);
      if (update) updates.push(update);
    }
    return updates;
  }

  async #update(id: number): Promise<SongRequestUpdate | null> {
    const row = await this.#db
      .selectFrom('song_requests')
      .select(['id', 'user_id', 'track_id', 'status', 'planned_at', 'played_at', 'reason'])
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) return null;
    return {
      id: row.id,
      userId: row.user_id,
      trackId: row.track_id,
      status: row.status,
      plannedAt: row.planned_at === null ? null : Date.parse(row.planned_at),
      playedAt: row.played_at === null ? null : Date.parse(row.played_at),
      reason: row.reason,
    };
  }
}
