import type { Kysely } from 'kysely';
import { idColumn, oneOf } from './portable.ts';

const TRANSPORTS = ['icecast', 'hls'];
const CLIENTS = ['browser', 'app', 'player', 'bot', 'other'];

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time, not typed by the schema.
export async function up(db: Kysely<any>): Promise<void> {
  // One finished listener connection. Times are epoch milliseconds, not ISO text: the reports
  // bucket and subtract them on a million rows, the same way in both dialects.
  await db.schema
    .createTable('listener_sessions')
    .addColumn('id', 'integer', idColumn(db))
    // The stream server's id of the session: a batch sent twice is stored once.
    .addColumn('session_key', 'text', (c) => c.notNull().unique())
    .addColumn('mount', 'text', (c) => c.notNull())
    .addColumn('transport', 'text', oneOf('transport', TRANSPORTS))
    // The stream server node (an edge's name) that served it.
    .addColumn('node', 'text', (c) => c.notNull())
    .addColumn('started_ms', 'bigint', (c) => c.notNull())
    .addColumn('ended_ms', 'bigint', (c) => c.notNull())
    .addColumn('duration_ms', 'bigint', (c) => c.notNull())
    .addColumn('bytes', 'bigint', (c) => c.notNull())
    .addColumn('user_agent', 'text')
    .addColumn('client', 'text', oneOf('client', CLIENTS))
    // The browser, app or player by name (Chrome, VLC, iTunes …), when known.
    .addColumn('client_name', 'text')
    // ISO 3166-1 alpha-2, from the offline GeoLite2 database; null when unknown.
    .addColumn('country', 'text')
    // As LISTENER_PRIVACY says: salted hash, the address, or null.
    .addColumn('listener', 'text')
    .execute();
  await db.schema
    .createIndex('listener_sessions_started_idx')
    .on('listener_sessions')
    .column('started_ms')
    .execute();
  await db.schema
    .createIndex('listener_sessions_ended_idx')
    .on('listener_sessions')
    .column('ended_ms')
    .execute();
  // The longest session bounds how far before a period a session overlapping it can start.
  await db.schema
    .createIndex('listener_sessions_duration_idx')
    .on('listener_sessions')
    .column('duration_ms')
    .execute();

  // What the reports keep of sessions past LISTENER_RETENTION_DAYS: one row per hour, mount,
  // country and client family.
  await db.schema
    .createTable('listener_hourly')
    .addColumn('hour_ms', 'bigint', (c) => c.notNull())
    .addColumn('mount', 'text', (c) => c.notNull())
    // '' when unknown, so the primary key holds.
    .addColumn('country', 'text', (c) => c.notNull())
    .addColumn('client', 'text', (c) => c.notNull())
    .addColumn('sessions', 'integer', (c) => c.notNull())
    .addColumn('listening_ms', 'bigint', (c) => c.notNull())
    // The largest number of listeners connected at once in the hour.
    .addColumn('peak', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('listener_hourly_pk', ['hour_ms', 'mount', 'country', 'client'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('listener_hourly').execute();
  await db.schema.dropTable('listener_sessions').execute();
}
