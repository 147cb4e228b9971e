import { Kysely, sql } from 'kysely';
import { type DialectName, parseDatabaseUrl } from './database-url.ts';
import { createSqliteDialect } from './dialects/sqlite.ts';
import type { Database } from './schema.ts';

export type PingResult =
  | { readonly ok: true; readonly latencyMs: number }
  | { readonly ok: false; readonly latencyMs: number; readonly error: string };

export interface DbHandle {
  readonly db: Kysely<Database>;
  readonly dialect: DialectName;
  /** Where the data lives, safe to log: the SQLite file, or the PostgreSQL URL without password. */
  readonly target: string;
  /** A cheap `select 1`. Never rejects: a failure or a timeout resolves `{ ok: false }`. */
  ping(options?: { readonly timeoutMs?: number }): Promise<PingResult>;
  /** Closes the connection or pool. Idempotent; later calls wait for the first. */
  close(): Promise<void>;
}

export interface CreateDbOptions {
  /**
   * PostgreSQL connection errors that happen outside a query (the server restarted). They are
   * recoverable: the pool reconnects on the next query. Default: ignored.
   */
  readonly onError?: (err: Error) => void;
  /** Base directory of a relative `sqlite:` path. Default: the current directory. */
  readonly cwd?: string;
  /** SQLite: how long a write waits for a lock held by another connection (ms). */
  readonly busyTimeoutMs?: number;
  /** PostgreSQL: the pool size. */
  readonly maxConnections?: number;
}

const DEFAULT_PING_TIMEOUT_MS = 2_000;

/**
 * Opens the database named by DATABASE_URL: `sqlite:<file>`, `sqlite::memory:` or
 * `postgres://…[?schema=name]`. A malformed URL throws DatabaseUrlError (code
 * `DB_URL_INVALID`). SQLite opens the file at once (creating its folder); PostgreSQL connects
 * on the first query, so a server that is still starting does not fail this call.
 */
export async function createDb(
  databaseUrl: string,
  options: CreateDbOptions = {},
): Promise<DbHandle> {
  const target = parseDatabaseUrl(databaseUrl, options.cwd);

  if (target.dialect === 'sqlite') {
    const { dialect, database } = createSqliteDialect(target.filename, {
      busyTimeoutMs: options.busyTimeoutMs,
    });
    const db = new Kysely<Database>({ dialect });
    // Kysely closes the database only if it ever ran a query; close it ourselves otherwise.
    return createHandle(db, 'sqlite', target.filename, async () => database.close());
  }

  // Loaded only for PostgreSQL, so an embedded station on SQLite never loads pg.
  const { createPostgresDialect } = await import('./dialects/postgres.ts');
  const { dialect, pool } = createPostgresDialect(target.connectionString, {
    schema: target.schema,
    onError: options.onError,
    maxConnections: options.maxConnections,
  });
  const db = new Kysely<Database>({ dialect });
  const where =
    target.schema === null ? target.redacted : `${target.redacted} (schema ${target.schema})`;
  return createHandle(db, 'postgres', where, async () => {
    if (!pool.ended && !pool.ending) await pool.end();
  });
}

function createHandle(
  db: Kysely<Database>,
  dialect: DialectName,
  target: string,
  closeDriver: () => Promise<void>,
): DbHandle {
  let closing: Promise<void> | undefined;

  return {
    db,
    dialect,
    target,

    async ping({ timeoutMs = DEFAULT_PING_TIMEOUT_MS } = {}) {
      const started = performance.now();
      const elapsed = () => Math.round((performance.now() - started) * 100) / 100;
      if (closing !== undefined) return { ok: false, latencyMs: 0, error: 'database is closed' };
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
      });
      try {
        await Promise.race([sql`select 1`.execute(db), timeout]);
        return { ok: true, latencyMs: elapsed() };
      } catch (err) {
        return {
          ok: false,
          latencyMs: elapsed(),
          error: err instanceof Error ? err.message : String(err),
        };
      } finally {
        clearTimeout(timer);
      }
    },

    close() {
      closing ??= (async () => {
        try {
          await db.destroy();
        } finally {
          await closeDriver();
        }
      })();
      return closing;
    },
  };
}
