import { copyFile, mkdtemp, rename, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { locateFfmpeg, runFfmpeg, silentLogger } from '@radio/core';
import { generateTestLibrary, generateTrack, type TestLibrary } from '@radio/core/test-audio';
import { createDb, type DbHandle, migrateToLatest, type Track, trackAnalysis } from '@radio/db';
import { TrackRepository } from '../repositories/track-repository.ts';
import type { LibraryChange } from './change-batch.ts';
import { Library } from './library.ts';
import { probeFile } from './probe.ts';

const ffmpegPath = locateFfmpeg().path;

describe('probeFile', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'probe-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it.each(['mp3', 'flac', 'ogg', 'opus', 'm4a', 'wav'] as const)('reads %s', async (format) => {
    const path = join(dir, `song.${format}`);
    await generateTrack(
      path,
      {
        format,
        durationSeconds: 1,
        tags: { title: 'Song', artist: 'Band', album: 'LP', trackNo: 3, year: 2020 },
      },
      { ffmpegPath },
    );
    const result = await probeFile(path, `song.${format}`, 1000);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.tags).toMatchObject({ title: 'Song', artist: 'Band', album: 'LP', format });
    expect(result.tags.duration).toBeGreaterThan(0.9);
    expect(result.tags.duration).toBeLessThan(1.2);
  });

  it('reads the ReplayGain track gain, when the file has one', async () => {
    const path = join(dir, 'gain.flac');
    await runFfmpeg(
      [
        '-loglevel',
        'error',
        '-y',
        '-f',
        'lavfi',
        '-i',
        'sine=f=440:d=1',
        '-metadata',
        'REPLAYGAIN_TRACK_GAIN=-7.25 dB',
        path,
      ],
      { ffmpegPath, logger: silentLogger(), name: 'test audio' },
    );
    const result = await probeFile(path, 'gain.flac', 1000);
    expect(result.ok && result.tags.replayGain).toBeCloseTo(-7.25, 5);
    const plain = await probeFile(join(dir, 'song.flac'), 'song.flac', 1000);
    expect(plain.ok && plain.tags.replayGain).toBeNull();
  });

  it('reads the ISRC of MP3 (ID3 TSRC) and FLAC (Vorbis ISRC) files', async () => {
    const tagged = [
      ['isrc.mp3', 'TSRC=USRC17607839', 'USRC17607839'],
      ['isrc.flac', 'ISRC=GBAYE0601498', 'GBAYE0601498'],
    ] as const;
    for (const [name, tag, isrc] of tagged) {
      const path = join(dir, name);
      const args = ['-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'sine=d=1', '-metadata', tag];
      await runFfmpeg([...args, path], { ffmpegPath, logger: silentLogger(), name: 'test audio' });
      const result = await probeFile(path, name, 1000);
      expect(result.ok && result.tags.isrc).toBe(isrc);
    }
    const plain = await probeFile(join(dir, 'song.flac'), 'song.flac', 1000);
    expect(plain.ok && plain.tags.isrc).toBeNull();
  });

  it('titles an untagged file by its name and refuses empty or corrupt files', async () => {
    const path = join(dir, 'My_Untagged Song.mp3');
    await generateTrack(path, { format: 'mp3', durationSeconds: 1 }, { ffmpegPath });
    const result = await probeFile(path, 'sub/My_Untagged Song.mp3', 1000);
    expect(result.ok && result.tags.title).toBe('My Untagged Song');
    expect(await probeFile(join(dir, 'none.mp3'), 'none.mp3', 0)).toEqual({
      ok: false,
      reason: 'empty file (0 bytes)',
    });
    await writeFile(
      join(dir, 'text.mp3'),
      'this is not audio at all, just some words\n'.repeat(50),
    );
    const text = await probeFile(join(dir, 'text.mp3'), 'text.mp3', 2100);
    expect(text.ok).toBe(false);
  });
});

describe('Library', () => {
  let dir: string;
  let music: string;
  let fixtures: TestLibrary;
  let handle: DbHandle;
  let library: Library;
  const changes: LibraryChange[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'library-'));
    music = join(dir, 'music');
    fixtures = await generateTestLibrary(music, { ffmpegPath, durationSeconds: 1 });
    handle = await createDb(`sqlite:${join(dir, 'radio.db')}`);
    await migrateToLatest(handle.db);
    library = new Library({
      root: music,
      tracks: new TrackRepository(handle.db),
      logger: silentLogger(),
      watch: false,
      batchMs: 10,
    });
    library.onChange((change) => changes.push(change));
    await library.start();
  });

  afterAll(async () => {
    await library?.stop();
    await handle?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('indexes every playable file and marks broken ones invalid with the reason', async () => {
    expect(
      library
        .tracks()
        .map((t) => t.path)
        .sort(),
    ).toEqual([...fixtures.valid].sort());
    const rows = await handle.db.selectFrom('tracks').selectAll().orderBy('path').execute();
    const byPath = new Map(rows.map((row) => [row.path, row]));
    expect(byPath.get(fixtures.corrupt)).toMatchObject({ status: 'invalid' });
    expect(byPath.get(fixtures.corrupt)?.error).toMatch(/unreadable audio file/);
    expect(byPath.get(fixtures.empty)).toMatchObject({
      status: 'invalid',
      error: 'empty file (0 bytes)',
    });
    const morning = library.byPath('Alpha Band/First Light/01 - Morning.mp3');
    expect(morning).toMatchObject({
      title: 'Morning',
      artist: 'Alpha Band',
      album: 'First Light',
      trackNo: 1,
      year: 2021,
      hasCover: true,
      format: 'mp3',
    });
    expect(library.byPath('untagged-demo.mp3')?.title).toBe('untagged-demo');
    expect(changes.at(-1)?.fresh).toBe(false);
  });

  it('reads no file again on a rescan of an unchanged library', async () => {
    const before = library.probeCount;
    const scans: string[] = [];
    const off = library.onScan((scan) => scans.push(scan.state));
    const { done } = library.rescan();
    const result = await done;
    off();
    expect(library.probeCount).toBe(before);
    expect(result).toMatchObject({
      state: 'done',
      total: 7,
      done: 7,
      indexed: 5,
      invalid: 2,
      missing: 0,
    });
    expect(scans[0]).toBe('running');
    expect(scans.at(-1)).toBe('done');
  });

  it('follows changed, deleted, moved and new files on a rescan', async () => {
    const noon = library.byPath('Alpha Band/First Light/02 - Noon.mp3');
    const tide = library.byPath('Beta Trio/Waves/01 - Tide.flac');
    // Both measured: the changed file is measured again, the moved one keeps its analysis.
    const tracks = new TrackRepository(handle.db);
    const measured = {
      loudness: -15,
      loudnessRange: 2,
      truePeak: -1,
      cueIn: 0,
      cueOut: 1,
      fadePoint: 0.9,
      duration: 1,
    };
    for (const track of [noon, tide]) {
      const row = await tracks.findById(track?.id as number);
      const saved = await tracks.saveAnalysis(row?.id as number, row as Track, measured);
      library.applyAnalysis(row?.id as number, trackAnalysis(saved as Track));
    }
    expect(tide?.analysis).toMatchObject({ status: 'done', loudness: -15, fadePoint: 0.9 });
    await generateTrack(
      join(music, 'Alpha Band/First Light/02 - Noon.mp3'),
      {
        format: 'mp3',
        durationSeconds: 1,
        tags: { title: 'Noon (remaster)', artist: 'Alpha Band' },
      },
      { ffmpegPath },
    );
    await unlink(join(music, 'untagged-demo.mp3'));
    await rename(join(music, 'Beta Trio/Waves/01 - Tide.flac'), join(music, 'Tide moved.flac'));
    await copyFile(join(music, 'Beta Trio/Waves/02 - Undertow.flac'), join(music, 'copy.flac'));
    changes.length = 0;
    const before = library.probeCount;
    const result = await library.rescan().done;
    expect(library.probeCount - before).toBe(3); // the changed, the moved and the new file
    expect(result.missing).toBe(1);
    expect(library.byPath('Alpha Band/First Light/02 - Noon.mp3')).toMatchObject({
      id: noon?.id,
      title: 'Noon (remaster)',
    });
    expect(library.byPath('untagged-demo.mp3')).toBeUndefined();
    expect(library.byPath('Tide moved.flac')?.id).toBe(tide?.id);
    expect(library.byPath('Tide moved.flac')?.analysis).toMatchObject({ status: 'done' });
    expect(library.byPath('Alpha Band/First Light/02 - Noon.mp3')?.analysis).toMatchObject({
      status: 'pending',
      loudness: null,
    });
    expect(library.byPath('copy.flac')).toBeDefined();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const change = changes.at(-1) as LibraryChange;
    expect(change.fresh).toBe(true);
    expect(change.added.map((t) => t.path)).toEqual(['copy.flac']);
    expect(change.removed).toHaveLength(1);
    const missing = await handle.db
      .selectFrom('tracks')
      .select(['status'])
      .where('path', '=', 'untagged-demo.mp3')
      .executeTakeFirst();
    expect(missing?.status).toBe('missing');
  });

  it('indexes a file on demand and explains why one cannot be played', async () => {
    await generateTrack(
      join(music, 'late.flac'),
      { format: 'flac', durationSeconds: 1 },
      { ffmpegPath },
    );
    const found = await library.resolve('late.flac');
    expect(found.ok && found.track.title).toBe('late');
    expect(await library.resolve('nope.mp3')).toMatchObject({ ok: false, reason: 'not-found' });
    expect(await library.resolve('broken/empty.mp3')).toMatchObject({
      ok: false,
      reason: 'invalid',
      message: expect.stringContaining('empty file'),
    });
    expect(await library.resolve('notes.txt')).toMatchObject({ ok: false, reason: 'not-audio' });
  });

  it('keeps the track of a renamed file even when the new name is seen before the old one goes', async () => {
    const late = library.byPath('late.flac');
    await rename(join(music, 'late.flac'), join(music, 'late renamed.flac'));
    // What the watcher does when the add of the new name outruns the unlink of the old one.
    const found = await library.resolve('late renamed.flac');
    expect(found.ok && found.track.id).toBe(late?.id);
    expect(library.byPath('late.flac')).toBeUndefined();
    const rows = await handle.db
      .selectFrom('tracks')
      .select(['path', 'status'])
      .where('id', '=', late?.id as number)
      .execute();
    expect(rows).toEqual([{ path: 'late renamed.flac', status: 'ok' }]);
  });

  it('marks a track that failed to decode as invalid', async () => {
    const track = library.byPath('copy.flac');
    await library.markUnplayable(track?.id as number, 'decoder failed');
    expect(library.get(track?.id as number)).toBeUndefined();
    const row = await handle.db
      .selectFrom('tracks')
      .selectAll()
      .where('path', '=', 'copy.flac')
      .executeTakeFirst();
    expect(row).toMatchObject({ status: 'invalid', error: 'decoder failed' });
  });

  it('does not mark invalid a track whose file vanished as it was about to play', async () => {
    // The player's decoder finds no file when it was renamed or deleted a moment before.
    const track = library.byPath('late renamed.flac');
    await rename(join(music, 'late renamed.flac'), join(music, 'late again.flac'));
    await library.markUnplayable(track?.id as number, 'No such file or directory');
    const row = await handle.db
      .selectFrom('tracks')
      .select(['status'])
      .where('id', '=', track?.id as number)
      .executeTakeFirst();
    expect(row).toEqual({ status: 'ok' });
    // The watch then follows the file to its new name, keeping the track.
    const moved = await library.resolve('late again.flac');
    expect(moved.ok && moved.track.id).toBe(track?.id);
  });
});
