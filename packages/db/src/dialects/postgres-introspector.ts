import {
  type DatabaseIntrospector,
  type DatabaseMetadataOptions,
  type Kysely,
  PostgresIntrospector,
  type SchemaMetadata,
  sql,
  type TableMetadata,
} from 'kysely';
import { DEFAULT_MIGRATION_LOCK_TABLE, DEFAULT_MIGRATION_TABLE } from 'kysely/migration';

interface ColumnRow {
  table: string;
  kind: string;
  schema: string;
  column: string;
  not_null: boolean;
  has_default: boolean;
  auto_incrementing: boolean;
  type: string;
  type_schema: string;
  comment: string | null;
}

/**
 * Kysely's PostgreSQL introspector, limited to the current schema (the `?schema=` of
 * DATABASE_URL, else the first of the search_path, usually `public`).
 *
 * Kysely's own one reads every schema and resolves each by name
 * (`has_schema_privilege(nspname, …)`), so when another station or test run drops its schema
 * at the same moment, the query fails with "schema … does not exist". The migrator
 * introspects on every run, which made migrations fail at random in a shared database. This
 * one reads only objects of our schema and resolves nothing by name.
 */
export class SchemaScopedPostgresIntrospector implements DatabaseIntrospector {
  // biome-ignore lint/suspicious/noExplicitAny: the catalog tables are not in our schema type.
  readonly #db: Kysely<any>;
  readonly #base: PostgresIntrospector;

  // biome-ignore lint/suspicious/noExplicitAny: see #db.
  constructor(db: Kysely<any>) {
    this.#db = db;
    this.#base = new PostgresIntrospector(db);
  }

  getSchemas(): Promise<SchemaMetadata[]> {
    return this.#base.getSchemas();
  }

  async getTables(
    options: DatabaseMetadataOptions = { withInternalKyselyTables: false },
  ): Promise<TableMetadata[]> {
    const internal = options.withInternalKyselyTables
      ? sql``
      : sql`and c.relname not in (${DEFAULT_MIGRATION_TABLE}, ${DEFAULT_MIGRATION_LOCK_TABLE})`;
    const { rows } = await sql<ColumnRow>`
      select c.relname as "table", c.relkind as kind, ns.nspname as "schema",
        a.attname as "column", a.attnotnull as not_null, a.atthasdef as has_default,
        (a.attidentity <> '' or coalesce(pg_get_expr(d.adbin, d.adrelid), '') like 'nextval(%')
          as auto_incrementing,
        typ.typname as "type", tns.nspname as type_schema,
        col_description(a.attrelid, a.attnum) as "comment"
      from pg_catalog.pg_class c
      join pg_catalog.pg_namespace ns on ns.oid = c.relnamespace
      join pg_catalog.pg_attribute a on a.attrelid = c.oid
      join pg_catalog.pg_type typ on typ.oid = a.atttypid
      join pg_catalog.pg_namespace tns on tns.oid = typ.typnamespace
      left join pg_catalog.pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
      where ns.nspname = current_schema()
        and c.relkind in ('r', 'v', 'p', 'f')
        and a.attnum > 0
        and not a.attisdropped
        ${internal}
      order by c.relname, a.attnum`.execute(this.#db);

    const tables = new Map<string, TableMetadata>();
    for (const row of rows) {
      let table = tables.get(row.table);
      if (table === undefined) {
        table = {
          name: row.table,
          schema: row.schema,
          isView: row.kind === 'v',
          isForeign: row.kind === 'f',
          columns: [],
        };
        tables.set(row.table, table);
      }
      table.columns.push({
        name: row.column,
        dataType: row.type,
        dataTypeSchema: row.type_schema,
        isAutoIncrementing: row.auto_incrementing,
        isNullable: !row.not_null,
        hasDefaultValue: row.has_default,
        comment: row.comment ?? undefined,
      });
    }
    return [...tables.values()];
  }
}
