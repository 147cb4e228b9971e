import type { DbHandle, NewTrashEntry, TrashEntry } from '@radio/db';

/** The `trash` table: files deleted from the library, kept under DATA_DIR/trash. */
export class TrashRepository {
  readonly #handle: DbHandle;

  constructor(handle: DbHandle) {
    this.#handle = handle;
  }

  async insert(entry: NewTrashEntry): Promise<TrashEntry> {
    return this.#handle.db
      .insertInto('trash')
      .values(entry)
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  find(id: number): Promise<TrashEntry | undefined> {
    return this.#handle.db.selectFrom('trash').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Newest first. */
  async list(offset: number, limit: number): Promise<{ rows: TrashEntry[]; total: number }> {
    const db = this.#handle.db;
    const [rows, count] = await Promise.all([
      db
        .selectFrom('trash')
        .selectAll()
        .orderBy('id', 'desc')
        .limit(limit)
        .offset(offset)
        .execute(),
      db
        .selectFrom('trash')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.n) };
  }

  /** The oldest `limit` entries whose time ran out before `now` (ISO). */
  expired(now: string, limit: number): Promise<TrashEntry[]> {
    return this.#handle.db
      .selectFrom('trash')
      .selectAll()
      .where('expires_at', '<=', now)
      .orderBy('expires_at')
      .limit(limit)
      .execute();
  }

  async remove(id: number): Promise<boolean> {
    const result = await this.#handle.db
      .deleteFrom('trash')
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
