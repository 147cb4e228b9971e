import type { Kysely } from 'kysely';
import { isPostgres, oneOf } from './portable.ts';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time, not typed by the schema.
export async function up(db: Kysely<any>): Promise<void> {
  // What the reports need of an hour to give over summed hours what the sessions give:
  // sessions under way at some time in the hour (the series, and a period's sessions are
  // those of its first hour plus those started after), the quarter hours a session listened
  // 5 minutes or more in (AQH), and the sessions' whole lengths (average session length).
  const columns = ['present', 'quarter_listeners', 'started_duration_ms', 'present_duration_ms'];
  for (const column of columns) {
    await db.schema
      .alterTable('listener_hourly')
      .addColumn(column, 'bigint', (c) => c.notNull().defaultTo(0))
      .execute();
  }
  // Unique listeners cannot be added up: a HyperLogLog sketch of the listeners of each hour
  // and day (UTC) per mount, country ('' unknown) and client family, like listener_hourly,
  // merges into any longer period under any filter or grouping. Most are small and stored
  // sparse (see the api's hyperloglog.ts).
  await db.schema
    .createTable('listener_sketches')
    .addColumn('span', 'text', oneOf('span', ['hour', 'day']))
    .addColumn('start_ms', 'bigint', (c) => c.notNull())
    .addColumn('mount', 'text', (c) => c.notNull())
    .addColumn('country', 'text', (c) => c.notNull())
    .addColumn('client', 'text', (c) => c.notNull())
    .addColumn('sketch', isPostgres(db) ? 'bytea' : 'blob', (c) => c.notNull())
    .addPrimaryKeyConstraint('listener_sketches_pk', [
      'span',
      'start_ms',
      'mount',
      'country',
      'client',
    ])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('listener_sketches').execute();
  for (const column of [
    'present_duration_ms',
    'started_duration_ms',
    'quarter_listeners',
    'present',
  ]) {
    await db.schema.alterTable('listener_hourly').dropColumn(column).execute();
  }
}
