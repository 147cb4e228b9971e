import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { createLogger, type LibraryAnalysis } from '@radio/core';
import { generateTrack } from '@radio/core/test-audio';
import { type LogLine, waitFor } from '@radio/core/testing';
import { listen, silences } from './helpers/listen.ts';
import { ffmpegPath, TestStation } from './helpers/station.ts';

// The analysis yields to playout: on a loaded machine 200 files take well over a minute.
jest.setTimeout(240_000);

const FILES = 200;
/** The stream server's burst to a new listener: 64 KiB, 4 s of the 128 kbit/s mount, and a margin. */
const BURST_SECONDS = 5;
const TONES = [330, 415, 494, 587];

/**
 * 200 distinct short files, fast: four generated tones, each copied under 50 names (a copy is
 * a file of its own to the library and the analysis).
 */
async function twoHundredFiles(music: string): Promise<string[]> {
  const originals = await Promise.all(
    TONES.map((frequency) =>
      generateTrack(
        join(music, `tone ${frequency}.mp3`),
        { format: 'mp3', durationSeconds: 1.5, frequency, tags: { title: `Tone ${frequency}` } },
        { ffmpegPath },
      ),
    ),
  );
  const paths = TONES.map((frequency) => `tone ${frequency}.mp3`);
  for (let i = paths.length; i < FILES; i++) {
    const folder = `set ${Math.floor(i / 50)}`;
    await mkdir(join(music, folder), { recursive: true });
    const path = `${folder}/copy ${i}.mp3`;
    await copyFile(originals[i % originals.length] as string, join(music, path));
    paths.push(path);
  }
  return paths;
}

describe('background analysis on a playing station', () => {
  let dir: string;
  let station: TestStation;
  const lines: LogLine[] = [];
  const analysed = () => lines.filter((line) => line.msg === 'track analysed').length;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sched-analysis-'));
    const music = join(dir, 'music');
    const valid = await twoHundredFiles(music);
    const logger = createLogger({
      service: 'test',
      level: 'info',
      destination: new Writable({
        write(chunk: Buffer, _encoding, done) {
          for (const line of chunk.toString().split('\n')) {
            if (line.trim()) lines.push(JSON.parse(line) as LogLine);
          }
          done();
        },
      }),
    });
    station = await TestStation.start({
      crossfadeSeconds: 0,
      logger,
      reuse: { dir, fixtures: { dir: music, valid, corrupt: '', empty: '' } },
    });
  });

  afterAll(async () => {
    await station?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('analyses 200 files while the station plays with no underrun; a restart analyses none again', async () => {
    const states: LibraryAnalysis[] = [];
    let finished = false;
    await waitFor('the station on air', () => station.scheduler.status().player.nowPlaying);
    // Until the scan indexes the first file the fallback chime plays, and its rests between
    // rounds are silences: let the burst a new listener gets hold music only.
    await new Promise((resolve) => setTimeout(resolve, BURST_SECONDS * 1000));
    const capturing = listen(`${station.streamUrl}/radio.mp3`, 170_000, () => finished);
    const startedAt = Date.now();
    const done = await waitFor(
      '200 tracks analysed',
      async () => {
        const state = await station.bus.getState('library-analysis');
        if (state) states.push(state);
        return state?.state === 'idle' && state.pending === 0 && state.analysed === FILES && state;
      },
      160_000,
    );
    process.stderr.write(
      `analysis: ${FILES} files in ${((Date.now() - startedAt) / 1000).toFixed(1)} s, ${done.rate} s of audio per second\n`,
    );
    finished = true;
    const capture = await capturing;

    // Progress showed while it ran, then the end.
    expect(states.some((state) => state.state === 'running' && state.current.length > 0)).toBe(
      true,
    );
    expect(done).toMatchObject({ failed: 0, current: [] });
    expect(done.rate).toBeGreaterThan(0);
    expect(analysed()).toBe(FILES);

    // No underrun: the clock kept time and the listener heard no gap between the tones.
    const warnings = lines.filter((line) => line.level === 'warn' || line.level === 'error');
    expect(warnings.filter((line) => /fell behind/.test(line.msg))).toEqual([]);
    expect(capture.status).toBe(200);
    expect(capture.audio.length).toBeGreaterThan((128_000 / 8) * 4);
    const gaps = (await silences(capture.audio, dir, 'analysis', -50, 0.02)).filter(
      (silence) => silence.start > 0.1,
    );
    if (gaps.length > 0) {
      process.stderr.write(`gaps ${JSON.stringify(gaps)}\n${JSON.stringify(warnings)}\n`);
    }
    expect(gaps).toEqual([]);

    const stamps = async () =>
      station.db.db.selectFrom('tracks').select(['id', 'analyzed_at']).orderBy('id').execute();
    const before = await stamps();
    await station.restartScheduler();
    await waitFor('the analysis idle after the restart', async () => {
      const state = await station.bus.getState('library-analysis');
      return state?.state === 'idle' && state.pending === 0 && state.analysed === FILES;
    });
    expect(analysed()).toBe(FILES);
    expect(await stamps()).toEqual(before);
  });
});
