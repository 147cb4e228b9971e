import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time, not typed by the schema.
export async function up(db: Kysely<any>): Promise<void> {
  // Each play's audience, counted by the audience rollup once the hours the play spans are
  // summed: a month's play log reads these instead of every session of the month, and the
  // counts outlive the sessions (LISTENER_RETENTION_DAYS), as royalty reports need. A play's
  // id, not a key: play_history belongs to the scheduler.
  await db.schema
    .createTable('play_listeners')
    .addColumn('play_id', 'bigint', (c) => c.primaryKey())
    .addColumn('listeners_at_start', 'integer', (c) => c.notNull())
    .addColumn('listeners_at_end', 'integer', (c) => c.notNull())
    .addColumn('left_during', 'integer', (c) => c.notNull())
    .addColumn('listeners', 'integer', (c) => c.notNull())
    .execute();
  // The rollup finds the plays that ended in the hours it sums.
  await db.schema
    .createIndex('play_history_ended_at_idx')
    .on('play_history')
    .column('ended_at')
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('play_history_ended_at_idx').execute();
  await db.schema.dropTable('play_listeners').execute();
}
