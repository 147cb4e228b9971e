import { type Kysely, PostgresAdapter, sql } from 'kysely';
import { type MigrationResultSet, Migrator, NO_MIGRATIONS } from 'kysely/migration';
import { MigrationError } from './errors.ts';
import { migrations } from './migrations/index.ts';

export interface MigrateResult {
  /** Names of the migrations this call ran, in order; empty when already up to date. */
  readonly applied: string[];
}

// biome-ignore lint/suspicious/noExplicitAny: the migrator works below the typed schema.
type AnyDb = Kysely<any>;

async function createMigrator(db: AnyDb): Promise<Migrator> {
  let migrationTableSchema: string | undefined;
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    // Kysely looks for its bookkeeping table in every schema unless told which one, so a
    // second station (or test run) sharing the database would see the first one's table.
    const { rows } = await sql<{ name: string | null }>`select current_schema() as name`.execute(
      db,
    );
    const name = rows[0]?.name ?? null;
    if (name === null) {
      throw new MigrationError(null, new Error('no schema of the search_path exists'));
    }
    migrationTableSchema = name;
  }
  return new Migrator({
    db,
    provider: { getMigrations: async () => ({ ...migrations }) },
    migrationTableSchema,
  });
}

function unwrap(
  { error, results = [] }: MigrationResultSet,
  direction: 'Up' | 'Down',
): MigrateResult {
  if (error !== undefined) {
    const failed = results.find((result) => result.status === 'Error');
    throw new MigrationError(failed?.migrationName ?? null, error);
  }
  return {
    applied: results
      .filter((result) => result.status === 'Success' && result.direction === direction)
      .map((result) => result.migrationName),
  };
}

/**
 * Brings the schema up to date. Safe to run on every start and from several processes at
 * once: Kysely's migrator holds a lock (an advisory lock on PostgreSQL; SQLite has a single
 * connection) and skips what already ran. On PostgreSQL the pending migrations run in one
 * transaction, so a failure leaves the schema as it was. Throws MigrationError (code
 * `DB_MIGRATION_FAILED`) naming the migration that failed.
 */
export async function migrateToLatest(db: AnyDb): Promise<MigrateResult> {
  const migrator = await createMigrator(db);
  return unwrap(await migrator.migrateToLatest(), 'Up');
}

/** Reverts every migration (drops every table). For tests and tools, never for a running station. */
export async function migrateDownAll(db: AnyDb): Promise<MigrateResult> {
  const migrator = await createMigrator(db);
  return unwrap(await migrator.migrateTo(NO_MIGRATIONS), 'Down');
}
