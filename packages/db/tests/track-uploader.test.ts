import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type Kysely, sql } from 'kysely';
import { createDb, type DbHandle, migrateToLatest } from '../src/index.ts';
import * as trackUploader from '../src/migrations/2026-12-01-01-track-uploader.ts';

/*
 * The migration that adds tracks.uploaded_by fills it from the audit log: the latest upload of
 * each path, carried along by the moves after it. Run on a database as it was just before.
 */

const POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

const dialects = [
  {
    name: 'sqlite',
    async setup() {
      const dir = await mkdtemp(join(tmpdir(), 'radio-db-uploader-'));
      return {
        url: `sqlite:${join(dir, 'radio.db')}`,
        cleanup: () => rm(dir, { recursive: true, force: true }),
      };
    },
  },
  {
    name: 'postgres',
    async setup() {
      const schema = `radio_test_${randomBytes(6).toString('hex')}`;
      return {
        url: `${POSTGRES_URL}?schema=${schema}`,
        async cleanup() {
          const admin = await createDb(POSTGRES_URL);
          try {
            await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(admin.db);
          } finally {
            await admin.close();
          }
        },
      };
    },
  },
];

describe.each(dialects)('tracks.uploaded_by from the audit log ($name)', ({ setup }) => {
  let target: { url: string; cleanup(): Promise<void> };
  let handle: DbHandle;
  // biome-ignore lint/suspicious/noExplicitAny: the schema before the migration, not today's.
  let db: Kysely<any>;

  beforeAll(async () => {
    target = await setup();
    handle = await createDb(target.url);
    await migrateToLatest(handle.db);
    db = handle.db;
    // Back to the schema the migration finds.
    await trackUploader.down(db);
  });

  afterAll(async () => {
    await handle?.close();
    await target?.cleanup();
  });

  it('gives each uploaded track its uploader, through moves, and nobody the rest', async () => {
    const user = async (username: string): Promise<number> =>
      (
        await db
          .insertInto('users')
          .values({ username, password_hash: 'x', role: 'dj' })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id as number;
    const ana = await user('ana');
    const ben = await user('ben');
    const paths = ['up.mp3', 'Moved/song.mp3', 'again.mp3', 'copied.mp3', 'gone-user.mp3'];
    for (const path of paths) {
      await db
        .insertInto('tracks')
        .values({ path, title: path, format: 'mp3', size: 1, mtime: 1 })
        .execute();
    }
    const audit = (user_id: number | null, action: string, target: string, details?: object) =>
      db
        .insertInto('audit_log')
        .values({ user_id, action, target, details: details ? JSON.stringify(details) : null })
        .execute();
    await audit(ana, 'track.upload', 'up.mp3');
    await audit(ana, 'track.upload', 'song.mp3');
    await audit(ben, 'track.move', 'Moved/song.mp3', { from: 'song.mp3', to: 'Moved/song.mp3' });
    // Uploaded by Ana, deleted, uploaded again by Ben: Ben's file now.
    await audit(ana, 'track.upload', 'again.mp3');
    await audit(ben, 'track.upload', 'again.mp3');
    // A file copied into the music folder, moved onto a path an upload once had.
    await audit(ana, 'track.upload', 'copied.mp3');
    await audit(ana, 'track.move', 'copied.mp3', { from: 'elsewhere.mp3', to: 'copied.mp3' });
    // The uploader's account is gone (the audit log keeps the name, not the id).
    await audit(null, 'track.upload', 'gone-user.mp3');

    await trackUploader.up(db);

    const rows = await db
      .selectFrom('tracks')
      .select(['path', 'uploaded_by'])
      .orderBy('path')
      .execute();
    expect(Object.fromEntries(rows.map((row) => [row.path, row.uploaded_by]))).toEqual({
      'Moved/song.mp3': ana,
      'again.mp3': ben,
      'copied.mp3': null,
      'gone-user.mp3': null,
      'up.mp3': ana,
    });
  });
});
