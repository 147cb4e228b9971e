import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { waitFor } from '@radio/core/testing';
import { type Kysely, sql } from 'kysely';
import { createDb, type Database, type DbHandle, migrateToLatest } from '../src/index.ts';
import { migrations } from '../src/migrations/index.ts';

const MIGRATION_COUNT = Object.keys(migrations).length;

const POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

describe('SQLite specifics', () => {
  let dir: string;
  const handles: DbHandle[] = [];
  const open = async (url: string) => {
    const handle = await createDb(url, { cwd: dir });
    handles.push(handle);
    return handle;
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'radio-db-sqlite-'));
  });

  afterEach(async () => {
    await Promise.all(handles.splice(0).map((handle) => handle.close()));
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('opens a relative path against cwd in WAL mode with foreign keys and a busy timeout', async () => {
    const handle = await open('sqlite:nested/deeper/radio.db');
    expect(handle.target).toBe(join(dir, 'nested', 'deeper', 'radio.db'));
    const pragma = async (name: string) => {
      const { rows } = await sql<Record<string, unknown>>`${sql.raw(`pragma ${name}`)}`.execute(
        handle.db,
      );
      // The one column is not always named after the pragma (busy_timeout answers `timeout`).
      return Object.values(rows[0] ?? {})[0];
    };
    expect(await pragma('journal_mode')).toBe('wal');
    expect(await pragma('foreign_keys')).toBe(1);
    expect(await pragma('busy_timeout')).toBe(5000);
  });

  it('works in memory, each handle with its own database', async () => {
    const first = await open('sqlite::memory:');
    const second = await open('sqlite::memory:');
    expect((await migrateToLatest(first.db)).applied).toHaveLength(MIGRATION_COUNT);
    expect((await migrateToLatest(second.db)).applied).toHaveLength(MIGRATION_COUNT);
    await first.db.insertInto('settings').values({ key: 'k', value: '1' }).execute();
    expect(await second.db.selectFrom('settings').selectAll().execute()).toEqual([]);
  });

  it('binds booleans as 0/1 and dates as ISO text, like the schema stores them', async () => {
    const handle = await open('sqlite::memory:');
    const when = new Date('2026-11-21T10:00:00.000Z');
    const { rows } = await sql<{
      yes: number;
      no: number;
      at: string;
    }>`select ${true} as yes, ${false} as no, ${when} as at`.execute(handle.db);
    expect(rows).toEqual([{ yes: 1, no: 0, at: '2026-11-21T10:00:00.000Z' }]);
  });

  it('returns plain objects, as pg does', async () => {
    const handle = await open('sqlite::memory:');
    const { rows } = await sql`select 1 as one`.execute(handle.db);
    expect(Object.getPrototypeOf(rows[0])).toBe(Object.prototype);
  });

  it('streams rows', async () => {
    const handle = await open('sqlite::memory:');
    await migrateToLatest(handle.db);
    await handle.db
      .insertInto('settings')
      .values([1, 2, 3].map((n) => ({ key: `k${n}`, value: String(n) })))
      .execute();
    const keys: string[] = [];
    for await (const row of handle.db
      .selectFrom('settings')
      .select('key')
      .orderBy('key')
      .stream()) {
      keys.push(row.key);
    }
    expect(keys).toEqual(['k1', 'k2', 'k3']);
  });
});

describe('PostgreSQL specifics', () => {
  const schemas: string[] = [];
  const handles: DbHandle[] = [];
  const open = async (url: string, onError?: (err: Error) => void) => {
    const handle = await createDb(url, { onError });
    handles.push(handle);
    return handle;
  };
  const newSchemaUrl = () => {
    const schema = `radio_test_${randomBytes(6).toString('hex')}`;
    schemas.push(schema);
    return `${POSTGRES_URL}${POSTGRES_URL.includes('?') ? '&' : '?'}schema=${schema}`;
  };
  let admin: DbHandle;

  beforeAll(async () => {
    admin = await createDb(POSTGRES_URL);
  });

  afterEach(async () => {
    await Promise.all(handles.splice(0).map((handle) => handle.close()));
  });

  afterAll(async () => {
    for (const schema of schemas) {
      await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(admin.db);
    }
    await admin.close();
  });

  async function backendPid(db: Kysely<Database>): Promise<number> {
    const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(db);
    const pid = rows[0]?.pid;
    if (pid === undefined) throw new Error('no backend pid');
    return pid;
  }

  async function terminate(pid: number): Promise<void> {
    await sql`select pg_terminate_backend(${pid})`.execute(admin.db);
  }

  it('keeps each schema apart, creating it on first use', async () => {
    const a = await open(newSchemaUrl());
    const b = await open(newSchemaUrl());
    expect((await migrateToLatest(a.db)).applied).toHaveLength(MIGRATION_COUNT);
    expect((await migrateToLatest(b.db)).applied).toHaveLength(MIGRATION_COUNT);
    await a.db.insertInto('settings').values({ key: 'only-in-a', value: '1' }).execute();
    expect(await b.db.selectFrom('settings').selectAll().execute()).toEqual([]);
    expect(a.target).toContain(`schema ${schemas.at(-2)}`);
  });

  it('survives the server dropping an idle connection, and reconnects', async () => {
    const errors: Error[] = [];
    const handle = await open(newSchemaUrl(), (err) => errors.push(err));
    await migrateToLatest(handle.db);
    await terminate(await backendPid(handle.db));
    await waitFor('a pool error', () => errors.length > 0, 5000);
    expect((await handle.ping()).ok).toBe(true);
    // The new connection is in the right schema again.
    expect(await handle.db.selectFrom('settings').selectAll().execute()).toEqual([]);
  });

  it('survives the server dropping a connection in the middle of a transaction', async () => {
    const errors: Error[] = [];
    const handle = await open(newSchemaUrl(), (err) => errors.push(err));
    await migrateToLatest(handle.db);
    await expect(
      handle.db.transaction().execute(async (trx) => {
        await trx.insertInto('settings').values({ key: 'lost', value: '1' }).execute();
        await terminate(await backendPid(trx));
        await waitFor('a pool error', () => errors.length > 0, 5000);
        await trx.insertInto('settings').values({ key: 'also-lost', value: '2' }).execute();
      }),
    ).rejects.toThrow();
    expect((await handle.ping()).ok).toBe(true);
    expect(await handle.db.selectFrom('settings').selectAll().execute()).toEqual([]);
  });

  it('pings false, without throwing, when the server cannot be reached', async () => {
    // Port 1 on loopback: connection refused at once.
    const handle = await open('postgres://postgres@127.0.0.1:1/test');
    const result = await handle.ping({ timeoutMs: 5_000 });
    expect(result).toEqual({ ok: false, latencyMs: expect.any(Number), error: expect.any(String) });
  });
});
