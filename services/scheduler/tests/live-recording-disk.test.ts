/**
 * A recording on a disk that fills up mid-show (DATA_DIR/recordings on a small tmpfs): the
 * recording stops with an error logged and written with the show, the DJ stays on air. Needs
 * root to mount the tmpfs; elsewhere it says so and checks nothing.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { LiveState } from '@radio/core';
import { waitFor } from '@radio/core/testing';
import { A_HZ, createDj, exited, ffmpegSource, startLiveStation } from './helpers/live.ts';
import type { TestStation } from './helpers/station.ts';

jest.setTimeout(120_000);

const run = promisify(execFile);

describe('a full disk under a recorded show', () => {
  let dir: string;
  let recordings: string;
  let station: TestStation;
  let mounted = false;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'live-disk-'));
    recordings = join(dir, 'recordings');
    await mkdir(recordings);
    if (process.getuid?.() === 0) {
      // Just over the 64 MB a recording needs free to start.
      mounted = await run('mount', ['-t', 'tmpfs', '-o', 'size=66m', 'tmpfs', recordings]).then(
        () => true,
        () => false,
      );
    }
    station = await startLiveStation(dir);
  });

  afterAll(async () => {
    await station?.stop();
    if (mounted) await run('umount', [recordings]);
    await rm(dir, { recursive: true, force: true });
  });

  it('stops the recording with an error, never the show', async () => {
    if (!mounted) {
      process.stdout.write(
        '[live-recording-disk] no tmpfs can be mounted here (needs root): skipped\n',
      );
      return;
    }
    const dj = await createDj(station.db, 'dora', { name: 'Dora', recordShows: true });
    const liveState = (): Promise<LiveState | null> => station.bus.getState('live-state');
    const source = ffmpegSource(station.scheduler.livePort, dj, A_HZ, 12);
    await waitFor('recording', async () => (await liveState())?.recording === true);
    // Fill the disk: dd stops at ENOSPC.
    await run('dd', ['if=/dev/zero', `of=${join(recordings, 'filler')}`, 'bs=1M']).catch(() => {});
    await waitFor('the recording stopped', async () => (await liveState())?.recording === false);
    expect((await liveState())?.onAir?.dj.id).toBe(dj.id);
    expect(station.warnings.some((line) => line.includes('the show recording stopped'))).toBe(true);
    await exited(source);
    const row = await waitFor('the show ended', async () =>
      station.db.db
        .selectFrom('live_shows')
        .selectAll()
        .where('user_id', '=', dj.id)
        .where('ended_at', 'is not', null)
        .executeTakeFirst(),
    );
    expect(row.recording_error).toMatch(/recording stopped/);
    // The show ran its whole length: the source's 12 s, not cut when the disk filled.
    const seconds = (Date.parse(row.ended_at as string) - Date.parse(row.started_at)) / 1000;
    expect(seconds).toBeGreaterThan(10);
  });
});
