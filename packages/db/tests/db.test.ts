import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { sql } from 'kysely';
import {
  containsIgnoreCase,
  createDb,
  type DbHandle,
  isForeignKeyViolation,
  isUniqueViolation,
  migrateToLatest,
  type NewTrack,
  nowIso,
} from '../src/index.ts';
import { migrateDownAll } from '../src/migrate.ts';
import { migrations } from '../src/migrations/index.ts';

const POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const MIGRATION_NAMES = Object.keys(migrations);
const TABLES = [
  'audit_log',
  'dj_accounts',
  'listener_hourly',
  'listener_sessions',
  'listener_sketches',
  'live_shows',
  'live_tokens',
  'play_history',
  'play_listeners',
  'playlist_items',
  'playlists',
  'schedules',
  'sessions',
  'settings',
  'song_requests',
  'tracks',
  'trash',
  'users',
  'webhook_deliveries',
  'webhooks',
];

/** Where one run of the suite keeps its data, and how to remove it afterwards. */
interface TestDatabase {
  url: string;
  /** PostgreSQL: the schema of this run; other runs may share the database. */
  schema?: string;
  cleanup(): Promise<void>;
}

const dialects: Array<{ name: 'sqlite' | 'postgres'; setup: () => Promise<TestDatabase> }> = [
  {
    name: 'sqlite',
    async setup() {
      const dir = await mkdtemp(join(tmpdir(), 'radio-db-'));
      // A folder that does not exist yet: createDb must make it.
      return {
        url: `sqlite:${join(dir, 'state', 'radio.db')}`,
        cleanup: () => rm(dir, { recursive: true, force: true }),
      };
    },
  },
  {
    name: 'postgres',
    async setup() {
      const schema = `radio_test_${randomBytes(6).toString('hex')}`;
      const url = `${POSTGRES_URL}${POSTGRES_URL.includes('?') ? '&' : '?'}schema=${schema}`;
      return {
        url,
        schema,
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

function track(i: number, overrides: Partial<NewTrack> = {}): NewTrack {
  return {
    path: `Artist ${i % 50}/Album ${i % 200}/${String(i).padStart(5, '0')}.mp3`,
    title: i % 100 === 7 ? `Needle in the Hay ${i}` : `Song ${i}`,
    artist: `Artist ${i % 50}`,
    album: `Album ${i % 200}`,
    genre: i % 3 === 0 ? 'Rock' : 'Jazz',
    year: 1990 + (i % 30),
    track_no: (i % 12) + 1,
    duration: 180 + (i % 120) + 0.25,
    format: 'mp3',
    bitrate: 128_000,
    sample_rate: 44_100,
    channels: 2,
    size: 3_000_000 + i,
    mtime: 1_763_722_380_000 + i,
    ...overrides,
  };
}

describe.each(dialects)('@radio/db on $name', ({ name, setup }) => {
  let target: TestDatabase;
  let handle: DbHandle;

  beforeAll(async () => {
    target = await setup();
    handle = await createDb(target.url);
  });

  async function tableNames(): Promise<string[]> {
    const tables = await handle.db.introspection.getTables();
    return tables
      .filter((table) => target.schema === undefined || table.schema === target.schema)
      .map((table) => table.name)
      .sort();
  }

  afterAll(async () => {
    await handle?.close();
    await target?.cleanup();
  });

  it('reports its dialect', () => {
    expect(handle.dialect).toBe(name);
  });

  it('applies every migration once, in order, and re-applying is a no-op', async () => {
    const first = await migrateToLatest(handle.db);
    expect(first.applied).toEqual(MIGRATION_NAMES);
    const second = await migrateToLatest(handle.db);
    expect(second.applied).toEqual([]);

    expect(await tableNames()).toEqual(TABLES);
  });

  it('reverts every migration and applies them again', async () => {
    const down = await migrateDownAll(handle.db);
    expect(down.applied).toEqual([...MIGRATION_NAMES].reverse());
    expect(await tableNames()).toEqual([]);
    const up = await migrateToLatest(handle.db);
    expect(up.applied).toEqual(MIGRATION_NAMES);
  });

  it('runs concurrent migrations safely (the second one finds nothing to do)', async () => {
    const other = await createDb(target.url);
    try {
      const results = await Promise.all([migrateToLatest(handle.db), migrateToLatest(other.db)]);
      expect(results.map((result) => result.applied)).toEqual([[], []]);
    } finally {
      await other.close();
    }
  });

  describe('users', () => {
    it('creates, reads, updates and deletes, with defaults filled in', async () => {
      const before = nowIso();
      const created = await handle.db
        .insertInto('users')
        .values({ username: 'Alice', password_hash: 'hash-1', role: 'admin' })
        .returningAll()
        .executeTakeFirstOrThrow();
      expect(created).toEqual({
        id: expect.any(Number),
        username: 'Alice',
        password_hash: 'hash-1',
        role: 'admin',
        disabled: 0,
        created_at: expect.stringMatching(ISO_UTC),
        updated_at: expect.stringMatching(ISO_UTC),
        last_login_at: null,
      });
      // The database default and nowIso() agree on format, so they compare as text.
      expect(created.created_at >= before.slice(0, 19)).toBe(true);

      const loginAt = nowIso();
      await handle.db
        .updateTable('users')
        .set({ disabled: 1, last_login_at: loginAt, updated_at: loginAt })
        .where('id', '=', created.id)
        .execute();
      const found = await handle.db
        .selectFrom('users')
        .selectAll()
        .where(sql<string>`lower(username)`, '=', 'alice')
        .executeTakeFirstOrThrow();
      expect(found).toMatchObject({ id: created.id, disabled: 1, last_login_at: loginAt });

      const deleted = await handle.db.deleteFrom('users').where('id', '=', created.id).execute();
      expect(deleted[0]?.numDeletedRows).toBe(1n);
      expect(
        await handle.db.selectFrom('users').where('id', '=', created.id).selectAll().execute(),
      ).toEqual([]);
    });

    it('rejects a user name that differs only in case, recognisably', async () => {
      await handle.db
        .insertInto('users')
        .values({ username: 'Bob', password_hash: 'x', role: 'dj' })
        .execute();
      const duplicate = handle.db
        .insertInto('users')
        .values({ username: 'BOB', password_hash: 'y', role: 'listener' })
        .execute();
      const err = await duplicate.then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(isUniqueViolation(err)).toBe(true);
      expect(isForeignKeyViolation(err)).toBe(false);
    });

    it('rejects an unknown role and a flag other than 0/1', async () => {
      await expect(
        handle.db
          .insertInto('users')
          // biome-ignore lint/suspicious/noExplicitAny: deliberately invalid input.
          .values({ username: 'carol', password_hash: 'x', role: 'root' as any })
          .execute(),
      ).rejects.toThrow();
      await expect(
        handle.db
          .insertInto('users')
          // biome-ignore lint/suspicious/noExplicitAny: deliberately invalid input.
          .values({ username: 'dave', password_hash: 'x', role: 'dj', disabled: 2 as any })
          .execute(),
      ).rejects.toThrow();
    });
  });

  describe('tracks', () => {
    it('round-trips every column with the same JavaScript types', async () => {
      const values = track(1, {
        path: 'round/trip.flac',
        format: 'flac',
        duration: 245.123456,
        has_cover: 1,
        // Beyond 32 bits: bigint columns must come back as exact numbers.
        size: 5_000_000_123,
        mtime: 1_763_722_380_123,
        replay_gain: -7.25,
        analysis_status: 'done',
        loudness: -14.375,
        loudness_range: 6.5,
        true_peak: -0.125,
        cue_in: 0.35,
        cue_out: 244.9,
        fade_point: 239.6,
        analyzed_at: '2026-11-24T10:00:00.000Z',
        audio_hash: 'a1b2c3d4e5f60718293a4b5c6d7e8f90',
        isrc: 'USRC17607839',
        uploaded_by: 42,
      });
      const { id } = await handle.db
        .insertInto('tracks')
        .values(values)
        .returning('id')
        .executeTakeFirstOrThrow();
      const row = await handle.db
        .selectFrom('tracks')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({
        ...values,
        id,
        status: 'ok',
        error: null,
        analysis_error: null,
        added_at: expect.stringMatching(ISO_UTC),
        updated_at: expect.stringMatching(ISO_UTC),
      });
      expect(typeof row.size).toBe('number');
      expect(typeof row.mtime).toBe('number');

      await handle.db
        .updateTable('tracks')
        .set({ status: 'invalid', error: 'no audio stream', updated_at: nowIso() })
        .where('path', '=', 'round/trip.flac')
        .execute();
      const updated = await handle.db
        .selectFrom('tracks')
        .select(['status', 'error'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      expect(updated).toEqual({ status: 'invalid', error: 'no audio stream' });

      await handle.db.deleteFrom('tracks').where('id', '=', id).execute();
      expect(
        await handle.db.selectFrom('tracks').select('id').where('id', '=', id).execute(),
      ).toEqual([]);
    });

    it('rejects a second track with the same path, recognisably', async () => {
      await handle.db
        .insertInto('tracks')
        .values(track(2, { path: 'dup/one.mp3' }))
        .execute();
      const err = await handle.db
        .insertInto('tracks')
        .values(track(3, { path: 'dup/one.mp3' }))
        .execute()
        .then(
          () => undefined,
          (error: unknown) => error,
        );
      expect(isUniqueViolation(err)).toBe(true);
    });

    it('upserts by path (what a library rescan does)', async () => {
      const insert = (title: string) =>
        handle.db
          .insertInto('tracks')
          .values(track(4, { path: 'upsert/me.mp3', title }))
          .onConflict((oc) =>
            oc.column('path').doUpdateSet((eb) => ({
              title: eb.ref('excluded.title'),
              updated_at: nowIso(),
            })),
          )
          .execute();
      await insert('First');
      await insert('Second');
      const rows = await handle.db
        .selectFrom('tracks')
        .select('title')
        .where('path', '=', 'upsert/me.mp3')
        .execute();
      expect(rows).toEqual([{ title: 'Second' }]);
    });

    it('rejects an unknown status', async () => {
      await expect(
        handle.db
          .insertInto('tracks')
          // biome-ignore lint/suspicious/noExplicitAny: deliberately invalid input.
          .values(track(5, { path: 'bad/status.mp3', status: 'broken' as any }))
          .execute(),
      ).rejects.toThrow();
    });
  });

  describe('playlists and items', () => {
    async function fixture(username: string) {
      const owner = await handle.db
        .insertInto('users')
        .values({ username, password_hash: 'x', role: 'listener' })
        .returning('id')
        .executeTakeFirstOrThrow();
      const tracks = await handle.db
        .insertInto('tracks')
        .values([1, 2, 3].map((n) => track(n, { path: `${username}/${n}.mp3` })))
        .returning('id')
        .execute();
      const playlist = await handle.db
        .insertInto('playlists')
        .values({ owner_id: owner.id, name: 'Morning', description: null, is_public: 1 })
        .returningAll()
        .executeTakeFirstOrThrow();
      await handle.db
        .insertInto('playlist_items')
        .values(
          tracks.map((t, index) => ({
            playlist_id: playlist.id,
            track_id: t.id,
            position: tracks.length - index,
          })),
        )
        .execute();
      return { owner, tracks, playlist };
    }

    const itemsOf = (playlistId: number) =>
      handle.db
        .selectFrom('playlist_items')
        .select(['track_id', 'position'])
        .where('playlist_id', '=', playlistId)
        .orderBy('position')
        .execute();

    it('creates, orders, updates and reorders', async () => {
      const { playlist, tracks } = await fixture('erin');
      expect(playlist).toMatchObject({ name: 'Morning', is_public: 1, description: null });
      expect((await itemsOf(playlist.id)).map((item) => item.track_id)).toEqual(
        tracks.map((t) => t.id).reverse(),
      );

      // Swap two positions in a transaction: allowed because positions are not unique.
      await handle.db.transaction().execute(async (trx) => {
        await trx
          .updateTable('playlist_items')
          .set({ position: 1 })
          .where('playlist_id', '=', playlist.id)
          .where('track_id', '=', tracks[0]?.id ?? -1)
          .execute();
        await trx
          .updateTable('playlist_items')
          .set({ position: 3 })
          .where('playlist_id', '=', playlist.id)
          .where('track_id', '=', tracks[2]?.id ?? -1)
          .execute();
      });
      expect((await itemsOf(playlist.id)).map((item) => item.track_id)).toEqual(
        tracks.map((t) => t.id),
      );

      await handle.db
        .updateTable('playlists')
        .set({ name: 'Evening', is_public: 0 })
        .where('id', '=', playlist.id)
        .execute();
      expect(
        await handle.db
          .selectFrom('playlists')
          .select(['name', 'is_public'])
          .where('id', '=', playlist.id)
          .executeTakeFirst(),
      ).toEqual({ name: 'Evening', is_public: 0 });
    });

    it('deleting a playlist deletes its items', async () => {
      const { playlist } = await fixture('frank');
      await handle.db.deleteFrom('playlists').where('id', '=', playlist.id).execute();
      expect(await itemsOf(playlist.id)).toEqual([]);
    });

    it('deleting a user deletes their playlists and items', async () => {
      const { owner, playlist } = await fixture('grace');
      await handle.db.deleteFrom('users').where('id', '=', owner.id).execute();
      expect(
        await handle.db
          .selectFrom('playlists')
          .select('id')
          .where('owner_id', '=', owner.id)
          .execute(),
      ).toEqual([]);
      expect(await itemsOf(playlist.id)).toEqual([]);
    });

    it('deleting a track removes it from playlists', async () => {
      const { playlist, tracks } = await fixture('heidi');
      await handle.db
        .deleteFrom('tracks')
        .where('id', '=', tracks[1]?.id ?? -1)
        .execute();
      expect((await itemsOf(playlist.id)).map((item) => item.track_id).sort()).toEqual(
        [tracks[0]?.id, tracks[2]?.id].sort(),
      );
    });

    it('rejects an item of a playlist that does not exist, recognisably', async () => {
      const { tracks } = await fixture('ivan');
      const err = await handle.db
        .insertInto('playlist_items')
        .values({ playlist_id: 999_999, track_id: tracks[0]?.id ?? -1, position: 1 })
        .execute()
        .then(
          () => undefined,
          (error: unknown) => error,
        );
      expect(isForeignKeyViolation(err)).toBe(true);
      expect(isUniqueViolation(err)).toBe(false);
    });
  });

  describe('play history', () => {
    it('keeps entries, with title and artist, when the track is deleted', async () => {
      const { id: trackId } = await handle.db
        .insertInto('tracks')
        .values(track(6, { path: 'history/gone.mp3', title: 'Gone Song', artist: 'Old Band' }))
        .returning('id')
        .executeTakeFirstOrThrow();
      const entries = await handle.db
        .insertInto('play_history')
        .values([
          {
            track_id: trackId,
            title: 'Gone Song',
            artist: 'Old Band',
            started_at: '2026-11-21T10:00:00.000Z',
            ended_at: '2026-11-21T10:03:00.000Z',
            source: 'rotation',
          },
          {
            track_id: trackId,
            title: 'Gone Song',
            artist: 'Old Band',
            started_at: '2026-11-21T11:00:00.000Z',
            source: 'request',
            request_id: 'req-42',
          },
        ])
        .returning('id')
        .execute();
      expect(entries).toHaveLength(2);

      await handle.db.deleteFrom('tracks').where('id', '=', trackId).execute();

      const rows = await handle.db
        .selectFrom('play_history')
        .select(['track_id', 'title', 'artist', 'started_at', 'ended_at', 'source', 'request_id'])
        .where('title', '=', 'Gone Song')
        .orderBy('started_at', 'desc')
        .execute();
      expect(rows).toEqual([
        {
          track_id: null,
          title: 'Gone Song',
          artist: 'Old Band',
          started_at: '2026-11-21T11:00:00.000Z',
          ended_at: null,
          source: 'request',
          request_id: 'req-42',
        },
        {
          track_id: null,
          title: 'Gone Song',
          artist: 'Old Band',
          started_at: '2026-11-21T10:00:00.000Z',
          ended_at: '2026-11-21T10:03:00.000Z',
          source: 'rotation',
          request_id: null,
        },
      ]);
    });
  });

  describe('sessions', () => {
    it('stores, replaces, reads and purges expired sessions', async () => {
      const now = 1_763_722_380_000;
      const put = (sid: string, data: object, expiresAt: number) =>
        handle.db
          .insertInto('sessions')
          .values({ sid, data: JSON.stringify(data), expires_at: expiresAt })
          .onConflict((oc) =>
            oc.column('sid').doUpdateSet({ data: JSON.stringify(data), expires_at: expiresAt }),
          )
          .execute();
      await put('live', { user: 1 }, now + 60_000);
      await put('live', { user: 2 }, now + 120_000);
      await put('stale', { user: 3 }, now - 1);

      const purged = await handle.db
        .deleteFrom('sessions')
        .where('expires_at', '<=', now)
        .execute();
      expect(purged[0]?.numDeletedRows).toBe(1n);
      const rows = await handle.db.selectFrom('sessions').selectAll().execute();
      expect(rows).toEqual([{ sid: 'live', data: '{"user":2}', expires_at: now + 120_000 }]);

      const err = await handle.db
        .insertInto('sessions')
        .values({ sid: 'live', data: '{}', expires_at: now })
        .execute()
        .then(
          () => undefined,
          (error: unknown) => error,
        );
      expect(isUniqueViolation(err)).toBe(true);
    });
  });

  describe('settings', () => {
    it('round-trips JSON values and replaces them by key', async () => {
      const set = (key: string, value: unknown) =>
        handle.db
          .insertInto('settings')
          .values({ key, value: JSON.stringify(value) })
          .onConflict((oc) =>
            oc.column('key').doUpdateSet({ value: JSON.stringify(value), updated_at: nowIso() }),
          )
          .execute();
      await set('amplify', 1);
      await set('amplify', 0.75);
      await set('station', { name: 'Radio', tags: ['a', 'b'] });

      const rows = await handle.db.selectFrom('settings').selectAll().orderBy('key').execute();
      expect(rows.map((row) => [row.key, JSON.parse(row.value)])).toEqual([
        ['amplify', 0.75],
        ['station', { name: 'Radio', tags: ['a', 'b'] }],
      ]);
      expect(rows[0]?.updated_at).toMatch(ISO_UTC);
    });
  });

  describe('transactions', () => {
    it('roll back every write when the callback throws', async () => {
      await expect(
        handle.db.transaction().execute(async (trx) => {
          await trx.insertInto('settings').values({ key: 'tx', value: '1' }).execute();
          throw new Error('abort');
        }),
      ).rejects.toThrow('abort');
      expect(
        await handle.db.selectFrom('settings').select('key').where('key', '=', 'tx').execute(),
      ).toEqual([]);
    });
  });

  describe('library search', () => {
    const COUNT = 10_000;
    // Under SQLite's default limit of 32,766 bound values and PostgreSQL's 65,535.
    const BATCH = 500;

    beforeAll(async () => {
      const rows = Array.from({ length: COUNT }, (_, i) =>
        track(i, { path: `library/${String(i).padStart(5, '0')}.mp3` }),
      );
      await handle.db.transaction().execute(async (trx) => {
        for (let start = 0; start < rows.length; start += BATCH) {
          await trx
            .insertInto('tracks')
            .values(rows.slice(start, start + BATCH))
            .execute();
        }
      });
    });

    const library = () => handle.db.selectFrom('tracks').where('path', 'like', 'library/%');

    it('holds all the inserted tracks', async () => {
      const { count } = await library()
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .executeTakeFirstOrThrow();
      expect(count).toBe(COUNT);
    });

    it('finds a substring in title or artist, ignoring case, sorted and paged', async () => {
      const search = (text: string) =>
        library().where((eb) =>
          eb.or([containsIgnoreCase('title', text), containsIgnoreCase('artist', text)]),
        );
      const { count } = await search('NEEDLE')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .executeTakeFirstOrThrow();
      expect(count).toBe(100);

      const page = await search('needle')
        .select(['id', 'title'])
        .orderBy('title')
        .orderBy('id')
        .limit(5)
        .offset(10)
        .execute();
      // The titles differ only in their digits, so every collation sorts them alike.
      const expected = Array.from({ length: COUNT }, (_, i) => track(i).title)
        .filter((title) => title.startsWith('Needle'))
        .sort()
        .slice(10, 15);
      expect(page.map((row) => row.title)).toEqual(expected);

      const { count: byArtist } = await search('artist 49')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .executeTakeFirstOrThrow();
      expect(byArtist).toBe(COUNT / 50);
    });

    it('treats LIKE wildcards in the search text literally', async () => {
      await handle.db
        .insertInto('tracks')
        .values(track(1, { path: 'wild/100%.mp3', title: '100% Pure_Love' }))
        .execute();
      const titles = async (text: string) =>
        (
          await handle.db
            .selectFrom('tracks')
            .select('title')
            .where(containsIgnoreCase('title', text))
            .execute()
        ).map((row) => row.title);
      expect(await titles('0% pure_')).toEqual(['100% Pure_Love']);
      expect(await titles('%')).toEqual(['100% Pure_Love']);
      expect(await titles('1_0')).toEqual([]);
    });

    it('filters and sorts on the indexed columns', async () => {
      const rows = await library()
        .select(['artist', 'album', 'track_no'])
        .where('genre', '=', 'Rock')
        .where('status', '=', 'ok')
        .where('artist', '=', 'Artist 3')
        .orderBy('album')
        .orderBy('track_no')
        .execute();
      expect(rows.length).toBeGreaterThan(0);
      expect(rows.every((row) => row.artist === 'Artist 3')).toBe(true);
      const recent = await library().select('id').orderBy('added_at', 'desc').limit(3).execute();
      expect(recent).toHaveLength(3);
    });
  });

  describe('connection handle', () => {
    it('pings', async () => {
      const result = await handle.ping();
      expect(result).toEqual({ ok: true, latencyMs: expect.any(Number) });
    });

    it('closes idempotently, and a closed handle pings false', async () => {
      const other = await createDb(target.url);
      expect((await other.ping()).ok).toBe(true);
      await Promise.all([other.close(), other.close()]);
      await other.close();
      expect(await other.ping()).toEqual({
        ok: false,
        latencyMs: expect.any(Number),
        error: expect.any(String),
      });
      await expect(other.db.selectFrom('users').selectAll().execute()).rejects.toThrow();
    });

    it('closes a handle that never ran a query', async () => {
      const unused = await createDb(target.url);
      await unused.close();
      await unused.close();
    });

    it('sees writes made through another handle', async () => {
      const other = await createDb(target.url);
      try {
        await other.db.insertInto('settings').values({ key: 'shared', value: '"yes"' }).execute();
        const row = await handle.db
          .selectFrom('settings')
          .select('value')
          .where('key', '=', 'shared')
          .executeTakeFirst();
        expect(row).toEqual({ value: '"yes"' });
      } finally {
        await other.close();
      }
    });
  });
});
