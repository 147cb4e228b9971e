import type { Database, DbHandle, LiveShow } from '@radio/db';
import type { Kysely } from 'kysely';

/** Live shows that were recorded, newest first. */
export class RecordingsRepository {
  readonly #handle: DbHandle;

  constructor(handle: DbHandle) {
    this.#handle = handle;
  }

  get #db(): Kysely<Database> {
    return this.#handle.db;
  }

  /** `userId`: only that DJ's shows; undefined: everyone's. */
  async list(
    userId: number | undefined,
    offset: number,
    limit: number,
  ): Promise<{ rows: LiveShow[]; total: number }> {
    let query = this.#db.selectFrom('live_shows').where('recording_file', 'is not', null);
    if (userId !== undefined) query = query.where('user_id', '=', userId);
    const [rows, count] = await Promise.all([
      query
        .selectAll()
        .orderBy('started_at', 'desc')
        .orderBy('id', 'desc')
        .offset(offset)
        .limit(limit)
        .execute(),
      query.select((eb) => eb.fn.countAll<number | string>().as('total')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.total) };
  }

  find(id: number): Promise<LiveShow | undefined> {
    return this.#db
      .selectFrom('live_shows')
      .selectAll()
      .where('id', '=', id)
      .where('recording_file', 'is not', null)
      .executeTakeFirst();
  }

  async delete(id: number): Promise<void> {
    await this.#db.deleteFrom('live_shows').where('id', '=', id).execute();
  }
}
