import type { Database, DbHandle } from '@radio/db';
import type { Kysely } from 'kysely';

/** Its row in the settings table (value: the code as JSON). */
const KEY = 'setup-code';

/**
 * The generated setup code, kept in the database so every api process and every restart
 * prints the same one until the first admin is created with it.
 */
export class SetupCodeStore {
  readonly #handle: DbHandle;

  constructor(handle: DbHandle) {
    this.#handle = handle;
  }

  async read(): Promise<string | null> {
    const row = await this.#handle.db
      .selectFrom('settings')
      .select('value')
      .where('key', '=', KEY)
      .executeTakeFirst();
    const code: unknown = row ? JSON.parse(row.value) : null;
    return typeof code === 'string' ? code : null;
  }

  /** Keeps `code` unless a code is kept already (another process was first); returns the kept one. */
  async keep(code: string): Promise<string> {
    await this.#handle.db
      .insertInto('settings')
      .values({ key: KEY, value: JSON.stringify(code) })
      .onConflict((conflict) => conflict.column('key').doNothing())
      .execute();
    return (await this.read()) ?? code;
  }

  /** In the transaction that creates the first admin: the code is used up with it. */
  async delete(db: Kysely<Database>): Promise<void> {
    await db.deleteFrom('settings').where('key', '=', KEY).execute();
  }
}
