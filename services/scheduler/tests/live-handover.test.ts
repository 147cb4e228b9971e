import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { type EventMessage, type LiveState, locateFfmpeg, locateFfprobe } from '@radio/core';
import { waitFor } from '@radio/core/testing';
import { decode, listen } from './helpers/listen.ts';
import {
  A_HZ,
  B_HZ,
  createDj,
  exited,
  ffmpegSource,
  startLiveStation,
  type TestDj,
  toneMarks,
  toneSequence,
} from './helpers/live.ts';
import type { TestStation } from './helpers/station.ts';

jest.setTimeout(240_000);

const ffprobePath = locateFfprobe(locateFfmpeg());

describe('live handovers', () => {
  let dir: string;
  let station: TestStation;
  let anna: TestDj;
  let ben: TestDj;
  let port: number;
  const events: EventMessage[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'live-handover-'));
    station = await startLiveStation(dir, { silenceSeconds: 3 });
    anna = await createDj(station.db, 'anna', { name: 'Anna', recordShows: true });
    ben = await createDj(station.db, 'ben', { name: 'Ben' });
    port = station.scheduler.livePort;
    station.bus.onEvent((event) => void events.push(event));
    await waitFor('the AutoDJ on air', () => station.scheduler.status().player.nowPlaying);
  });

  afterAll(async () => {
    await station?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  const liveState = (): Promise<LiveState | null> => station.bus.getState('live-state');
  const idle = () => waitFor('nobody live', async () => (await liveState())?.onAir === null);

  /** Listens from 2 s before `run` until 3 s after it resolves; the tones heard, in order. */
  async function heard(name: string, run: () => Promise<void>): Promise<string> {
    let done = 0;
    const capturing = listen(
      `${station.streamUrl}/radio.mp3`,
      60_000,
      () => done > 0 && Date.now() - done > 3000,
    );
    await new Promise((resolve) => setTimeout(resolve, 2000));
    await run();
    done = Date.now();
    const capture = await capturing;
    const marks = toneMarks(await decode(capture.audio, dir, name));
    process.stderr.write(`${name}: ${marks}\n`);
    return toneSequence(marks).replace(/^[AB]+/, '');
  }

  it('a silent DJ hands over to the AutoDJ and takes the air back when sound returns', async () => {
    const silentFrom = 2;
    const silentTo = 8;
    const tone = `aevalsrc=if(between(t\\,${silentFrom}\\,${silentTo})\\,0\\,0.5*sin(2*PI*${A_HZ}*t)):s=44100:d=11:c=stereo`;
    const sequence = await heard('silence', async () => {
      const source = spawn(locateFfmpeg().path, [
        ...['-hide_banner', '-loglevel', 'error', '-re', '-f', 'lavfi', '-i', tone],
        ...['-c:a', 'libmp3lame', '-b:a', '128k', '-f', 'mp3', '-content_type', 'audio/mpeg'],
        `icecast://${anna.username}:${anna.password}@127.0.0.1:${port}/live`,
      ]);
      await waitFor('silent', async () => (await liveState())?.silent === true, 20_000);
      await waitFor('resumed', async () => (await liveState())?.silent === false, 20_000);
      await exited(source);
      await idle();
    });
    expect(sequence).toBe('oAoAo');
    const types = events.map((e) => e.type);
    expect(types).toContain('live.silent');
    expect(types).toContain('live.resumed');
  });

  it('a second DJ waits, then takes over the moment the first leaves, with no AutoDJ between', async () => {
    let a: ChildProcess | null = null;
    let b: ChildProcess | null = null;
    const sequence = await heard('takeover', async () => {
      a = ffmpegSource(port, anna, A_HZ, 6);
      await waitFor('Anna on air', async () => (await liveState())?.onAir?.dj.id === anna.id);
      b = ffmpegSource(port, ben, B_HZ, 9);
      const waiting = await waitFor('Ben waiting', async () => {
        const state = await liveState();
        return state?.waiting[0]?.dj.id === ben.id && state;
      });
      expect(waiting.onAir?.dj.id).toBe(anna.id);
      const status = await station.command('live.status');
      expect(status).toContain('on_air: Anna');
      expect(status).toContain('waiting: Ben');
      await exited(a);
      await waitFor('Ben on air', async () => (await liveState())?.onAir?.dj.id === ben.id);
      await exited(b);
      await idle();
    });
    expect(sequence).toBe('oABo');
  });

  it('records the show of a DJ with record_shows: an MP3 as long as the show, and its row', async () => {
    const source = ffmpegSource(port, anna, A_HZ, 5);
    await waitFor('Anna recorded', async () => (await liveState())?.recording === true);
    await exited(source);
    await idle();
    const row = await waitFor('the show row completed', async () => {
      const shows = await station.db.db
        .selectFrom('live_shows')
        .selectAll()
        .where('user_id', '=', anna.id)
        .where('ended_at', 'is not', null)
        .orderBy('id', 'desc')
        .execute();
      const last = shows[0];
      return last?.recording_bytes ? last : undefined;
    });
    expect(row.recording_error).toBeNull();
    expect(row.dj_name).toBe('Anna');
    const file = join(dir, 'recordings', row.recording_file as string);
    const { stdout } = await promisify(execFile)(ffprobePath, [
      ...[
        '-v',
        'error',
        '-show_entries',
        'format=duration:stream=codec_name,bit_rate',
        '-of',
        'json',
        file,
      ],
    ]);
    const probe = JSON.parse(stdout) as {
      format: { duration: string };
      streams: { codec_name: string }[];
    };
    expect(probe.streams[0]?.codec_name).toBe('mp3');
    const showSeconds = (Date.parse(row.ended_at as string) - Date.parse(row.started_at)) / 1000;
    expect(Math.abs(Number(probe.format.duration) - showSeconds)).toBeLessThan(1);
  });

  it('real Liquidsoap output.icecast goes live and leaves', async () => {
    const script = join(dir, 'dj.liq');
    await writeFile(
      script,
      [
        'settings.init.allow_root.set(true)',
        'settings.log.stdout.set(true)',
        'settings.log.file.set(false)',
        `output.icecast(%mp3(bitrate=128), host="127.0.0.1", port=${port}, user="${ben.username}", password="${ben.password}", mount="live", sine(${A_HZ}.))`,
      ].join('\n'),
    );
    let log = '';
    const sequence = await heard('liquidsoap', async () => {
      const liquidsoap = spawn('liquidsoap', [script], { stdio: ['ignore', 'pipe', 'pipe'] });
      liquidsoap.stdout.on('data', (chunk: Buffer) => {
        log += chunk.toString();
      });
      try {
        await waitFor(
          'Liquidsoap on air',
          async () => (await liveState())?.onAir?.dj.id === ben.id,
          30_000,
        );
        await new Promise((resolve) => setTimeout(resolve, 4000));
      } finally {
        liquidsoap.kill('SIGTERM');
        await exited(liquidsoap);
      }
      await idle();
    }).catch((error: unknown) => {
      process.stderr.write(`liquidsoap log:\n${log}\n`);
      throw error;
    });
    expect(sequence).toBe('oAo');
  });
});
