import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createDb, type DbHandle, migrateToLatest } from '@radio/db';
import { HistoryRepository } from '../src/repositories/history-repository.ts';
import { ProgrammeRepository } from '../src/repositories/programme-repository.ts';
import { RequestRepository } from '../src/repositories/request-repository.ts';
import { type Target, testDialects } from './helpers/dialects.ts';

const dialects = testDialects('sched_prog');

const T0 = Date.parse('2026-11-25T10:00:00.000Z');
const iso = (ms: number): string => new Date(ms).toISOString();

describe.each(dialects)('programme repositories on $name', ({ setup }) => {
  let target: Target;
  let handle: DbHandle;
  const ids = { ana: 0, dj: 0, plain: 0, tracks: [] as number[], rotation: 0, jingles: 0 };

  beforeAll(async () => {
    target = await setup();
    handle = await createDb(target.url);
    await migrateToLatest(handle.db);
    const db = handle.db;
    const user = async (username: string, role: 'dj' | 'listener') =>
      (
        await db
          .insertInto('users')
          .values({ username, password_hash: 'x', role })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    ids.ana = await user('ana', 'listener');
    ids.dj = await user('dj-bob', 'dj');
    ids.plain = await user('dj-carl', 'dj');
    await db
      .insertInto('dj_accounts')
      .values({
        user_id: ids.dj,
        broadcast_username: 'bob',
        password_hash: 'x',
        display_name: 'Bob',
      })
      .execute();
    for (const n of [1, 2, 3]) {
      const row = await db
        .insertInto('tracks')
        .values({
          path: `t${n}.flac`,
          title: `T${n}`,
          artist: `A${n}`,
          album: null,
          genre: null,
          year: null,
          track_no: null,
          duration: 3,
          format: 'flac',
          bitrate: null,
          sample_rate: null,
          channels: null,
          size: 1,
          mtime: 1,
          error: null,
          replay_gain: null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      ids.tracks.push(row.id);
    }
    const playlist = async (values: Record<string, unknown>) =>
      (
        await db
          .insertInto('playlists')
          .values({ owner_id: ids.dj, name: 'x', ...values })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    ids.rotation = await playlist({ name: 'Pop', on_air: 1, weight: 3, cursor: 2, cycle: 5 });
    ids.jingles = await playlist({
      name: 'IDs',
      on_air: 1,
      kind: 'hourly_at',
      interval: 0,
      jingle: 1,
      play_order: 'sequential',
      start_mode: 'interrupt',
      play_at: null,
    });
    await playlist({ name: 'Personal', on_air: 0 });
    const [t1, t2, t3] = ids.tracks as [number, number, number];
    await db
      .insertInto('playlist_items')
      .values([
        { playlist_id: ids.rotation, track_id: t3, position: 1 },
        { playlist_id: ids.rotation, track_id: t1, position: 0 },
        { playlist_id: ids.jingles, track_id: t2, position: 0 },
      ])
      .execute();
    // One row at a time: a multi-row insert would write null, not the default, where a row leaves a column out.
    for (const values of [
      { playlist_id: ids.rotation, days: 31, start_time: '06:00', end_time: '10:00', priority: 1 },
      { dj_user_id: ids.dj, days: 16, start_time: '20:00', end_time: '22:00', title: 'Night' },
      { dj_user_id: ids.plain, days: 64, start_time: '23:00', end_time: '01:00' },
    ]) {
      await db.insertInto('schedules').values(values).execute();
    }
    for (const values of [
      { user_id: ids.ana, track_id: t2, not_before: iso(T0 + 60_000), requested_at: iso(T0) },
      { user_id: ids.ana, track_id: t1, not_before: iso(T0), requested_at: iso(T0 - 1000) },
      { user_id: ids.ana, track_id: t3, not_before: iso(T0), status: 'removed' as const },
    ]) {
      await db.insertInto('song_requests').values(values).execute();
    }
  });

  afterAll(async () => {
    await handle?.close();
    await target?.cleanup();
  });

  it('reads the on-air playlists with their items in order, and writes their position', async () => {
    const programme = new ProgrammeRepository(handle.db);
    const playlists = await programme.playlists();
    const [t1, t2, t3] = ids.tracks;
    expect(playlists).toEqual([
      {
        id: ids.rotation,
        name: 'Pop',
        kind: 'rotation',
        order: 'shuffle',
        weight: 3,
        jingle: false,
        interval: null,
        playAt: null,
        startMode: 'after_track',
        cursor: 2,
        cycle: 5,
        trackIds: [t1, t3],
      },
      expect.objectContaining({
        id: ids.jingles,
        kind: 'hourly_at',
        order: 'sequential',
        jingle: true,
        interval: 0,
        startMode: 'interrupt',
        trackIds: [t2],
      }),
    ]);
    await programme.savePosition(ids.rotation, 0, 6);
    const again = await programme.playlists();
    expect(again[0]).toMatchObject({ cursor: 0, cycle: 6 });
  });

  it('reads the schedule, a DJ slot named by the on-air name or the login', async () => {
    const schedules = await new ProgrammeRepository(handle.db).schedules();
    expect(schedules).toEqual([
      {
        id: expect.any(Number),
        playlistId: ids.rotation,
        dj: null,
        title: null,
        days: 31,
        startTime: '06:00',
        endTime: '10:00',
        startDate: null,
        endDate: null,
        priority: 1,
        startMode: 'after_track',
      },
      expect.objectContaining({ dj: { id: ids.dj, name: 'Bob' }, title: 'Night', days: 16 }),
      expect.objectContaining({ dj: { id: ids.plain, name: 'dj-carl' }, playlistId: null }),
    ]);
  });

  it('reads pending requests oldest first, and writes their plan and their play', async () => {
    const [t1, t2] = ids.tracks as [number, number];
    const programme = new ProgrammeRepository(handle.db);
    const pending = await programme.pendingRequests();
    expect(pending.map((r) => [r.trackId, r.userName, r.notBefore])).toEqual([
      [t1, 'ana', T0],
      [t2, 'ana', T0 + 60_000],
    ]);
    const [first, second] = pending as [(typeof pending)[0], (typeof pending)[0]];
    const requests = new RequestRepository(handle.db);
    const planned = await requests.setPlanned([
      { id: first.id, plannedAt: T0 + 5000 },
      { id: second.id, plannedAt: null },
    ]);
    expect(planned).toEqual([
      expect.objectContaining({
        id: first.id,
        userId: ids.ana,
        status: 'pending',
        plannedAt: T0 + 5000,
      }),
      expect.objectContaining({ id: second.id, plannedAt: null, playedAt: null }),
    ]);
    const played = await requests.markPlayed(first.id, T0 + 5200);
    expect(played).toEqual({
      id: first.id,
      userId: ids.ana,
      trackId: t1,
      status: 'played',
      plannedAt: null,
      playedAt: T0 + 5200,
      reason: null,
    });
    // Played once: a second play, or a plan for it, changes nothing.
    expect(await requests.markPlayed(first.id, T0 + 9000)).toBeNull();
    expect(await requests.setPlanned([{ id: first.id, plannedAt: T0 }])).toEqual([]);
    expect((await programme.pendingRequests()).map((r) => r.id)).toEqual([second.id]);
  });

  it('writes and reads the history with its playlist, jingle and request', async () => {
    const [t1, t2] = ids.tracks as [number, number];
    const history = new HistoryRepository(handle.db);
    await history.start({
      trackId: t1,
      title: 'T1',
      artist: 'A1',
      source: 'playlist',
      requestId: '4',
      startedAt: new Date(T0 - 3_600_000),
      playlistId: ids.rotation,
    });
    await history.start({
      trackId: t2,
      title: 'T2',
      artist: 'A2',
      source: 'playlist',
      requestId: '5',
      startedAt: new Date(T0),
      playlistId: ids.jingles,
      jingle: true,
    });
    await history.start({
      trackId: t1,
      title: 'T1',
      artist: 'A1',
      source: 'request',
      requestId: '6',
      startedAt: new Date(T0 + 1000),
      songRequestId: 77,
    });
    const rows = await new ProgrammeRepository(handle.db).history(T0 - 60_000, 100);
    expect(rows).toEqual([
      { trackId: t2, artist: 'A2', playlistId: ids.jingles, jingle: true, startedAt: T0 },
      { trackId: t1, artist: 'A1', playlistId: null, jingle: false, startedAt: T0 + 1000 },
    ]);
    const stored = await handle.db
      .selectFrom('play_history')
      .select(['song_request_id', 'jingle'])
      .where('request_id', '=', '6')
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ song_request_id: 77, jingle: 0 });
    expect(await new ProgrammeRepository(handle.db).history(T0 - 7_200_000, 1)).toHaveLength(1);
    const all = await new ProgrammeRepository(handle.db).load(T0 - 7_200_000);
    expect(all.history.map((row) => row.startedAt)).toEqual([T0 - 3_600_000, T0, T0 + 1000]);
    expect(all.playlists).toHaveLength(2);
    expect(all.schedules).toHaveLength(3);
  });
});
