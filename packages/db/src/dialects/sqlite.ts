import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync, type SQLInputValue, type StatementSync } from 'node:sqlite';
import { type SqliteDatabase, SqliteDialect, type SqliteStatement } from 'kysely';

export interface SqliteOptions {
  /** How long a write waits for another connection's lock before failing (ms). */
  readonly busyTimeoutMs?: number;
}

const DEFAULT_BUSY_TIMEOUT_MS = 5_000;
// Kysely prepares every query it runs; reusing statements saves the parse on hot paths
// such as batch inserts during a library scan.
const STATEMENT_CACHE_SIZE = 100;

/**
 * Kysely's `SqliteDatabase` (the better-sqlite3 shape) backed by Node's built-in
 * `node:sqlite`, so SQLite needs no native addon.
 */
export class NodeSqliteDatabase implements SqliteDatabase {
  readonly filename: string;
  readonly #db: DatabaseSync;
  readonly #statements = new Map<string, NodeSqliteStatement>();

  constructor(filename: string, options: SqliteOptions = {}) {
    this.filename = filename;
    const memory = filename === ':memory:';
    if (!memory) mkdirSync(dirname(filename), { recursive: true });
    const busyTimeoutMs = options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS;
    this.#db = new DatabaseSync(filename, {
      enableForeignKeyConstraints: true,
      timeout: busyTimeoutMs,
    });
    try {
      // WAL lets readers (another process, a backup) work while we write; NORMAL sync is
      // safe with WAL (a crash may lose the last commits, never corrupt the file).
      if (!memory) this.#db.exec('pragma journal_mode = wal; pragma synchronous = normal');
      this.#db.exec(`pragma foreign_keys = on; pragma busy_timeout = ${busyTimeoutMs}`);
    } catch (err) {
      this.#db.close();
      throw err;
    }
  }

  get isOpen(): boolean {
    return this.#db.isOpen;
  }

  prepare(sql: string): SqliteStatement {
    let statement = this.#statements.get(sql);
    if (statement === undefined) {
      statement = new NodeSqliteStatement(this.#db.prepare(sql));
      if (this.#statements.size >= STATEMENT_CACHE_SIZE) {
        const oldest = this.#statements.keys().next().value;
        if (oldest !== undefined) this.#statements.delete(oldest);
      }
    } else {
      // Map keeps insertion order: re-inserting marks the entry as recently used.
      this.#statements.delete(sql);
    }
    this.#statements.set(sql, statement);
    return statement;
  }

  /** Idempotent. */
  close(): void {
    this.#statements.clear();
    if (this.#db.isOpen) this.#db.close();
  }
}

class NodeSqliteStatement implements SqliteStatement {
  readonly reader: boolean;
  readonly #statement: StatementSync;

  constructor(statement: StatementSync) {
    this.#statement = statement;
    // Anything that returns columns (select, pragma, insert … returning) is read with all().
    // Asked once per statement: columns() builds a description of every column each time.
    this.reader = statement.columns().length > 0;
  }

  all(parameters: ReadonlyArray<unknown>): unknown[] {
    // node:sqlite rows have a null prototype; plain objects match what pg returns.
    return this.#statement.all(...toSqlite(parameters)).map((row) => ({ ...row }));
  }

  run(parameters: ReadonlyArray<unknown>): {
    changes: number | bigint;
    lastInsertRowid: number | bigint;
  } {
    const { changes, lastInsertRowid } = this.#statement.run(...toSqlite(parameters));
    return { changes, lastInsertRowid };
  }

  *iterate(parameters: ReadonlyArray<unknown>): IterableIterator<unknown> {
    for (const row of this.#statement.iterate(...toSqlite(parameters))) {
      yield { ...row };
    }
  }
}

/**
 * node:sqlite binds only null, numbers, bigints, strings and bytes. Booleans become 0/1 and
 * dates ISO-8601 text, the representations the schema uses (see schema.ts).
 */
function toSqlite(parameters: ReadonlyArray<unknown>): SQLInputValue[] {
  return parameters.map((value): SQLInputValue => {
    if (value === undefined) return null;
    if (typeof value === 'boolean') return value ? 1 : 0;
    if (value instanceof Date) return value.toISOString();
    return value as SQLInputValue;
  });
}

export function createSqliteDialect(
  filename: string,
  options?: SqliteOptions,
): { dialect: SqliteDialect; database: NodeSqliteDatabase } {
  const database = new NodeSqliteDatabase(filename, options);
  return { dialect: new SqliteDialect({ database }), database };
}
