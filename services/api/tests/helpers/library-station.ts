import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { type Bus, createRedisBus, locateFfmpeg, locateFfprobe, silentLogger } from '@radio/core';
import type { DbHandle } from '@radio/db';
import { createScheduler, type Scheduler } from '@radio/scheduler';
import { REDIS_URL } from './databases.ts';
import type { TestApi } from './test-api.ts';

const run = promisify(execFile);

/**
 * The real scheduler beside a test api (started with `bus: 'redis'` and no fake scheduler):
 * it owns the index and watches the music folder, so the library routes' waits for the index
 * and the queue commands meet the real thing. Playout is stopped: these tests need the index.
 */
export async function startLibraryScheduler(
  t: TestApi,
): Promise<{ scheduler: Scheduler; bus: Bus; db: DbHandle; close(): Promise<void> }> {
  const logger = silentLogger();
  const db = await t.database.open();
  const bus = await createRedisBus({ url: REDIS_URL, logger, prefix: t.redis?.prefix ?? '' });
  const scheduler = createScheduler(
    {
      musicDir: t.musicDir,
      streamUrl: 'http://127.0.0.1:9',
      sourcePassword: 'not-used',
      controlHost: '127.0.0.1',
      controlPort: 0,
      crossfadeSeconds: 0,
      ffmpegPath: locateFfmpeg().path,
      watch: true,
    },
    { db, bus, logger },
  );
  await scheduler.start();
  // Nothing needs to be heard: no decoding beside the tests.
  await bus.request('player.stop', {});
  return {
    scheduler,
    bus,
    db,
    async close() {
      await scheduler.close();
      await bus.close();
      await db.close();
    },
  };
}

/** The tags ffprobe reads from a file (the container's and the audio stream's), keys lower case. */
export async function probeTags(file: string): Promise<Record<string, string>> {
  const ffprobe = locateFfprobe(locateFfmpeg());
  const { stdout } = await run(ffprobe, [
    '-v',
    'error',
    '-show_entries',
    'format_tags:stream_tags:stream=codec_type:stream_disposition=attached_pic',
    '-of',
    'json',
    file,
  ]);
  const parsed = JSON.parse(stdout) as {
    format?: { tags?: Record<string, string> };
    streams?: { codec_type: string; tags?: Record<string, string> }[];
  };
  const tags: Record<string, string> = {};
  const add = (from: Record<string, string> | undefined) => {
    for (const [key, value] of Object.entries(from ?? {})) tags[key.toLowerCase()] = value;
  };
  add(parsed.format?.tags);
  for (const stream of parsed.streams ?? []) if (stream.codec_type === 'audio') add(stream.tags);
  return tags;
}

/** Whether ffprobe finds a picture stream in the file. */
export async function hasPicture(file: string): Promise<boolean> {
  const ffprobe = locateFfprobe(locateFfmpeg());
  const { stdout } = await run(ffprobe, [
    '-v',
    'error',
    '-show_entries',
    'stream=codec_type',
    '-of',
    'csv=p=0',
    file,
  ]);
  return stdout.split('\n').some((line) => line.trim() === 'video');
}
