import {
  type ColumnDefinitionBuilder,
  type Kysely,
  PostgresAdapter,
  type RawBuilder,
  sql,
} from 'kysely';

/*
 * Column definitions shared by the migrations, spelled so that SQLite and PostgreSQL end up
 * with the same behaviour. Migrations are frozen once released, so what these helpers emit
 * must never change: a database migrated last year and one migrated today have to match.
 * Add a new helper instead of editing one.
 */

// biome-ignore lint/suspicious/noExplicitAny: migrations take Kysely<any> (frozen in time).
type AnyDb = Kysely<any>;
type ColumnBuild = (column: ColumnDefinitionBuilder) => ColumnDefinitionBuilder;

export function isPostgres(db: AnyDb): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** An integer primary key the database assigns and never reuses after a delete. */
export function idColumn(db: AnyDb): ColumnBuild {
  return isPostgres(db)
    ? (column) => column.primaryKey().generatedByDefaultAsIdentity()
    : // Exactly `integer primary key` makes it SQLite's rowid; AUTOINCREMENT stops reuse.
      (column) => column.primaryKey().autoIncrement();
}

/**
 * The current time as ISO-8601 UTC text with milliseconds, the same string
 * `Date.prototype.toISOString()` makes, as a column default.
 */
export function isoNowDefault(db: AnyDb): RawBuilder<string> {
  return isPostgres(db)
    ? sql<string>`(to_char(now() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))`
    : sql<string>`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`;
}

/** A not-null timestamp column that defaults to now. */
export function timestampNow(db: AnyDb): ColumnBuild {
  return (column) => column.notNull().defaultTo(isoNowDefault(db));
}

/** A boolean as integer 0/1, not null, with a default. */
export function flag(name: string, defaultValue: 0 | 1): ColumnBuild {
  return (column) =>
    column
      .notNull()
      .defaultTo(defaultValue)
      .check(sql`${sql.ref(name)} in (0, 1)`);
}

/** A not-null text column limited to `values`. */
export function oneOf(name: string, values: readonly string[]): ColumnBuild {
  const list = sql.join(values.map((value) => sql.lit(value)));
  return (column) => column.notNull().check(sql`${sql.ref(name)} in (${list})`);
}
