import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { type Bus, createMemoryBus, silentLogger } from '@radio/core';
import { generateTestLibrary } from '@radio/core/test-audio';
import { RealIcecast, waitFor } from '@radio/core/testing';
import { createDb, type DbHandle, migrateToLatest } from '@radio/db';
import { createScheduler, type Scheduler } from '../src/index.ts';
import { ControlClient } from './helpers/control-client.ts';
import { ffprobe, listen } from './helpers/listen.ts';
import { ADMIN, ffmpegPath, SOURCE_PASSWORD } from './helpers/station.ts';

jest.setTimeout(90_000);

interface IcecastSource {
  listenurl: string;
  server_type?: string;
  server_name?: string;
  title?: string;
  audio_info?: string;
}

async function sources(url: string): Promise<IcecastSource[]> {
  const res = await fetch(`${url}/status-json.xsl`);
  const body = (await res.json()) as { icestats: { source?: IcecastSource | IcecastSource[] } };
  const source = body.icestats.source;
  return source === undefined ? [] : Array.isArray(source) ? source : [source];
}

describe('against a real Icecast 2.4', () => {
  let icecast: RealIcecast | null = null;
  let dir: string;
  let db: DbHandle;
  let bus: Bus;
  let scheduler: Scheduler;

  const command = async (line: string): Promise<string> => {
    const client = await ControlClient.connect(scheduler.controlPort);
    try {
      return await client.command(line);
    } finally {
      client.close();
    }
  };

  beforeAll(async () => {
    icecast = await RealIcecast.start({
      sourcePassword: SOURCE_PASSWORD,
      adminUser: ADMIN.user,
      adminPassword: ADMIN.password,
    });
    if (!icecast) return;
    dir = await mkdtemp(join(tmpdir(), 'sched-icecast-'));
    await generateTestLibrary(join(dir, 'music'), { ffmpegPath, durationSeconds: 6 });
    db = await createDb(`sqlite:${join(dir, 'radio.db')}`);
    await migrateToLatest(db.db);
    bus = createMemoryBus({ logger: silentLogger() });
    scheduler = createScheduler(
      {
        musicDir: join(dir, 'music'),
        streamUrl: icecast.url,
        sourcePassword: SOURCE_PASSWORD,
        controlPort: 0,
        crossfadeSeconds: 1,
        ffmpegPath,
        station: { name: 'Test Radio', description: 'A test', genre: 'Tests', public: false },
      },
      { db, bus, logger: silentLogger() },
    );
    await scheduler.start();
  });

  afterAll(async () => {
    await scheduler?.close();
    await bus?.close();
    await db?.close();
    await icecast?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('is a good Icecast source: three mounts with their types, names and titles', async () => {
    if (!icecast) {
      process.stderr.write('icecast2 is not available here (or not root); skipped\n');
      return;
    }
    const url = icecast.url;
    const mounts = await waitFor('three sources with titles', async () => {
      const list = await sources(url);
      return list.length === 3 && list.every((s) => s.title) ? list : undefined;
    });
    const byMount = new Map(mounts.map((s) => [new URL(s.listenurl).pathname, s]));
    expect(byMount.get('/radio.mp3')).toMatchObject({
      server_type: 'audio/mpeg',
      server_name: 'Test Radio',
    });
    expect(byMount.get('/radio.aac')).toMatchObject({
      server_type: 'audio/aac',
      server_name: 'Test Radio (AAC)',
    });
    expect(byMount.get('/radio-low.mp3')).toMatchObject({
      server_type: 'audio/mpeg',
      server_name: 'Test Radio (low)',
    });
    expect(byMount.get('/radio.mp3')?.audio_info).toContain('bitrate=128');
    const mp3 = await listen(`${url}/radio.mp3`, 3000);
    expect(mp3.headers['icy-metaint']).toBeDefined();
    expect((await ffprobe(mp3.audio, dir, 'ice-mp3')).bit_rate).toBe('128000');
    const aac = await listen(`${url}/radio.aac`, 3000);
    expect(await ffprobe(aac.audio, dir, 'ice-aac')).toMatchObject({
      codec_name: 'aac',
      profile: 'LC',
    });
  });

  it('sets the stream title at Icecast when a request goes on air', async () => {
    if (!icecast) return;
    const rid = await command('request.push Beta Trio/Waves/01 - Tide.flac');
    expect(await command('request.skip')).toBe('Done.');
    await waitFor('the request on air', async () =>
      (await command('request.on_air')).startsWith(`${rid} `),
    );
    const capture = await listen(`${icecast.url}/radio.mp3`, 8000, (c) =>
      c.titles.some((t) => t.title === 'Beta Trio - Tide'),
    );
    expect(capture.titles.map((t) => t.title)).toContain('Beta Trio - Tide');
  });

  it('reconnects all mounts after Icecast restarts', async () => {
    if (!icecast) return;
    const before = scheduler.status().mounts.map((m) => m.connects);
    await icecast.restart();
    const url = icecast.url;
    await waitFor(
      'every mount back',
      async () =>
        scheduler
          .status()
          .mounts.every((m, i) => m.connected && m.connects > (before[i] as number)) &&
        (await sources(url)).length === 3,
      15_000,
    );
    const capture = await listen(`${url}/radio-low.mp3`, 2000);
    expect(capture.status).toBe(200);
    expect(capture.audio.length).toBeGreaterThan(4000);
  });
});
