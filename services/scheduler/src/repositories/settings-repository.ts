import { nowIso } from '@radio/db';
import type { Db } from './db.ts';

/** Runtime values that outlive a restart (the `settings` table: key → JSON). */
export class SettingsRepository {
  readonly #db: Db;

  constructor(db: Db) {
    this.#db = db;
  }

  /** The stored value, or undefined when unset or not valid JSON. */
  async get(key: string): Promise<unknown> {
    const row = await this.#db
      .selectFrom('settings')
      .select('value')
      .where('key', '=', key)
      .executeTakeFirst();
    if (!row) return undefined;
    try {
      return JSON.parse(row.value) as unknown;
    } catch {
      return undefined;
    }
  }

  async set(key: string, value: unknown): Promise<void> {
    const json = JSON.stringify(value);
    await this.#db
      .insertInto('settings')
      .values({ key, value: json })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value: json, updated_at: nowIso() }))
      .execute();
  }
}
