import type { DbHandle, PlayHistoryEntry } from '@radio/db';

export class HistoryRepository {
  readonly #handle: DbHandle;

  constructor(handle: DbHandle) {
    this.#handle = handle;
  }

  /** Newest first. */
  async list(offset: number, limit: number): Promise<{ rows: PlayHistoryEntry[]; total: number }> {
    const db = this.#handle.db;
    const [rows, count] = await Promise.all([
      db
        .selectFrom('play_history')
        .selectAll()
        .orderBy('started_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .offset(offset)
        .execute(),
      db
        .selectFrom('play_history')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.n) };
  }
}
