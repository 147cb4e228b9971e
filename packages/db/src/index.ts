export { type CreateDbOptions, createDb, type DbHandle, type PingResult } from './connect.ts';
export {
  type DatabaseTarget,
  type DialectName,
  parseDatabaseUrl,
} from './database-url.ts';
export {
  DatabaseUrlError,
  DbError,
  isForeignKeyViolation,
  isUniqueViolation,
  MigrationError,
} from './errors.ts';
export {
  ANALYSIS_PENDING,
  containsIgnoreCase,
  escapeLike,
  fromFlag,
  nowIso,
  type TrackAnalysis,
  type TrackTags,
  toFlag,
  trackAnalysis,
  trackTags,
} from './helpers.ts';
export { type MigrateResult, migrateToLatest } from './migrate.ts';
export type * from './schema.ts';
