import { mkdtemp, rm, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import {
  type Bus,
  createMemoryBus,
  type LibraryAnalysis,
  locateFfmpeg,
  runFfmpeg,
  silentLogger,
} from '@radio/core';
import { generateTrack } from '@radio/core/test-audio';
import { captureLogger, waitFor } from '@radio/core/testing';
import { createDb, type DbHandle, migrateToLatest } from '@radio/db';
import { Library } from '../library/library.ts';
import { TrackRepository } from '../repositories/track-repository.ts';
import { AnalysisWorker, type AnalysisWorkerOptions } from './analysis-worker.ts';

const ffmpegPath = locateFfmpeg().path;

async function lavfi(path: string, source: string): Promise<void> {
  await runFfmpeg(['-loglevel', 'error', '-y', '-f', 'lavfi', '-i', source, '-c:a', 'flac', path], {
    ffmpegPath,
    logger: silentLogger(),
    name: 'test audio',
  });
}

describe('AnalysisWorker', () => {
  let dir: string;
  let music: string;
  let handle: DbHandle;
  let bus: Bus;
  let library: Library;
  let tracks: TrackRepository;
  const workers: AnalysisWorker[] = [];

  function worker(options: Partial<AnalysisWorkerOptions> = {}): AnalysisWorker {
    const created = new AnalysisWorker({
      library,
      tracks,
      bus,
      ffmpegPath,
      logger: silentLogger(),
      ...options,
    });
    workers.push(created);
    return created;
  }

  async function state(): Promise<LibraryAnalysis | null> {
    return bus.getState('library-analysis');
  }

  const settled = (analysed: number, failed = 0) =>
    waitFor(`${analysed} analysed, ${failed} failed, idle`, async () => {
      const now = await state();
      return (
        now?.state === 'idle' &&
        now.pending === 0 &&
        now.analysed === analysed &&
        now.failed === failed &&
        now
      );
    });

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'analysis-worker-'));
    music = join(dir, 'music');
    for (const [name, frequency] of [
      ['one.mp3', 330],
      ['two.flac', 440],
      ['three.ogg', 550],
    ] as const) {
      const format = name.endsWith('.mp3') ? 'mp3' : name.endsWith('.flac') ? 'flac' : 'ogg';
      await generateTrack(
        join(music, name),
        { format, durationSeconds: 2, frequency },
        { ffmpegPath },
      );
    }
    handle = await createDb(`sqlite:${join(dir, 'radio.db')}`);
    await migrateToLatest(handle.db);
    bus = createMemoryBus({ logger: silentLogger() });
    tracks = new TrackRepository(handle.db);
    library = new Library({ root: music, tracks, logger: silentLogger(), watch: false });
    await library.start();
  });

  afterEach(async () => {
    for (const running of workers.splice(0)) await running.stop();
  });

  afterAll(async () => {
    await library?.stop();
    await bus?.close();
    await handle?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('measures the pending tracks into the row and the track in memory, once', async () => {
    const first = worker();
    await first.start();
    const done = await settled(3);
    expect(done.current).toEqual([]);
    expect(done.rate).toBeGreaterThan(0);
    expect(first.analysedCount).toBe(3);
    const one = library.byPath('one.mp3');
    expect(one?.analysis).toMatchObject({ status: 'done', cueIn: 0, error: null });
    expect(one?.analysis.loudness).toBeLessThan(-10);
    const row = await tracks.findById(one?.id as number);
    expect(row?.loudness).toBe(one?.analysis.loudness);
    expect(Number(row?.cue_out)).toBeGreaterThan(1.9);
    await first.stop();

    // A restart takes up nothing: every track was measured.
    const again = worker();
    await again.start();
    await settled(3);
    expect(again.analysedCount).toBe(0);
  });

  it('measures a new file the library reports, and marks what it cannot measure', async () => {
    const running = worker({ maxSeconds: 5 });
    await running.start();
    await generateTrack(
      join(music, 'new.flac'),
      { format: 'flac', durationSeconds: 2, frequency: 660 },
      { ffmpegPath },
    );
    await generateTrack(
      join(music, 'too long.flac'),
      { format: 'flac', durationSeconds: 8 },
      { ffmpegPath },
    );
    await lavfi(join(music, 'silent.flac'), 'anullsrc=r=44100:cl=stereo:d=3');
    await library.rescan().done;
    await settled(4, 2);
    expect(library.byPath('new.flac')?.analysis.status).toBe('done');
    expect(library.byPath('too long.flac')?.analysis).toMatchObject({
      status: 'failed',
      error: 'longer than 5 s',
      loudness: null,
    });
    expect(library.byPath('silent.flac')?.analysis).toMatchObject({
      status: 'failed',
      error: 'no audible audio: the file is silent throughout',
    });
    // Both still play.
    expect(library.tracks()).toHaveLength(6);
  });

  it('discards a measurement of a file replaced while it was analysed, and measures it again', async () => {
    const path = join(music, 'replaced.flac');
    // Long enough to be caught mid-analysis (a second or so); `sine` makes it fast.
    await lavfi(path, 'sine=f=440:r=44100:d=240');
    await library.rescan().done;
    const { logger, lines } = captureLogger();
    const running = worker({ logger, progressMs: 50 });
    await running.start();
    await waitFor('the analysis of replaced.flac', async () =>
      (await state())?.current.includes('replaced.flac'),
    );
    const later = new Date(Date.now() + 60_000);
    await utimes(path, later, later);
    await waitFor('the replaced file queued again', () =>
      lines.some((line) => line.msg === 'file changed while analysed; queued again'),
    );
    expect(library.byPath('replaced.flac')?.analysis.status).toBe('pending');
    // The library sees the change (the watch, here a rescan) and the file is measured again.
    await library.rescan().done;
    await settled(5, 2);
    expect(library.byPath('replaced.flac')?.analysis.status).toBe('done');
    expect(running.analysedCount).toBe(2);
  }, 60_000);
});
