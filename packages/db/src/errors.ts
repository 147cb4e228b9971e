import { RadioError } from '@radio/core';

/** Errors this package raises on purpose; `code` is what callers and tests compare. */
export class DbError extends RadioError {}

/** DATABASE_URL cannot be used. The message names the variable and the accepted forms. */
export class DatabaseUrlError extends DbError {
  readonly variable = 'DATABASE_URL';

  constructor(reason: string) {
    super(
      'DB_URL_INVALID',
      `DATABASE_URL is malformed: ${reason}. Expected sqlite:<file path> (relative or absolute), ` +
        'sqlite::memory:, or postgres://user:password@host:5432/database[?schema=name] ' +
        '(postgresql:// also accepted)',
    );
  }
}

/** A migration failed; `migrationName` is null when the failure came before any migration ran. */
export class MigrationError extends DbError {
  readonly migrationName: string | null;

  constructor(migrationName: string | null, cause: unknown) {
    const detail = cause instanceof Error ? cause.message : String(cause);
    super(
      'DB_MIGRATION_FAILED',
      migrationName === null
        ? `Database migration failed: ${detail}`
        : `Database migration "${migrationName}" failed: ${detail}`,
      { cause },
    );
    this.migrationName = migrationName;
  }
}

// SQLite extended result codes (https://sqlite.org/rescode.html) as node:sqlite reports them
// in `errcode`; PostgreSQL SQLSTATEs as pg reports them in `code`.
const SQLITE_CONSTRAINT_FOREIGNKEY = 787;
const SQLITE_CONSTRAINT_PRIMARYKEY = 1555;
const SQLITE_CONSTRAINT_UNIQUE = 2067;
const PG_UNIQUE_VIOLATION = '23505';
const PG_FOREIGN_KEY_VIOLATION = '23503';

function matches(err: unknown, sqliteCodes: readonly number[], pgCode: string): boolean {
  // Follow `cause` a few levels: callers may wrap the driver error before it reaches us.
  let current: unknown = err;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth++) {
    const { code, errcode } = current as { code?: unknown; errcode?: unknown };
    if (code === pgCode) return true;
    if (code === 'ERR_SQLITE_ERROR' && typeof errcode === 'number') {
      if (sqliteCodes.includes(errcode)) return true;
    }
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * True when `err` is a unique or primary-key violation, from either dialect: a duplicate
 * track path, a username that differs only in case, a second row with the same key.
 */
export function isUniqueViolation(err: unknown): boolean {
  return matches(
    err,
    [SQLITE_CONSTRAINT_UNIQUE, SQLITE_CONSTRAINT_PRIMARYKEY],
    PG_UNIQUE_VIOLATION,
  );
}

/** True when `err` is a foreign-key violation (a row pointing at a missing parent), either dialect. */
export function isForeignKeyViolation(err: unknown): boolean {
  return matches(err, [SQLITE_CONSTRAINT_FOREIGNKEY], PG_FOREIGN_KEY_VIOLATION);
}
