import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ANALYSIS_PENDING, createDb, type DbHandle, migrateToLatest } from '@radio/db';
import type { TrackTags } from '../src/library/probe.ts';
import { HistoryRepository } from '../src/repositories/history-repository.ts';
import { PlaylistRepository } from '../src/repositories/playlist-repository.ts';
import { SettingsRepository } from '../src/repositories/settings-repository.ts';
import { TrackRepository } from '../src/repositories/track-repository.ts';
import { type Target, testDialects } from './helpers/dialects.ts';

const dialects = testDialects('sched_repo');

const tags: TrackTags = {
  title: 'Song',
  artist: 'Band',
  album: 'LP',
  genre: 'Jazz',
  isrc: 'USRC17607839',
  year: 2020,
  trackNo: 2,
  duration: 181.5,
  format: 'mp3',
  bitrate: 128_000,
  sampleRate: 44_100,
  channels: 2,
  hasCover: true,
  replayGain: -6.5,
};

describe.each(dialects)('scheduler repositories on $name', ({ setup }) => {
  let target: Target;
  let handle: DbHandle;

  beforeAll(async () => {
    target = await setup();
    handle = await createDb(target.url);
    await migrateToLatest(handle.db);
  });

  afterAll(async () => {
    await handle?.close();
    await target?.cleanup();
  });

  it('stores tracks, their stamps, invalid files, moves and deletions the same way', async () => {
    const tracks = new TrackRepository(handle.db);
    const facts = { size: 5_000_000, mtime: 1_763_722_380_123 };
    const row = await tracks.saveOk('a/song.mp3', facts, tags, false);
    expect(row).toMatchObject({
      path: 'a/song.mp3',
      title: 'Song',
      status: 'ok',
      error: null,
      duration: 181.5,
    });
    expect(Number(row.has_cover)).toBe(1);
    const again = await tracks.saveOk(
      'a/song.mp3',
      { ...facts, size: 5_000_001 },
      { ...tags, title: 'Song 2' },
      true,
    );
    expect(again.id).toBe(row.id);
    expect(again.title).toBe('Song 2');
    const bad = await tracks.saveInvalid(
      'b/bad.mp3',
      { size: 0, mtime: 1 },
      'mp3',
      'empty file (0 bytes)',
    );
    expect(bad).toMatchObject({ status: 'invalid', error: 'empty file (0 bytes)' });
    const stamps = await tracks.stamps();
    expect(stamps.find((s) => s.path === 'a/song.mp3')).toEqual({
      id: row.id,
      path: 'a/song.mp3',
      size: 5_000_001,
      mtime: facts.mtime,
      status: 'ok',
    });
    expect((await tracks.playable()).map((t) => t.path)).toEqual(['a/song.mp3']);
    expect(await tracks.markMissingAt(row.id, 'elsewhere.mp3')).toBe(false);
    expect(await tracks.markMissingAt(row.id, 'a/song.mp3')).toBe(true);
    const candidate = await tracks.findMovedCandidate(
      { size: 5_000_001, mtime: facts.mtime },
      'c/moved.mp3',
    );
    expect(candidate).toMatchObject({ id: row.id, status: 'missing' });
    const moved = await tracks.rename(row.id, 'c/moved.mp3');
    expect(moved).toMatchObject({ id: row.id, path: 'c/moved.mp3', status: 'ok' });
    await tracks.markInvalid(row.id, 'decoder failed');
    expect(await tracks.findById(row.id)).toMatchObject({
      status: 'invalid',
      error: 'decoder failed',
    });
  });

  it('stores the analysis of the file it measured, and forgets it when the file changes', async () => {
    const tracks = new TrackRepository(handle.db);
    const facts = { size: 1000, mtime: 2000 };
    const row = await tracks.saveOk('an/one.flac', facts, tags, false);
    expect(row).toMatchObject({ analysis_status: 'pending', replay_gain: -6.5, loudness: null });
    const failing = await tracks.saveOk('an/two.flac', facts, tags, false);
    expect(await tracks.pendingAnalysis()).toEqual(expect.arrayContaining([row.id, failing.id]));
    const measured = {
      loudness: -14.2,
      loudnessRange: 5.1,
      truePeak: -0.4,
      cueIn: 0.25,
      cueOut: 181,
      fadePoint: 178.5,
      duration: 181.5,
    };
    // The row no longer describes the measured file: nothing is stored.
    expect(await tracks.saveAnalysis(row.id, { ...facts, size: 999 }, measured)).toBeUndefined();
    const done = await tracks.saveAnalysis(row.id, facts, measured);
    expect(done).toMatchObject({
      analysis_status: 'done',
      loudness: -14.2,
      loudness_range: 5.1,
      true_peak: -0.4,
      cue_in: 0.25,
      cue_out: 181,
      fade_point: 178.5,
      analysis_error: null,
    });
    expect(done?.analyzed_at).toEqual(expect.any(String));
    const failed = await tracks.saveAnalysisFailure(failing.id, facts, 'longer than 3 h');
    expect(failed).toMatchObject({ analysis_status: 'failed', analysis_error: 'longer than 3 h' });
    const pending = await tracks.pendingAnalysis();
    expect(pending).not.toContain(row.id);
    expect(pending).not.toContain(failing.id);
    const counts = await tracks.analysisCounts();
    expect(counts.done).toBeGreaterThanOrEqual(1);
    expect(counts.failed).toBeGreaterThanOrEqual(1);

    // Same content under the same path (a file that came back): the analysis stays.
    expect(await tracks.saveOk('an/one.flac', facts, tags, false)).toMatchObject({
      analysis_status: 'done',
      loudness: -14.2,
    });
    const changed = await tracks.saveOk(
      'an/one.flac',
      { ...facts, mtime: 3000 },
      { ...tags, replayGain: null },
      true,
    );
    expect(changed).toMatchObject({ ...ANALYSIS_PENDING, replay_gain: null });
    expect(await tracks.pendingAnalysis()).toContain(row.id);
  });

  it('keeps settings as JSON and writes play history', async () => {
    const settings = new SettingsRepository(handle.db);
    expect(await settings.get('amplify')).toBeUndefined();
    await settings.set('amplify', 0.5);
    await settings.set('amplify', 0.75);
    expect(await settings.get('amplify')).toBe(0.75);

    const tracks = new TrackRepository(handle.db);
    const track = await tracks.saveOk('h/one.mp3', { size: 1, mtime: 1 }, tags, false);
    const history = new HistoryRepository(handle.db);
    const id = await history.start({
      trackId: track.id,
      title: 'One',
      artist: null,
      source: 'request',
      requestId: '12',
      startedAt: new Date('2026-11-21T10:00:00.000Z'),
    });
    await history.start({
      trackId: null,
      title: 'Gone',
      artist: null,
      source: 'rotation',
      requestId: null,
      startedAt: new Date('2026-11-21T10:05:00.000Z'),
    });
    await history.closeDangling();
    await history.end(id, new Date('2026-11-21T10:03:00.000Z'));
    const rows = await handle.db.selectFrom('play_history').selectAll().orderBy('id').execute();
    expect(rows[0]).toMatchObject({
      ended_at: '2026-11-21T10:03:00.000Z',
      source: 'request',
      request_id: '12',
    });
    expect(rows[1]?.ended_at).not.toBeNull();
  });

  it('reads a playlist in order', async () => {
    const tracks = new TrackRepository(handle.db);
    const one = await tracks.saveOk('p/1.mp3', { size: 1, mtime: 1 }, tags, false);
    const two = await tracks.saveOk('p/2.mp3', { size: 1, mtime: 1 }, tags, false);
    const user = await handle.db
      .insertInto('users')
      .values({ username: `dj${randomBytes(3).toString('hex')}`, password_hash: 'x', role: 'dj' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const list = await handle.db
      .insertInto('playlists')
      .values({ owner_id: user.id, name: 'Mix' })
      .returning('id')
      .executeTakeFirstOrThrow();
    await handle.db
      .insertInto('playlist_items')
      .values([
        { playlist_id: list.id, track_id: one.id, position: 2 },
        { playlist_id: list.id, track_id: two.id, position: 1 },
      ])
      .execute();
    const playlists = new PlaylistRepository(handle.db);
    expect(await playlists.exists(list.id)).toBe(true);
    expect(await playlists.exists(list.id + 1000)).toBe(false);
    expect(await playlists.trackIds(list.id)).toEqual([two.id, one.id]);
  });
});
