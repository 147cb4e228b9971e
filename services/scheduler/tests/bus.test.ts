import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { EventMessage, LibraryScan, NowPlaying } from '@radio/core';
import { waitFor } from '@radio/core/testing';
import { TestStation } from './helpers/station.ts';

jest.setTimeout(60_000);

describe('bus commands, events and state keys', () => {
  let station: TestStation;
  const events: EventMessage[] = [];

  beforeAll(async () => {
    station = await TestStation.start({ trackSeconds: 4, crossfadeSeconds: 1 });
    station.bus.onEvent((event) => {
      events.push(event);
    });
  });

  afterAll(async () => {
    await station?.stop();
  });

  const nowPlayingEvents = (): NowPlaying[] =>
    events.flatMap((e) => (e.type === 'player.now-playing' ? [e.payload] : []));

  it('publishes now-playing and keeps the state keys up to date', async () => {
    const playing = await waitFor('a now-playing state', () =>
      station.bus.getState('now-playing').then((v) => v ?? undefined),
    );
    expect(playing).toMatchObject({
      trackId: expect.any(Number),
      requestId: expect.stringMatching(/^\d+$/),
      title: expect.any(String),
      source: 'rotation',
      duration: expect.any(Number),
      startedAt: expect.any(Number),
    });
    expect(await station.bus.getState('player-state')).toMatchObject({
      state: 'playing',
      amplify: 1,
    });
    const queue = await waitFor('a queue state', () =>
      station.bus.getState('queue').then((v) => v ?? undefined),
    );
    expect(queue.items.length).toBeGreaterThan(0);
    const scan = (await station.bus.getState('library-scan')) as LibraryScan;
    expect(scan).toMatchObject({ state: 'done', total: 7, indexed: 5, invalid: 2 });
    const status = await station.bus.request('player.status', {});
    expect(status).toMatchObject({ state: 'playing', amplify: 1 });
    expect(status.nowPlaying?.trackId).toEqual(expect.any(Number));
  });

  it('queues by track id or uri, lists the queue, and answers errors with codes', async () => {
    const track = await station.db.db
      .selectFrom('tracks')
      .selectAll()
      .where('path', '=', 'Beta Trio/Waves/02 - Undertow.flac')
      .executeTakeFirstOrThrow();
    const byId = await station.bus.request('queue.push', { trackId: track.id });
    expect(byId.item).toMatchObject({
      trackId: track.id,
      kind: 'request',
      title: 'Undertow',
      artist: 'Beta Trio',
    });
    const byUri = await station.bus.request('queue.push', { uri: 'untagged-demo.mp3' });
    expect(byUri.item).toMatchObject({
      path: 'untagged-demo.mp3',
      title: 'untagged-demo',
      kind: 'request',
    });
    const list = await station.bus.request('queue.list', {});
    expect(list.items.slice(0, 2).map((i) => i.requestId)).toEqual([
      byId.requestId,
      byUri.requestId,
    ]);
    await expect(station.bus.request('queue.push', { trackId: 999_999 })).rejects.toMatchObject({
      code: 'SCHEDULER_TRACK_NOT_FOUND',
    });
    await expect(station.bus.request('queue.push', { uri: '/etc/passwd' })).rejects.toMatchObject({
      code: 'SCHEDULER_PATH_OUTSIDE_LIBRARY',
    });
    await expect(
      station.bus.request('queue.push', { uri: 'broken/empty.mp3' }),
    ).rejects.toMatchObject({ code: 'SCHEDULER_TRACK_INVALID' });
    await waitFor('a queue.changed event with the requests', () =>
      events.some(
        (e) => e.type === 'queue.changed' && e.payload.items[0]?.requestId === byId.requestId,
      ),
    );
  });

  it('pauses, resumes, stops, plays and skips', async () => {
    expect((await station.bus.request('player.pause', {})).state).toBe('paused');
    await waitFor('player.state paused', () =>
      events.some((e) => e.type === 'player.state' && e.payload.state === 'paused'),
    );
    expect((await station.bus.request('player.resume', {})).state).toBe('playing');
    const stopped = await station.bus.request('player.stop', {});
    expect(stopped).toMatchObject({ state: 'stopped', position: null, nowPlaying: null });
    expect(await station.command('request.on_air')).toBe('');
    expect((await station.bus.request('player.play', {})).state).toBe('playing');
    await waitFor('on air again', async () => (await station.command('request.on_air')) !== '');
    const before = nowPlayingEvents().length;
    const skipped = await station.bus.request('player.skip', {});
    expect(skipped.state).toBe('playing');
    await waitFor('a new now-playing after the skip', () => nowPlayingEvents().length > before);
  });

  it('plays a given track at once', async () => {
    const track = await station.db.db
      .selectFrom('tracks')
      .selectAll()
      .where('path', '=', 'Alpha Band/First Light/01 - Morning.mp3')
      .executeTakeFirstOrThrow();
    await station.bus.request('player.play', { trackId: track.id });
    await waitFor('the track on air', () => nowPlayingEvents().at(-1)?.trackId === track.id);
    await expect(station.bus.request('player.play', { trackId: 424_242 })).rejects.toMatchObject({
      code: 'SCHEDULER_TRACK_NOT_FOUND',
    });
  });

  it('queues a playlist in place of the queue, or after it', async () => {
    const user = await station.db.db
      .insertInto('users')
      .values({ username: 'dj', password_hash: 'x', role: 'dj' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const playlist = await station.db.db
      .insertInto('playlists')
      .values({ owner_id: user.id, name: 'Evening' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const tracks = await station.db.db
      .selectFrom('tracks')
      .select(['id', 'path'])
      .where('status', '=', 'ok')
      .orderBy('path')
      .execute();
    const broken = await station.db.db
      .selectFrom('tracks')
      .select('id')
      .where('status', '=', 'invalid')
      .executeTakeFirstOrThrow();
    await station.db.db
      .insertInto('playlist_items')
      .values([
        { playlist_id: playlist.id, track_id: (tracks[0] as { id: number }).id, position: 1 },
        { playlist_id: playlist.id, track_id: broken.id, position: 2 },
        { playlist_id: playlist.id, track_id: (tracks[1] as { id: number }).id, position: 3 },
      ])
      .execute();
    await station.bus.request('queue.push', { uri: 'untagged-demo.mp3' });
    expect(
      await station.bus.request('playlist.play', { playlistId: playlist.id, mode: 'replace' }),
    ).toEqual({ queued: 2 });
    const list = await station.bus.request('queue.list', {});
    expect(list.items.slice(0, 3).map((i) => i.kind)).toEqual(['playlist', 'playlist', 'rotation']);
    expect(list.items.slice(0, 2).map((i) => i.path)).toEqual([tracks[0]?.path, tracks[1]?.path]);
    expect(
      await station.bus.request('playlist.play', { playlistId: playlist.id, mode: 'append' }),
    ).toEqual({ queued: 2 });
    await expect(
      station.bus.request('playlist.play', { playlistId: 9999, mode: 'append' }),
    ).rejects.toMatchObject({ code: 'SCHEDULER_PLAYLIST_NOT_FOUND' });
  });

  it('rescans on command and reports progress on the bus', async () => {
    const { scanId } = await station.bus.request('library.rescan', {});
    const scans = await waitFor('the scan done', () => {
      const mine = events.flatMap((e) =>
        e.type === 'library.scan' && e.payload.scanId === scanId ? [e.payload] : [],
      );
      return mine.at(-1)?.state === 'done' ? mine : undefined;
    });
    expect(scans[0]?.state).toBe('running');
    expect(scans.at(-1)).toMatchObject({
      total: 7,
      done: 7,
      indexed: 5,
      invalid: 2,
      missing: 0,
      error: null,
    });
  });

  it('sets amplify, and keeps it across a restart', async () => {
    expect(await station.bus.request('amplify.set', { value: 0.5 })).toEqual({ amplify: 0.5 });
    expect(await station.bus.request('amplify.get', {})).toEqual({ amplify: 0.5 });
    await expect(station.bus.request('amplify.set', { value: 5 })).rejects.toMatchObject({
      code: 'BUS_INVALID_MESSAGE',
    });
    await waitFor('player.state with the new amplify', () =>
      events.some((e) => e.type === 'player.state' && e.payload.amplify === 0.5),
    );
    await station.restartScheduler();
    expect(await station.command('var.get amplify')).toBe('0.500');
    expect(await station.bus.request('amplify.get', {})).toEqual({ amplify: 0.5 });
    const history = await station.db.db.selectFrom('play_history').selectAll().execute();
    expect(history.length).toBeGreaterThan(2);
    expect(history.every((row) => row.ended_at !== null || row === history.at(-1))).toBe(true);
  });
});
