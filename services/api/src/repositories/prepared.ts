import type { CompiledQuery, Kysely } from 'kysely';

/**
 * A query compiled once and run with new parameters, for the queries every request makes
 * (its session, its user): building and compiling a Kysely query each time costs more than
 * running it on SQLite. `build` must take its parameters in the order they are passed.
 */
export function prepared<DB, R>(
  db: Kysely<DB>,
  build: (db: Kysely<DB>) => { compile(): CompiledQuery<R> },
): (parameters: readonly unknown[]) => Promise<R[]> {
  let compiled: CompiledQuery<R> | null = null;
  return async (parameters) => {
    compiled ??= build(db).compile();
    const result = await db.executeQuery<R>({ ...compiled, parameters });
    return result.rows;
  };
}
