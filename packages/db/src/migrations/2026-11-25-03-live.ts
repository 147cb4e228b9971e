import { type Kysely, sql } from 'kysely';
import { flag, idColumn, timestampNow } from './portable.ts';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time, not typed by the schema.
export async function up(db: Kysely<any>): Promise<void> {
  // A DJ's broadcast credentials: separate from the login password, so a source client's
  // stored password never opens the web app.
  await db.schema
    .createTable('dj_accounts')
    .addColumn('user_id', 'integer', (c) =>
      c.primaryKey().notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('broadcast_username', 'text', (c) =>
      c.notNull().check(sql`broadcast_username = lower(broadcast_username)`),
    )
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('display_name', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', flag('enabled', 1))
    .addColumn('record_shows', 'integer', flag('record_shows', 0))
    .addColumn('created_at', 'text', timestampNow(db))
    .addColumn('updated_at', 'text', timestampNow(db))
    .execute();
  await db.schema
    .createIndex('dj_accounts_broadcast_username_key')
    .on('dj_accounts')
    .column('broadcast_username')
    .unique()
    .execute();

  // One-time tokens for the browser's go-live WebSocket; only a hash is stored.
  await db.schema
    .createTable('live_tokens')
    .addColumn('token_hash', 'text', (c) => c.primaryKey().notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used', 'integer', flag('used', 0))
    .addColumn('created_at', 'text', timestampNow(db))
    .execute();

  await db.schema
    .createTable('live_shows')
    .addColumn('id', 'integer', idColumn(db))
    // Kept after the account is gone: the show and its recording still belong to the station.
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('dj_name', 'text', (c) => c.notNull())
    .addColumn('started_at', 'text', timestampNow(db))
    .addColumn('ended_at', 'text')
    .addColumn('peak_listeners', 'integer', (c) => c.notNull().defaultTo(0))
    // Relative to DATA_DIR/recordings; null when the show was not recorded.
    .addColumn('recording_file', 'text')
    .addColumn('recording_bytes', 'bigint')
    .addColumn('recording_error', 'text')
    .execute();
  // The recordings page's question: the latest shows first.
  await db.schema
    .createIndex('live_shows_started_at_idx')
    .on('live_shows')
    .column('started_at')
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('live_shows').execute();
  await db.schema.dropTable('live_tokens').execute();
  await db.schema.dropTable('dj_accounts').execute();
}
