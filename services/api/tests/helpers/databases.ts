import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDb, type DbHandle, migrateToLatest } from '@radio/db';
import { Redis } from 'ioredis';
import { sql } from 'kysely';

export type Dialect = 'sqlite' | 'postgres';
export type SessionKind = 'db' | 'redis';

export interface Setup {
  dialect: Dialect;
  sessions: SessionKind;
}

/** The route suites run on both dialects and both session stores (two runs cover all four). */
export const ROUTE_SETUPS: Setup[] = [
  { dialect: 'sqlite', sessions: 'db' },
  { dialect: 'postgres', sessions: 'redis' },
];

export const ALL_SETUPS: Setup[] = [
  { dialect: 'sqlite', sessions: 'db' },
  { dialect: 'sqlite', sessions: 'redis' },
  { dialect: 'postgres', sessions: 'db' },
  { dialect: 'postgres', sessions: 'redis' },
];

export const POSTGRES_URL = 'postgres://postgres@127.0.0.1:5432/test';
export const REDIS_URL = 'redis://127.0.0.1:6379';

export function randomName(prefix: string): string {
  return `${prefix}${randomBytes(5).toString('hex')}`;
}

export interface TestDatabase {
  readonly url: string;
  readonly dialect: Dialect;
  /** Opens another handle on the same database (a restarted api). */
  open(): Promise<DbHandle>;
  /** Closes the handles this helper opened and deletes the database. */
  drop(): Promise<void>;
}

/** A fresh, migrated database: a temp SQLite file, or a PostgreSQL schema of its own. */
export async function createTestDatabase(dialect: Dialect): Promise<TestDatabase> {
  const handles: DbHandle[] = [];
  let url: string;
  let dir: string | null = null;
  let schema: string | null = null;
  if (dialect === 'sqlite') {
    dir = await mkdtemp(join(tmpdir(), 'radio-api-test-'));
    url = `sqlite:${join(dir, 'radio.db')}`;
  } else {
    schema = randomName('api_test_');
    url = `${POSTGRES_URL}?schema=${schema}`;
  }
  const open = async () => {
    const handle = await createDb(url);
    handles.push(handle);
    return handle;
  };
  const first = await open();
  await migrateToLatest(first.db);
  return {
    url,
    dialect,
    open,
    async drop() {
      if (schema !== null) {
        const admin = await createDb(POSTGRES_URL);
        try {
          await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(admin.db);
        } finally {
          await admin.close();
        }
      }
      for (const handle of handles) await handle.close();
      if (dir !== null) await rm(dir, { recursive: true, force: true });
    },
  };
}

export interface TestRedis {
  readonly redis: Redis;
  /** Unique per test file: keys of parallel runs never meet. */
  readonly prefix: string;
  cleanup(): Promise<void>;
}

export async function createTestRedis(): Promise<TestRedis> {
  const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  const prefix = `${randomName('test:api:')}:`;
  return {
    redis,
    prefix,
    async cleanup() {
      let cursor = '0';
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
        if (keys.length > 0) await redis.del(...keys);
        cursor = next;
      } while (cursor !== '0');
      await redis.quit();
    },
  };
}
