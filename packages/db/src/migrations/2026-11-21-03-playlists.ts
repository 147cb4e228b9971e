import type { Kysely } from 'kysely';
import { flag, idColumn, timestampNow } from './portable.ts';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time, not typed by the schema.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('playlists')
    .addColumn('id', 'integer', idColumn(db))
    .addColumn('owner_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('is_public', 'integer', flag('is_public', 0))
    .addColumn('created_at', 'text', timestampNow(db))
    .addColumn('updated_at', 'text', timestampNow(db))
    .execute();
  await db.schema
    .createIndex('playlists_owner_id_idx')
    .on('playlists')
    .column('owner_id')
    .execute();

  await db.schema
    .createTable('playlist_items')
    .addColumn('id', 'integer', idColumn(db))
    .addColumn('playlist_id', 'integer', (c) =>
      c.notNull().references('playlists.id').onDelete('cascade'),
    )
    .addColumn('track_id', 'integer', (c) =>
      c.notNull().references('tracks.id').onDelete('cascade'),
    )
    // Not unique per playlist: a reorder rewrites positions row by row, and a unique
    // constraint would reject the intermediate states.
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('added_at', 'text', timestampNow(db))
    .execute();
  await db.schema
    .createIndex('playlist_items_playlist_position_idx')
    .on('playlist_items')
    .columns(['playlist_id', 'position'])
    .execute();
  // Deleting a track cascades here; without an index each delete scans every item.
  await db.schema
    .createIndex('playlist_items_track_id_idx')
    .on('playlist_items')
    .column('track_id')
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('playlist_items').execute();
  await db.schema.dropTable('playlists').execute();
}
