import { type Kysely, sql } from 'kysely';
import { flag, idColumn, oneOf, timestampNow } from './portable.ts';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time, not typed by the schema.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('id', 'integer', idColumn(db))
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('role', 'text', oneOf('role', ['admin', 'dj', 'listener']))
    .addColumn('disabled', 'integer', flag('disabled', 0))
    .addColumn('created_at', 'text', timestampNow(db))
    .addColumn('updated_at', 'text', timestampNow(db))
    .addColumn('last_login_at', 'text')
    .execute();

  // "Alice" and "alice" are the same account. SQLite's lower() folds ASCII only, so user
  // names beyond ASCII compare case-sensitively there; the api restricts the characters.
  await db.schema
    .createIndex('users_username_lower_key')
    .on('users')
    .unique()
    .expression(sql`lower(username)`)
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('users').execute();
}
