import type { DbHandle, PlayHistoryEntry } from '@radio/db';

export class HistoryRepository {
  readonly #handle: DbHandle;

  constructor(handle: DbHandle) {
    this.#handle = handle;
  }

  /** Newest first; jingles are left out (the listener-facing history is music). */
  async list(offset: number, limit: number): Promise<{ rows: PlayHistoryEntry[]; total: number }> {
    const db = this.#handle.db;
    const [rows, count] = await Promise.all([
      db
        .selectFrom('play_history')
        .selectAll()
        .where('jingle', '=', 0)
        .orderBy('started_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .offset(offset)
        .execute(),
      db
        .selectFrom('play_history')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('jingle', '=', 0)
        .executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.n) };
  }
}
