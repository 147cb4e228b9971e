import type { Database, DbHandle, NewUser, User, UserRole, UserUpdate } from '@radio/db';
import { containsIgnoreCase, nowIso } from '@radio/db';
import { type Kysely, sql, type Transaction } from 'kysely';
import { prepared } from './prepared.ts';

export interface UserListFilter {
  q?: string | undefined;
  role?: UserRole | undefined;
  offset: number;
  limit: number;
}

/** Called with a user's id after a write to that user's row is committed. */
export type UserChangeListener = (userId: number) => void;

// Any constant works: it only has to be the same in every api process of the station.
const ADMIN_LOCK_KEY = 7_261_001;

export class UsersRepository {
  readonly #handle: DbHandle;
  readonly #findById: (parameters: readonly unknown[]) => Promise<User[]>;
  readonly #listeners = new Set<UserChangeListener>();
  /** Users changed inside a withAdminLock transaction: announced once it commits. */
  readonly #uncommitted = new WeakMap<Kysely<Database>, Set<number>>();

  constructor(handle: DbHandle) {
    this.#handle = handle;
    this.#findById = prepared(handle.db, (db) =>
      db.selectFrom('users').selectAll().where('id', '=', 0),
    );
  }

  get #db(): Kysely<Database> {
    return this.#handle.db;
  }

  /**
   * `listener` hears of every committed update or deletion of a user row made through this
   * repository (new rows are not announced: nothing can know them yet). Returns the function
   * that stops it.
   */
  onChange(listener: UserChangeListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #changed(userId: number, db: Kysely<Database>): void {
    const uncommitted = this.#uncommitted.get(db);
    if (uncommitted) uncommitted.add(userId);
    else for (const listener of this.#listeners) listener(userId);
  }

  /** Runs on every request with a session (sessions/load-user.ts), hence prepared. */
  async findById(id: number, db?: Kysely<Database>): Promise<User | undefined> {
    if (db) return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
    return (await this.#findById([id]))[0];
  }

  /** Case-insensitive, like the unique index on lower(username). */
  findByUsername(username: string): Promise<User | undefined> {
    return this.#db
      .selectFrom('users')
      .selectAll()
      .where(sql<string>`lower(username)`, '=', username.toLowerCase())
      .executeTakeFirst();
  }

  async list(filter: UserListFilter): Promise<{ rows: User[]; total: number }> {
    let query = this.#db.selectFrom('users');
    if (filter.q) query = query.where(containsIgnoreCase('username', filter.q));
    if (filter.role) query = query.where('role', '=', filter.role);
    const [rows, count] = await Promise.all([
      query.selectAll().orderBy('id').limit(filter.limit).offset(filter.offset).execute(),
      query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.n) };
  }

  count(db: Kysely<Database> = this.#db): Promise<number> {
    return db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow()
      .then((row) => Number(row.n));
  }

  async create(user: NewUser, db: Kysely<Database> = this.#db): Promise<User> {
    return db.insertInto('users').values(user).returningAll().executeTakeFirstOrThrow();
  }

  async update(
    id: number,
    patch: UserUpdate,
    db: Kysely<Database> = this.#db,
  ): Promise<User | undefined> {
    const user = await db
      .updateTable('users')
      .set({ ...patch, updated_at: nowIso() })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    if (user) this.#changed(id, db);
    return user;
  }

  async delete(id: number, db: Kysely<Database> = this.#db): Promise<boolean> {
    const result = await db.deleteFrom('users').where('id', '=', id).executeTakeFirst();
    const deleted = Number(result.numDeletedRows) > 0;
    if (deleted) this.#changed(id, db);
    return deleted;
  }

  /**
   * Replaces the password hash only while it is still `from`: a re-hash at login never undoes
   * a password change made meanwhile. Returns whether it replaced it.
   */
  async replacePasswordHash(id: number, from: string, to: string): Promise<boolean> {
    const result = await this.#db
      .updateTable('users')
      .set({ password_hash: to, updated_at: nowIso() })
      .where('id', '=', id)
      .where('password_hash', '=', from)
      .executeTakeFirst();
    const replaced = Number(result.numUpdatedRows) > 0;
    if (replaced) this.#changed(id, this.#db);
    return replaced;
  }

  async recordLogin(id: number): Promise<void> {
    await this.#db
      .updateTable('users')
      .set({ last_login_at: nowIso() })
      .where('id', '=', id)
      .execute();
    this.#changed(id, this.#db);
  }

  /** Enabled admins other than `exceptId`. */
  async countActiveAdmins(db: Kysely<Database>, exceptId?: number): Promise<number> {
    let query = db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('role', '=', 'admin')
      .where('disabled', '=', 0);
    if (exceptId !== undefined) query = query.where('id', '<>', exceptId);
    const row = await query.executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /**
   * Runs `work` in a transaction that no other "who are the admins" decision overlaps: the
   * first registration (which becomes admin) and the last-admin rule must not race. SQLite
   * runs one write transaction at a time anyway; PostgreSQL gets a transaction-level lock.
   */
  async withAdminLock<T>(work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
    // Announcing inside the transaction would let a reader cache the old row again before
    // the commit; a rolled-back transaction changed nothing to announce.
    const changed = new Set<number>();
    const result = await this.#db.transaction().execute(async (trx) => {
      this.#uncommitted.set(trx, changed);
      if (this.#handle.dialect === 'postgres') {
        await sql`select pg_advisory_xact_lock(${ADMIN_LOCK_KEY})`.execute(trx);
      }
      return work(trx);
    });
    for (const userId of changed) this.#changed(userId, this.#db);
    return result;
  }
}
