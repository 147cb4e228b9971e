import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { runFfmpeg, silentLogger } from '@radio/core';
import { waitFor } from '@radio/core/testing';
import { decode, listen, silences } from './helpers/listen.ts';
import { ffmpegPath, TestStation } from './helpers/station.ts';

jest.setTimeout(150_000);

const TONE_SECONDS = 3;
const LEAD_SECONDS = 4;
const TAIL_SECONDS = 6;
const PADDED_HZ = 500;
const PLAIN_HZ = 800;
const WINDOW = 0.02;

/** A stereo tone of `hz` between `from` and `from + TONE_SECONDS`, silence around it. */
async function track(path: string, title: string, hz: number, from: number, total: number) {
  const until = from + TONE_SECONDS;
  await runFfmpeg(
    [
      '-loglevel',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      `aevalsrc=if(between(t\\,${from}\\,${until})\\,0.3*sin(2*PI*${hz}*t)\\,0):s=44100:d=${total}:c=stereo`,
      '-metadata',
      `title=${title}`,
      path,
    ],
    { ffmpegPath, logger: silentLogger(), name: 'test track' },
  );
}

/** The level of one frequency in a window of a mono signal (Goertzel), linear. */
function toneLevel(pcm: Int16Array, start: number, size: number, hz: number): number {
  const k = 2 * Math.cos((2 * Math.PI * hz) / 44_100);
  let s1 = 0;
  let s2 = 0;
  for (let i = start; i < start + size; i++) {
    const s0 = (pcm[2 * i] as number) / 32_768 + k * s1 - s2;
    s2 = s1;
    s1 = s0;
  }
  return Math.sqrt(s1 * s1 + s2 * s2 - k * s1 * s2) / (size / 2);
}

/** Which tone each WINDOW of the capture holds: 'P' (padded track), 'N' (plain), or '-'. */
function toneWindows(pcm: Int16Array): string {
  const size = Math.round(WINDOW * 44_100);
  let marks = '';
  for (let start = 0; start + size <= pcm.length / 2; start += size) {
    const padded = toneLevel(pcm, start, size, PADDED_HZ);
    const plain = toneLevel(pcm, start, size, PLAIN_HZ);
    const loudest = Math.max(padded, plain);
    marks += loudest < 0.01 ? '-' : padded > plain ? 'P' : 'N';
  }
  return marks;
}

describe('transitions at the listener (CROSSFADE_SECONDS 0)', () => {
  let dir: string;
  let station: TestStation;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'transitions-'));
    const music = join(dir, 'music');
    await mkdir(music);
    const padded = LEAD_SECONDS + TONE_SECONDS + TAIL_SECONDS;
    await track(join(music, 'padded.flac'), 'Padded', PADDED_HZ, LEAD_SECONDS, padded);
    await track(join(music, 'plain.flac'), 'Plain', PLAIN_HZ, 0, TONE_SECONDS);
    station = await TestStation.start({
      crossfadeSeconds: 0,
      reuse: { dir, fixtures: { dir: music, valid: [], corrupt: '', empty: '' } },
    });
  });

  afterAll(async () => {
    await station?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('cuts the leading and trailing silence: no gap, nothing audible lost', async () => {
    await waitFor('both tracks analysed', async () => {
      const state = await station.bus.getState('library-analysis');
      return state?.pending === 0 && state.analysed === 2;
    });
    // Two changes of track: what plays from then on was decoded with its cue points.
    for (let change = 0; change < 2; change++) {
      const before = station.scheduler.status().player.nowPlaying?.startedAt;
      await waitFor(
        'the next track',
        () => station.scheduler.status().player.nowPlaying?.startedAt !== before,
        20_000,
      );
    }
    const capture = await listen(`${station.streamUrl}/radio.mp3`, 16_000);
    // Gaps: any silence but the first MP3 frames of a stream joined mid-way (see playout.test).
    const gaps = (await silences(capture.audio, dir, 'gaps', -50, 0.02)).filter(
      (silence) => silence.start > 0.1,
    );
    const marks = toneWindows(await decode(capture.audio, dir, 'tones'));
    process.stderr.write(`transitions: gaps ${JSON.stringify(gaps)}\n${marks}\n`);
    expect(gaps.every((gap) => gap.duration < 0.1)).toBe(true);
    // Every whole stretch of one tone lasts a whole number of tones (a track may repeat).
    const runs = [...marks.matchAll(/P+|N+|-+/g)].slice(1, -1).map((run) => run[0]);
    expect(runs.filter((run) => run.startsWith('P')).length).toBeGreaterThanOrEqual(1);
    expect(runs.filter((run) => run.startsWith('N')).length).toBeGreaterThanOrEqual(1);
    for (const run of runs) {
      expect(run.startsWith('-')).toBe(false);
      const seconds = run.length * WINDOW;
      const tones = Math.round(seconds / TONE_SECONDS);
      expect(tones).toBeGreaterThanOrEqual(1);
      expect(Math.abs(seconds - tones * TONE_SECONDS)).toBeLessThan(0.1);
    }
  });
});
