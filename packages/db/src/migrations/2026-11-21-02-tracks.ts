import type { Kysely } from 'kysely';
import { flag, idColumn, oneOf, timestampNow } from './portable.ts';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time, not typed by the schema.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('tracks')
    .addColumn('id', 'integer', idColumn(db))
    .addColumn('path', 'text', (c) => c.notNull().unique())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('artist', 'text')
    .addColumn('album', 'text')
    .addColumn('genre', 'text')
    .addColumn('year', 'integer')
    .addColumn('track_no', 'integer')
    .addColumn('duration', 'double precision')
    .addColumn('format', 'text', (c) => c.notNull())
    .addColumn('bitrate', 'integer')
    .addColumn('sample_rate', 'integer')
    .addColumn('channels', 'integer')
    .addColumn('has_cover', 'integer', flag('has_cover', 0))
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('mtime', 'bigint', (c) => c.notNull())
    .addColumn('status', 'text', (c) =>
      oneOf('status', ['ok', 'invalid', 'missing'])(c).defaultTo('ok'),
    )
    .addColumn('error', 'text')
    .addColumn('added_at', 'text', timestampNow(db))
    .addColumn('updated_at', 'text', timestampNow(db))
    .execute();

  // Sort and filter keys of the library views. Substring search (LIKE '%x%') scans anyway;
  // these serve "by artist / album" listings, the status filter and "recently added".
  const indexes: Array<[string, string[]]> = [
    ['tracks_artist_album_idx', ['artist', 'album', 'track_no']],
    ['tracks_album_idx', ['album', 'track_no']],
    ['tracks_genre_idx', ['genre']],
    ['tracks_title_idx', ['title']],
    ['tracks_status_idx', ['status']],
    ['tracks_added_at_idx', ['added_at']],
  ];
  for (const [name, columns] of indexes) {
    await db.schema.createIndex(name).on('tracks').columns(columns).execute();
  }
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('tracks').execute();
}
