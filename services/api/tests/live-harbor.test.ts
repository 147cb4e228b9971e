/**
 * The go-live WebSocket against the real live input: a DJ's browser-like client sends WebM/Opus
 * over the api's WebSocket, the real scheduler's live input takes it with the one-time token
 * (spent), puts the DJ on air and records the show, which the api then lists and serves.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  type Bus,
  createRedisBus,
  type LiveState,
  locateFfmpeg,
  locateFfprobe,
  silentLogger,
} from '@radio/core';
import { freePort, waitFor } from '@radio/core/testing';
import type { DbHandle } from '@radio/db';
import { createScheduler, type Scheduler } from '@radio/scheduler';
import request from 'supertest';
import WebSocket from 'ws';
import { REDIS_URL, ROUTE_SETUPS } from './helpers/databases.ts';
import {
  type Agent,
  BASE,
  createUser,
  login,
  PASSWORD,
  startTestApi,
  type TestApi,
} from './helpers/test-api.ts';

const run = promisify(execFile);
const SHOW_SECONDS = 4;

/** What MediaRecorder sends: Opus in WebM, here a tone made by ffmpeg. */
async function webmTone(dir: string): Promise<Buffer> {
  const file = join(dir, 'tone.webm');
  await run(locateFfmpeg().path, [
    '-hide_banner',
    '-loglevel',
    'error',
    '-f',
    'lavfi',
    '-i',
    `sine=f=880:d=${SHOW_SECONDS}`,
    '-c:a',
    'libopus',
    '-b:a',
    '64k',
    '-f',
    'webm',
    file,
  ]);
  return readFile(file);
}

describe.each(ROUTE_SETUPS)(
  'going live through the api into the live input ($dialect)',
  (setup) => {
    let t: TestApi;
    let scheduler: Scheduler;
    let schedulerBus: Bus;
    let schedulerDb: DbHandle;
    let dir: string;
    let dj: Agent;
    let djId: number;
    let cookie: string;

    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'radio-live-harbor-'));
      const livePort = await freePort();
      t = await startTestApi(
        setup,
        { liveUrl: `http://127.0.0.1:${livePort}` },
        { scheduler: false, bus: 'redis' },
      );
      schedulerDb = await t.database.open();
      schedulerBus = await createRedisBus({
        url: REDIS_URL,
        logger: silentLogger(),
        prefix: t.redis?.prefix ?? '',
      });
      scheduler = createScheduler(
        {
          musicDir: t.musicDir,
          dataDir: t.dataDir,
          // No stream server: the live input and the recording need none.
          streamUrl: 'http://127.0.0.1:9',
          sourcePassword: 'not-used',
          controlHost: '127.0.0.1',
          controlPort: 0,
          crossfadeSeconds: 0,
          ffmpegPath: locateFfmpeg().path,
          live: { host: '127.0.0.1', port: livePort, fadeSeconds: 0.3, silenceSeconds: 5 },
        },
        { db: schedulerDb, bus: schedulerBus, logger: silentLogger() },
      );
      await scheduler.start();

      await createUser(t.db, 'boss', 'admin');
      const user = await createUser(t.db, 'anna', 'dj');
      djId = user.id;
      const admin = await login(t.app, 'boss');
      const created = await admin
        .post(`${BASE}/dj-accounts`)
        .send({ userId: djId, displayName: 'Anna Live', recordShows: true });
      expect(created.status).toBe(201);
      dj = await login(t.app, 'anna');
      const res = await request(t.app)
        .post(`${BASE}/auth/login`)
        .send({ username: 'anna', password: PASSWORD });
      cookie = (res.headers['set-cookie'] as unknown as string[])
        .map((c) => c.split(';')[0])
        .join('; ');
    }, 60_000);

    afterAll(async () => {
      await scheduler?.close();
      await schedulerBus?.close();
      await schedulerDb?.close();
      await t?.close();
      await rm(dir, { recursive: true, force: true });
    }, 30_000);

    it("puts the browser's WebM/Opus on air with a spent token, and the show's recording is served", async () => {
      const audio = await webmTone(dir);
      const ws = new WebSocket(`${t.api.url.replace(/^http/, 'ws')}${BASE}/live/ws`, {
        headers: { cookie, origin: t.api.url },
      });
      const messages: { type: string }[] = [];
      ws.on('message', (data) => messages.push(JSON.parse(String(data))));
      const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
      await waitFor('the live input to take the source', () => {
        if (messages.some((m) => m.type === 'refused')) throw new Error(JSON.stringify(messages));
        return messages.some((m) => m.type === 'connected');
      });

      // As MediaRecorder does: a chunk every 200 ms, in real time.
      const chunks = SHOW_SECONDS * 5;
      const size = Math.ceil(audio.length / chunks);
      for (let i = 0; i < chunks; i++) {
        ws.send(audio.subarray(i * size, (i + 1) * size));
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      const live = await waitFor('the DJ on air with bytes in', async () => {
        const state = (await request(t.app).get(`${BASE}/live`)).body as LiveState;
        return state.onAir && state.onAir.bytesIn > 0 ? state : undefined;
      });
      expect(live.onAir).toMatchObject({ dj: { id: djId, name: 'Anna Live' }, format: 'webm' });
      expect(live.recording).toBe(true);
      const token = await t.db.db
        .selectFrom('live_tokens')
        .selectAll()
        .where('user_id', '=', djId)
        .executeTakeFirstOrThrow();
      expect(token.used).toBe(1);

      ws.close(1000);
      expect(await closed).toBe(1000);
      await waitFor('the live input empty again', async () => {
        const after = (await request(t.app).get(`${BASE}/live`)).body as LiveState;
        return after.onAir === null ? true : undefined;
      });

      const recordings = await waitFor('the show listed with its end', async () => {
        const page = (await dj.get(`${BASE}/recordings`)).body as {
          items: { id: number; endedAt: string | null }[];
        };
        return page.items[0]?.endedAt ? page.items : undefined;
      });
      expect(recordings).toHaveLength(1);
      const file = await dj.get(`${BASE}/recordings/${recordings[0]?.id}/file`).buffer(true);
      expect(file.status).toBe(200);
      const mp3 = join(dir, 'show.mp3');
      await writeFile(mp3, file.body as Buffer);
      const { stdout } = await run(locateFfprobe(locateFfmpeg()), [
        '-v',
        'error',
        '-show_entries',
        'format=format_name,duration',
        '-of',
        'json',
        mp3,
      ]);
      const format = (JSON.parse(stdout) as { format: { format_name: string; duration: string } })
        .format;
      expect(format.format_name).toBe('mp3');
      expect(Number(format.duration)).toBeGreaterThan(1);
    }, 60_000);
  },
);
