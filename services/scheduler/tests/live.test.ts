import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { LiveState } from '@radio/core';
import { waitFor } from '@radio/core/testing';
import { type Capture, decode, listen } from './helpers/listen.ts';
import {
  A_HZ,
  basic,
  createDj,
  exited,
  ffmpegSource,
  startLiveStation,
  type TestDj,
  toneMarks,
  toneSequence,
} from './helpers/live.ts';
import type { TestStation } from './helpers/station.ts';

jest.setTimeout(180_000);

const LIVE_SECONDS = 5;

describe('the live input with source clients', () => {
  let dir: string;
  let station: TestStation;
  let dj: TestDj;
  let port: number;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'live-'));
    station = await startLiveStation(dir);
    dj = await createDj(station.db, 'anna', { name: 'Anna' });
    port = station.scheduler.livePort;
    await waitFor('the AutoDJ on air', () => station.scheduler.status().player.nowPlaying);
  });

  afterAll(async () => {
    await station?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  const liveState = (): Promise<LiveState | null> => station.bus.getState('live-state');

  /** A listener across a whole show of `start()`; the tones it heard in order. */
  async function show(start: () => ChildProcess, during?: () => Promise<void>) {
    const started = Date.now();
    let source: ChildProcess | null = null;
    let left = 0;
    const capturing = listen(
      `${station.streamUrl}/radio.mp3`,
      40_000,
      () => left > 0 && Date.now() - left > 3000,
    );
    await new Promise((resolve) => setTimeout(resolve, 2000));
    source = start();
    await waitFor('the DJ on air', async () => (await liveState())?.onAir?.dj.id === dj.id);
    await during?.();
    const code = await exited(source);
    left = Date.now();
    await waitFor('the DJ gone', async () => (await liveState())?.onAir === null);
    const capture: Capture = await capturing;
    const pcm = await decode(capture.audio, dir, `show-${started}`);
    const heardSeconds = pcm.length / 2 / 44_100;
    const marks = toneMarks(pcm);
    process.stderr.write(`live show marks: ${marks}\n`);
    // The stream server's burst may start the capture with the end of the previous show.
    const sequence = toneSequence(marks).replace(/^[AB]+/, '');
    return {
      capture,
      code,
      marks,
      sequence,
      heardSeconds,
      wallSeconds: (Date.now() - started) / 1000,
    };
  }

  it('ffmpeg with PUT goes live: the listener hears the AutoDJ, the DJ, then the AutoDJ, never cut off', async () => {
    const result = await show(() => ffmpegSource(port, dj, A_HZ, LIVE_SECONDS));
    expect(result.code).toBe(0);
    expect(result.capture.status).toBe(200);
    expect(result.sequence).toBe('oAo');
    // The listener stayed connected for the whole show (the capture is as long as the wait).
    expect(result.heardSeconds).toBeGreaterThan(result.wallSeconds - 3);
    expect(result.capture.titles.map((t) => t.title)).toContain('Live: Anna');
  });

  it('ffmpeg with -legacy_icecast 1 (SOURCE) goes live', async () => {
    const args = [
      '-c:a',
      'libmp3lame',
      '-b:a',
      '128k',
      '-f',
      'mp3',
      '-content_type',
      'audio/mpeg',
      '-legacy_icecast',
      '1',
    ];
    const result = await show(() => ffmpegSource(port, dj, A_HZ, LIVE_SECONDS, args));
    expect(result.sequence).toBe('oAo');
  });

  it('ffmpeg sending Ogg/Opus goes live, titled by the comment header in its stream', async () => {
    const args = [
      ...['-c:a', 'libopus', '-b:a', '96k', '-f', 'ogg', '-content_type', 'application/ogg'],
      ...['-metadata', 'title=Ogg Set', '-metadata', 'artist=Anna'],
    ];
    const result = await show(() => ffmpegSource(port, dj, A_HZ, LIVE_SECONDS, args));
    expect(result.sequence).toBe('oAo');
    expect(result.capture.titles.map((t) => t.title)).toContain('Anna - Ogg Set');
  });

  it.each([
    ['AAC (ADTS)', ['-c:a', 'aac', '-b:a', '96k', '-f', 'adts', '-content_type', 'audio/aac']],
    [
      'WebM/Opus',
      [
        '-c:a',
        'libopus',
        '-f',
        'webm',
        '-cluster_time_limit',
        '200',
        '-content_type',
        'audio/webm',
      ],
    ],
  ])('ffmpeg sending %s goes live', async (_name, args) => {
    const result = await show(() => ffmpegSource(port, dj, A_HZ, LIVE_SECONDS, args));
    expect(result.sequence).toBe('oAo');
  });

  it('updinfo on the live port sets the title on the mounts and in now-playing', async () => {
    const result = await show(
      () => ffmpegSource(port, dj, A_HZ, LIVE_SECONDS),
      async () => {
        const url = `http://127.0.0.1:${port}/admin/metadata?mode=updinfo&mount=/live&song=${encodeURIComponent('Anna - Late Set')}`;
        const response = await fetch(url, {
          headers: { authorization: basic(dj.username, dj.password) },
        });
        expect(response.status).toBe(200);
        await waitFor('now-playing follows', async () => {
          const np = await station.bus.getState('now-playing');
          return np?.source === 'live' && np.title === 'Anna - Late Set';
        });
      },
    );
    expect(result.capture.titles.map((t) => t.title)).toContain('Anna - Late Set');
    const np = await waitFor('now-playing back to the AutoDJ', async () => {
      const value = await station.bus.getState('now-playing');
      return value && value.source !== 'live' ? value : undefined;
    });
    expect(np.source).not.toBe('live');
  });
});
