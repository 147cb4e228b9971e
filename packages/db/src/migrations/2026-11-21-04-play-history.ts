import type { Kysely } from 'kysely';
import { idColumn, oneOf, timestampNow } from './portable.ts';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time, not typed by the schema.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('play_history')
    .addColumn('id', 'integer', idColumn(db))
    // Title and artist are copied, so the history still reads right after the track row
    // is deleted (and track_id becomes null).
    .addColumn('track_id', 'integer', (c) => c.references('tracks.id').onDelete('set null'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('artist', 'text')
    .addColumn('started_at', 'text', timestampNow(db))
    .addColumn('ended_at', 'text')
    .addColumn('source', 'text', oneOf('source', ['request', 'rotation', 'playlist', 'new']))
    .addColumn('request_id', 'text')
    .execute();
  await db.schema
    .createIndex('play_history_started_at_idx')
    .on('play_history')
    .column('started_at')
    .execute();
  await db.schema
    .createIndex('play_history_track_id_idx')
    .on('play_history')
    .column('track_id')
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('play_history').execute();
}
