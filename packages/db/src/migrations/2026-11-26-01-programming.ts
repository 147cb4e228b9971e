import { type ColumnDefinitionBuilder, type Kysely, sql } from 'kysely';
import { flag, idColumn, oneOf, timestampNow } from './portable.ts';

const KINDS = ['rotation', 'every_n_songs', 'every_n_minutes', 'hourly_at', 'once_at'];
const ORDERS = ['shuffle', 'random', 'sequential'];
const START_MODES = ['after_track', 'interrupt'];
const REQUEST_STATUSES = ['pending', 'played', 'removed'];

type ColumnType = 'integer' | 'text';
type Build = (column: ColumnDefinitionBuilder) => ColumnDefinitionBuilder;

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time, not typed by the schema.
export async function up(db: Kysely<any>): Promise<void> {
  await addPlaylistProgramming(db);
  await createSchedules(db);
  await createSongRequests(db);
  await addHistoryColumns(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
async function addPlaylistProgramming(db: Kysely<any>): Promise<void> {
  // How a playlist takes part in programming. `on_air` 0 keeps a personal playlist out of it.
  const playlistColumns: [string, ColumnType, Build][] = [
    ['on_air', 'integer', flag('on_air', 0)],
    ['kind', 'text', (c) => oneOf('kind', KINDS)(c).defaultTo('rotation')],
    ['play_order', 'text', (c) => oneOf('play_order', ORDERS)(c).defaultTo('shuffle')],
    ['weight', 'integer', (c) => c.notNull().defaultTo(1).check(sql`weight between 1 and 100`)],
    ['jingle', 'integer', flag('jingle', 0)],
    // N songs, N minutes, or the minute of the hour, by kind; null for rotation and once_at.
    ['interval', 'integer', (c) => c],
    // once_at: the one time it plays (ISO-8601 UTC).
    ['play_at', 'text', (c) => c],
    // hourly_at and once_at: wait for the track in progress, or fade it out at the minute.
    ['start_mode', 'text', (c) => oneOf('start_mode', START_MODES)(c).defaultTo('after_track')],
    // Where its order stands, kept across restarts: the index into the round, and the round.
    ['cursor', 'integer', (c) => c.notNull().defaultTo(0)],
    ['cycle', 'integer', (c) => c.notNull().defaultTo(0)],
  ];
  for (const [name, type, build] of playlistColumns) {
    await db.schema.alterTable('playlists').addColumn(name, type, build).execute();
  }
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
async function createSchedules(db: Kysely<any>): Promise<void> {
  // One entry of the station's week: a playlist or a DJ's show slot, in STATION_TIMEZONE.
  await db.schema
    .createTable('schedules')
    .addColumn('id', 'integer', idColumn(db))
    .addColumn('playlist_id', 'integer', (c) => c.references('playlists.id').onDelete('cascade'))
    .addColumn('dj_user_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('title', 'text')
    // Bit 0 Monday … bit 6 Sunday: the days a span starts on.
    .addColumn('days', 'integer', (c) => c.notNull().check(sql`days between 1 and 127`))
    // HH:MM local time; an end before the start crosses midnight.
    .addColumn('start_time', 'text', (c) => c.notNull())
    .addColumn('end_time', 'text', (c) => c.notNull())
    // YYYY-MM-DD, inclusive, of the day a span starts; null: open.
    .addColumn('start_date', 'text')
    .addColumn('end_date', 'text')
    .addColumn('priority', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('start_mode', 'text', (c) =>
      oneOf('start_mode', START_MODES)(c).defaultTo('after_track'),
    )
    .addColumn('created_at', 'text', timestampNow(db))
    .addColumn('updated_at', 'text', timestampNow(db))
    .addCheckConstraint(
      'schedules_target_check',
      sql`(playlist_id is null) <> (dj_user_id is null)`,
    )
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
async function createSongRequests(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('song_requests')
    .addColumn('id', 'integer', idColumn(db))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('track_id', 'integer', (c) =>
      c.notNull().references('tracks.id').onDelete('cascade'),
    )
    .addColumn('status', 'text', (c) => oneOf('status', REQUEST_STATUSES)(c).defaultTo('pending'))
    .addColumn('requested_at', 'text', timestampNow(db))
    // The earliest it may play: requested_at plus the station's minimum delay.
    .addColumn('not_before', 'text', (c) => c.notNull())
    // Where the scheduler's plan has it now; null until planned.
    .addColumn('planned_at', 'text')
    .addColumn('played_at', 'text')
    // Why it was removed (an admin, the track deleted).
    .addColumn('reason', 'text')
    .execute();
  await db.schema
    .createIndex('song_requests_status_idx')
    .on('song_requests')
    .columns(['status', 'not_before'])
    .execute();
  await db.schema
    .createIndex('song_requests_user_idx')
    .on('song_requests')
    .columns(['user_id', 'requested_at'])
    .execute();
  await db.schema
    .createIndex('song_requests_track_idx')
    .on('song_requests')
    .columns(['track_id', 'requested_at'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
async function addHistoryColumns(db: Kysely<any>): Promise<void> {
  // What the history needs to tell a jingle from music and a scheduled play from rotation.
  // Plain ids, no foreign keys: SQLite cannot drop a referencing column in down(), and the
  // history keeps what played after its playlist or request is gone.
  const historyColumns: [string, Build][] = [
    ['playlist_id', (c) => c],
    ['jingle', flag('jingle', 0)],
    ['song_request_id', (c) => c],
  ];
  for (const [name, build] of historyColumns) {
    await db.schema.alterTable('play_history').addColumn(name, 'integer', build).execute();
  }
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  for (const column of ['song_request_id', 'jingle', 'playlist_id']) {
    await db.schema.alterTable('play_history').dropColumn(column).execute();
  }
  await db.schema.dropTable('song_requests').execute();
  await db.schema.dropTable('schedules').execute();
  for (const column of [
    'cycle',
    'cursor',
    'start_mode',
    'play_at',
    'interval',
    'jingle',
    'weight',
    'play_order',
    'kind',
    'on_air',
  ]) {
    await db.schema.alterTable('playlists').dropColumn(column).execute();
  }
}
