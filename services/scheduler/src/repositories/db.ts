import type { DbHandle } from '@radio/db';

/** The typed Kysely instance of @radio/db (named here so the service needs no kysely import). */
export type Db = DbHandle['db'];
