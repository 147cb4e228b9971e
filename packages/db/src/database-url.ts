import { isAbsolute, resolve } from 'node:path';
import { DatabaseUrlError } from './errors.ts';

export type DialectName = 'sqlite' | 'postgres';

export interface SqliteTarget {
  readonly dialect: 'sqlite';
  /** An absolute file path, or `:memory:`. */
  readonly filename: string;
}

export interface PostgresTarget {
  readonly dialect: 'postgres';
  /** The URL to hand to pg, without our own `schema` parameter. */
  readonly connectionString: string;
  /** From `?schema=`; null means the server's default search_path. */
  readonly schema: string | null;
  /** The URL with the password masked, for logs and error messages. */
  readonly redacted: string;
}

export type DatabaseTarget = SqliteTarget | PostgresTarget;

// Lower case only: an unquoted identifier folds to lower case in PostgreSQL, so allowing
// capitals would make `?schema=Radio` and `set search_path to Radio` disagree.
const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * Reads a DATABASE_URL. Accepted forms:
 * - `sqlite:<path>`: relative paths are resolved against `cwd`; `sqlite:///abs/file.db`
 *   (URL form with an empty host) is the same as `sqlite:/abs/file.db`.
 * - `sqlite::memory:`: a private in-memory database (gone when closed).
 * - `postgres://…` or `postgresql://…`, optionally with `?schema=<name>` to keep the
 *   station's tables in their own schema (created on first connection).
 * Throws DatabaseUrlError naming DATABASE_URL otherwise.
 */
export function parseDatabaseUrl(url: string, cwd: string = process.cwd()): DatabaseTarget {
  const value = url.trim();
  if (value === '') throw new DatabaseUrlError('it is empty');

  if (value.startsWith('sqlite:')) {
    let path = value.slice('sqlite:'.length);
    if (path === ':memory:') return { dialect: 'sqlite', filename: ':memory:' };
    if (path.startsWith('//')) path = path.slice(2);
    if (path === '' || path.endsWith('/')) {
      throw new DatabaseUrlError('the sqlite: URL has no file name');
    }
    if (path.includes('\0')) throw new DatabaseUrlError('the sqlite: path contains a NUL byte');
    return { dialect: 'sqlite', filename: isAbsolute(path) ? path : resolve(cwd, path) };
  }

  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(value)?.[1]?.toLowerCase();
  if (scheme === 'postgres' || scheme === 'postgresql') return parsePostgres(value);
  if (scheme === undefined) throw new DatabaseUrlError('it has no scheme');
  throw new DatabaseUrlError(`the scheme "${scheme}:" is not supported`);
}

function parsePostgres(value: string): PostgresTarget {
  if (!/^postgres(ql)?:\/\//i.test(value)) {
    throw new DatabaseUrlError('a postgres URL must start with postgres://');
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new DatabaseUrlError('the postgres URL cannot be parsed');
  }
  // libpq also allows the host as a query parameter (a unix socket directory).
  if (url.hostname === '' && !url.searchParams.has('host')) {
    throw new DatabaseUrlError('the postgres URL has no host');
  }
  const schemas = url.searchParams.getAll('schema');
  if (schemas.length > 1) throw new DatabaseUrlError('the postgres URL has more than one schema');
  const schema = schemas[0] ?? null;
  if (schema !== null && !SCHEMA_NAME.test(schema)) {
    throw new DatabaseUrlError(
      `the schema "${schema}" is not a lower-case identifier ([a-z_][a-z0-9_]*, at most 63 characters)`,
    );
  }
  url.searchParams.delete('schema');
  const connectionString = url.toString();
  if (url.password !== '') url.password = '***';
  return { dialect: 'postgres', connectionString, schema, redacted: url.toString() };
}
