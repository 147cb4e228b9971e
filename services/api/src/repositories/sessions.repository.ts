import type { DbHandle, Session } from '@radio/db';
import { prepared } from './prepared.ts';

/** The sessions table of embedded mode (sessions/db-session-store.ts). */
export class SessionsRepository {
  readonly #handle: DbHandle;
  readonly #find: (parameters: readonly unknown[]) => Promise<Session[]>;

  constructor(handle: DbHandle) {
    this.#handle = handle;
    this.#find = prepared(handle.db, (db) =>
      db.selectFrom('sessions').selectAll().where('sid', '=', ''),
    );
  }

  /** Runs on every request that carries a session cookie, hence prepared. */
  async find(sid: string): Promise<Session | undefined> {
    return (await this.#find([sid]))[0];
  }

  async save(sid: string, data: string, expiresAt: number): Promise<void> {
    await this.#handle.db
      .insertInto('sessions')
      .values({ sid, data, expires_at: expiresAt })
      .onConflict((oc) => oc.column('sid').doUpdateSet({ data, expires_at: expiresAt }))
      .execute();
  }

  /**
   * Moves the expiry forward, but only when it moves by more than `slackMs`: with a rolling
   * expiry every request touches its session, and most of those writes would change nothing
   * that matters.
   */
  async touch(sid: string, expiresAt: number, slackMs: number): Promise<void> {
    await this.#handle.db
      .updateTable('sessions')
      .set({ expires_at: expiresAt })
      .where('sid', '=', sid)
      .where('expires_at', '<', expiresAt - slackMs)
      .execute();
  }

  async delete(sid: string): Promise<void> {
    await this.#handle.db.deleteFrom('sessions').where('sid', '=', sid).execute();
  }

  async deleteExpired(now: number): Promise<number> {
    const result = await this.#handle.db
      .deleteFrom('sessions')
      .where('expires_at', '<=', now)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async countActive(now: number): Promise<number> {
    const row = await this.#handle.db
      .selectFrom('sessions')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('expires_at', '>', now)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async deleteAll(): Promise<void> {
    await this.#handle.db.deleteFrom('sessions').execute();
  }
}
