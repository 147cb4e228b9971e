import type { Database, DbHandle, DjAccountUpdate, NewDjAccount, UserRole } from '@radio/db';
import { nowIso } from '@radio/db';
import type { Kysely } from 'kysely';

/** A DJ account with the user it belongs to. */
export interface DjAccountRow {
  user_id: number;
  username: string;
  role: UserRole;
  user_disabled: number;
  broadcast_username: string;
  display_name: string;
  enabled: number;
  record_shows: number;
  created_at: string;
  updated_at: string;
}

export class DjAccountsRepository {
  readonly #handle: DbHandle;

  constructor(handle: DbHandle) {
    this.#handle = handle;
  }

  get #db(): Kysely<Database> {
    return this.#handle.db;
  }

  #select() {
    return this.#db
      .selectFrom('dj_accounts')
      .innerJoin('users', 'users.id', 'dj_accounts.user_id')
      .select([
        'dj_accounts.user_id',
        'users.username',
        'users.role',
        'users.disabled as user_disabled',
        'dj_accounts.broadcast_username',
        'dj_accounts.display_name',
        'dj_accounts.enabled',
        'dj_accounts.record_shows',
        'dj_accounts.created_at',
        'dj_accounts.updated_at',
      ]);
  }

  list(): Promise<DjAccountRow[]> {
    return this.#select().orderBy('dj_accounts.broadcast_username').execute();
  }

  find(userId: number): Promise<DjAccountRow | undefined> {
    return this.#select().where('dj_accounts.user_id', '=', userId).executeTakeFirst();
  }

  async create(row: NewDjAccount): Promise<void> {
    await this.#db.insertInto('dj_accounts').values(row).execute();
  }

  async update(userId: number, changes: DjAccountUpdate): Promise<boolean> {
    const result = await this.#db
      .updateTable('dj_accounts')
      .set({ ...changes, updated_at: nowIso() })
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async delete(userId: number): Promise<boolean> {
    const result = await this.#db
      .deleteFrom('dj_accounts')
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** A one-time token for the go-live connection; expired and spent tokens are dropped first. */
  async addToken(tokenHash: string, userId: number, expiresAt: string): Promise<void> {
    await this.#db
      .deleteFrom('live_tokens')
      .where((eb) => eb.or([eb('expires_at', '<', nowIso()), eb('used', '=', 1)]))
      .execute();
    await this.#db
      .insertInto('live_tokens')
      .values({ token_hash: tokenHash, user_id: userId, expires_at: expiresAt })
      .execute();
  }
}
