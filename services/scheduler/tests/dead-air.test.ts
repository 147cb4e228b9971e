import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { DeadAir, NowPlaying } from '@radio/core';
import { generateTrack, writeCorruptFile } from '@radio/core/test-audio';
import { waitFor } from '@radio/core/testing';
import { decode, listen, rmsWindows } from './helpers/listen.ts';
import { ADMIN, ffmpegPath, TestStation } from './helpers/station.ts';

jest.setTimeout(90_000);

const MOUNTS = ['/radio.mp3', '/radio.aac', '/radio-low.mp3'];
const FALLBACK_TITLE = 'Radio: no music to play — add files to the music folder';

/** `playout.status` as a map of its `key: value` lines. */
async function playoutStatus(station: TestStation): Promise<Record<string, string>> {
  const answer = await station.command('playout.status');
  return Object.fromEntries(
    answer.split(/\r?\n/).map((line) => {
      const at = line.indexOf(': ');
      return [line.slice(0, at), line.slice(at + 2)];
    }),
  );
}

describe('the dead-air guard (DEAD_AIR_SECONDS=3)', () => {
  let station: TestStation;
  const onAir: { title: string | null; startedAt: number }[] = [];
  const deadAir: DeadAir[] = [];

  beforeAll(async () => {
    station = await TestStation.start({ trackSeconds: 3, scheduler: { deadAirSeconds: 3 } });
    station.bus.onEvent(
      (event) => {
        if (event.type === 'playout.dead_air') deadAir.push(event.payload as DeadAir);
        else onAir.push(event.payload as NowPlaying);
      },
      ['player.now-playing', 'playout.dead_air'],
    );
    await generateTrack(
      join(station.music, 'quiet', 'Silent Track.flac'),
      { format: 'flac', durationSeconds: 30, amplitude: 0, tags: { title: 'Silent Track' } },
      { ffmpegPath },
    );
  });

  afterAll(async () => {
    await station?.stop();
  });

  it('skips a 30 s silent track after DEAD_AIR_SECONDS of its silence', async () => {
    await station.command('request.push quiet/Silent Track.flac');
    const silent = await waitFor(
      'the silent track on air',
      () => onAir.find((item) => item.title === 'Silent Track'),
      20_000,
    );
    const next = await waitFor(
      'the track after it',
      () => onAir[onAir.indexOf(silent) + 1],
      20_000,
    );
    const delaySeconds = (next.startedAt - silent.startedAt) / 1000;
    process.stderr.write(`dead air: the next track started ${delaySeconds.toFixed(2)} s after\n`);
    expect(delaySeconds).toBeGreaterThanOrEqual(3);
    // Counted in the output's own audio, so exact whatever the machine's load: the first whole
    // 100 ms window past the limit. The wall-clock delay above is printed, not asserted.
    expect(deadAir).toEqual([
      {
        silentSeconds: 3.1,
        trackId: expect.any(Number),
        title: 'Silent Track',
        action: 'skipped',
      },
    ]);
    expect((await playoutStatus(station)).dead_air_skips).toBe('1');
  });
});

describe('an empty music folder', () => {
  let station: TestStation;
  let staging: string;
  let startedAt: number;
  let readyAt: number;

  beforeAll(async () => {
    staging = await mkdtemp(join(tmpdir(), 'dead-air-staging-'));
    await generateTrack(
      join(staging, 'first.flac'),
      { format: 'flac', durationSeconds: 6, tags: { title: 'First Song' } },
      { ffmpegPath },
    );
    startedAt = Date.now();
    station = await TestStation.start({ emptyLibrary: true });
    readyAt = Date.now();
  });

  afterAll(async () => {
    await station?.stop();
    await rm(staging, { recursive: true, force: true });
  });

  it('puts the fallback on all three mounts at start, and says why', async () => {
    // Each mount switches its title when the fallback's first audio leaves for the server.
    await waitFor('the fallback title on every mount', () =>
      station.scheduler.status().mounts.every((mount) => mount.title === FALLBACK_TITLE),
    );
    const seconds = (Date.now() - startedAt) / 1000;
    process.stderr.write(
      `fallback: on every mount ${seconds.toFixed(2)} s after start (the station was up at ${((readyAt - startedAt) / 1000).toFixed(2)} s)\n`,
    );

    const captures = await Promise.all(
      MOUNTS.map((mount) => listen(`${station.streamUrl}${mount}`, 3000)),
    );
    for (const [index, capture] of captures.entries()) {
      expect(capture.titles.map((title) => title.title)).toContain(FALLBACK_TITLE);
      const pcm = await decode(capture.audio, station.dir, `fallback-${index}`);
      // The chime rings, then fades: its loudest 100 ms are well above silence.
      expect(Math.max(...rmsWindows(pcm, 0.1))).toBeGreaterThan(-35);
    }

    // The stream server's admin page shows it beside each mount.
    const admin = await fetch(`${station.streamUrl}/admin/`, {
      headers: {
        authorization: `Basic ${Buffer.from(`${ADMIN.user}:${ADMIN.password}`).toString('base64')}`,
      },
    });
    expect(await admin.text()).toContain(FALLBACK_TITLE);
    expect(await playoutStatus(station)).toMatchObject({
      state: 'playing',
      on_air: 'fallback',
      fallback_reason: 'empty-library',
    });
    const state = await station.bus.getState('player-state');
    expect(state?.fallback?.reason).toBe('empty-library');
    expect(station.scheduler.status().player.fallback?.reason).toBe('empty-library');
  });

  it('says so when the files there cannot be played', async () => {
    await writeCorruptFile(join(station.music, 'broken.mp3'));
    await waitFor('the fallback reason changed', async () => {
      const status = await playoutStatus(station);
      return status.on_air === 'fallback' && status.fallback_reason === 'no-playable-tracks';
    });
    await waitFor('the new title on every mount', () =>
      station.scheduler
        .status()
        .mounts.every(
          (mount) =>
            mount.title === 'Radio: no playable music — check the files in the music folder',
        ),
    );
  });

  it('plays a file added then, and the fallback steps aside', async () => {
    await copyFile(join(staging, 'first.flac'), join(station.music, 'first.flac'));
    await waitFor(
      'the new track on every mount',
      () => station.scheduler.status().mounts.every((mount) => mount.title === 'First Song'),
      20_000,
    );
    expect(await playoutStatus(station)).toMatchObject({
      on_air: 'track',
      fallback: 'none',
      fallback_reason: 'none',
    });
    expect((await station.bus.getState('player-state'))?.fallback ?? null).toBeNull();
  });
});
