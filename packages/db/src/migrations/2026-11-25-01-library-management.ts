import type { Kysely } from 'kysely';
import { idColumn, timestampNow } from './portable.ts';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time, not typed by the schema.
export async function up(db: Kysely<any>): Promise<void> {
  // A hash of the audio packets alone (tags excluded), so an upload of a file already in the
  // library is found however its tags differ; filled in when first needed.
  await db.schema.alterTable('tracks').addColumn('audio_hash', 'text').execute();
  await db.schema.createIndex('tracks_audio_hash_idx').on('tracks').column('audio_hash').execute();

  // Files deleted from the library wait under DATA_DIR/trash until restored or expired.
  await db.schema
    .createTable('trash')
    .addColumn('id', 'integer', idColumn(db))
    // Kept so a restore brings the same track row (and its analysis) back.
    .addColumn('track_id', 'integer', (c) => c.references('tracks.id').onDelete('set null'))
    .addColumn('original_path', 'text', (c) => c.notNull())
    .addColumn('stored_name', 'text', (c) => c.notNull().unique())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('artist', 'text')
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('deleted_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('deleted_at', 'text', timestampNow(db))
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('trash_expires_at_idx').on('trash').column('expires_at').execute();

  // Who changed the library (and later, other admin actions), kept with the user's name so
  // the entry still reads right after the account is gone.
  await db.schema
    .createTable('audit_log')
    .addColumn('id', 'integer', idColumn(db))
    .addColumn('at', 'text', timestampNow(db))
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('username', 'text')
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('target', 'text')
    .addColumn('details', 'text')
    .execute();
  await db.schema.createIndex('audit_log_at_idx').on('audit_log').column('at').execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('audit_log').execute();
  await db.schema.dropTable('trash').execute();
  await db.schema.dropIndex('tracks_audio_hash_idx').execute();
  await db.schema.alterTable('tracks').dropColumn('audio_hash').execute();
}
