import {
  type DatabaseIntrospector,
  type Dialect,
  type DialectAdapter,
  type Driver,
  type Kysely,
  PostgresDialect,
  type QueryCompiler,
} from 'kysely';
import { Pool, type PoolClient, types as pgTypes } from 'pg';
import { isUniqueViolation } from '../errors.ts';
import { SchemaScopedPostgresIntrospector } from './postgres-introspector.ts';

export interface PostgresOptions {
  /** From `?schema=`; null keeps the server's default search_path. */
  readonly schema: string | null;
  /**
   * Called with connection errors that happen outside a query (the server restarted, the
   * network dropped). The pool discards the broken connection and opens a new one on the
   * next query; without a listener, pg would crash the process with these.
   */
  readonly onError?: (err: Error) => void;
  /** Connections kept open at most. */
  readonly maxConnections?: number;
}

const INT8_OID = 20;
const PG_DUPLICATE_SCHEMA = '42P06';

// count(*), sum() and our bigint columns (epoch ms, byte sizes) come back as numbers, as they
// do from SQLite. pg returns int8 as text by default because 2^63 does not fit a double; our
// values stay far below 2^53.
const typeParsers = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
    if (oid === INT8_OID && format !== 'binary') return (value: string) => Number(value);
    return pgTypes.getTypeParser(oid, format);
  }) as typeof pgTypes.getTypeParser,
};

export function createPostgresDialect(
  connectionString: string,
  options: PostgresOptions,
): { dialect: Dialect; pool: Pool } {
  const { schema, onError = () => {} } = options;
  let schemaReady = schema === null;

  const pool = new Pool({
    connectionString,
    max: options.maxConnections ?? 10,
    types: typeParsers,
    // Without a limit a query waits forever while the server is down; fail it instead so
    // health checks and requests answer.
    connectionTimeoutMillis: 10_000,
    idleTimeoutMillis: 30_000,
    // pg-pool awaits this before handing out a new connection; if it throws, the connection
    // is closed and the query fails, so nothing leaks.
    onConnect: async (client) => {
      if (schema === null) return;
      if (!schemaReady) {
        await ensureSchema(client as PoolClient, schema);
        schemaReady = true;
      }
      // Only our schema: a table missing here must fail, not be found in `public`.
      await client.query(`set search_path to "${schema}"`);
    },
  });

  // Errors of idle connections: pg-pool drops the connection and emits them here.
  pool.on('error', (err) => onError(err));
  // pg-pool listens only on idle connections. A connection checked out between two queries
  // (inside a transaction) that loses its server would emit an unhandled 'error' and end the
  // process; the query that follows fails on its own, and the pool discards it on release.
  const checkedOut = new WeakSet<object>();
  pool.on('acquire', (client) => checkedOut.add(client));
  pool.on('release', (_err, client) => checkedOut.delete(client));
  pool.on('connect', (client) => {
    client.on('error', (err) => {
      if (checkedOut.has(client)) onError(err);
    });
  });

  return { dialect: new SchemaScopedPostgresDialect(new PostgresDialect({ pool })), pool };
}

/** Kysely's PostgresDialect with introspection limited to our schema (see the introspector). */
class SchemaScopedPostgresDialect implements Dialect {
  readonly #base: PostgresDialect;

  constructor(base: PostgresDialect) {
    this.#base = base;
  }

  createDriver(): Driver {
    return this.#base.createDriver();
  }

  createQueryCompiler(): QueryCompiler {
    return this.#base.createQueryCompiler();
  }

  createAdapter(): DialectAdapter {
    return this.#base.createAdapter();
  }

  // biome-ignore lint/suspicious/noExplicitAny: the Dialect interface takes Kysely<any>.
  createIntrospector(db: Kysely<any>): DatabaseIntrospector {
    return new SchemaScopedPostgresIntrospector(db);
  }
}

async function ensureSchema(client: PoolClient, schema: string): Promise<void> {
  // Look first: `create schema if not exists` needs the CREATE privilege even when the
  // schema exists, and a station may run with a role that only owns its schema.
  const found = await client.query('select 1 from pg_namespace where nspname = $1', [schema]);
  if (found.rowCount !== 0) return;
  try {
    await client.query(`create schema if not exists "${schema}"`);
  } catch (err) {
    // Two connections creating it at once: the loser gets a duplicate error.
    const code = (err as { code?: unknown }).code;
    if (!isUniqueViolation(err) && code !== PG_DUPLICATE_SCHEMA) throw err;
  }
}
