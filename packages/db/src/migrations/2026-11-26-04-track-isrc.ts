import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time, not typed by the schema.
export async function up(db: Kysely<any>): Promise<void> {
  // The recording's ISRC from its tags, for the play log royalty reports ask for.
  await db.schema.alterTable('tracks').addColumn('isrc', 'text').execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('tracks').dropColumn('isrc').execute();
}
