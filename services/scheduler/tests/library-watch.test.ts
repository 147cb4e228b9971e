import { copyFile, mkdtemp, open, readFile, rename, rm, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { EventMessage } from '@radio/core';
import { generateTrack, writeCorruptFile } from '@radio/core/test-audio';
import { waitFor } from '@radio/core/testing';
import { ffmpegPath, TestStation } from './helpers/station.ts';

jest.setTimeout(60_000);

describe('the music folder is watched while the station plays', () => {
  let station: TestStation;
  let staging: string;
  const events: EventMessage[] = [];

  beforeAll(async () => {
    station = await TestStation.start({ trackSeconds: 3 });
    station.bus.onEvent(
      (event) => {
        events.push(event);
      },
      ['library.changed', 'queue.changed'],
    );
    staging = await mkdtemp(join(tmpdir(), 'sched-staging-'));
    const tags = (title: string) => ({ title, artist: 'New Artist', album: 'New Album' });
    await generateTrack(
      join(staging, 'new.mp3'),
      { format: 'mp3', durationSeconds: 3, frequency: 880, tags: tags('Fresh MP3') },
      { ffmpegPath },
    );
    await generateTrack(
      join(staging, 'new.flac'),
      { format: 'flac', durationSeconds: 3, frequency: 990, tags: tags('Fresh FLAC') },
      { ffmpegPath },
    );
    await generateTrack(
      join(staging, 'slow.flac'),
      { format: 'flac', durationSeconds: 3, frequency: 770, tags: tags('Slow Copy') },
      { ffmpegPath },
    );
  });

  afterAll(async () => {
    await station?.stop();
    await rm(staging, { recursive: true, force: true });
  });

  const queue = async (): Promise<string[]> => {
    const body = await station.command('request.queue');
    return body ? body.split('\r\n') : [];
  };

  it('marks the corrupt and zero-byte fixtures invalid with the reason', async () => {
    const rows = await station.db.db
      .selectFrom('tracks')
      .select(['path', 'status', 'error'])
      .where('status', '=', 'invalid')
      .orderBy('path')
      .execute();
    expect(rows).toEqual([
      {
        path: 'broken/corrupt.mp3',
        status: 'invalid',
        error: expect.stringMatching(/^unreadable audio file: /),
      },
      { path: 'broken/empty.mp3', status: 'invalid', error: 'empty file (0 bytes)' },
    ]);
    expect((await queue()).some((line) => line.includes('broken/'))).toBe(false);
  });

  it('indexes a new MP3 and a new FLAC copied in, and lists them in request.queue as new', async () => {
    const copiedAt = Date.now();
    await copyFile(join(staging, 'new.mp3'), join(station.music, 'Fresh MP3.mp3'));
    await copyFile(
      join(staging, 'new.flac'),
      join(station.music, 'incoming', 'Fresh FLAC.flac'),
    ).catch(async () => {
      // A new sub-folder is watched too.
      await (await import('node:fs/promises')).mkdir(join(station.music, 'incoming'));
      await copyFile(join(staging, 'new.flac'), join(station.music, 'incoming', 'Fresh FLAC.flac'));
    });
    const lines = await waitFor(
      'both files in request.queue',
      async () => {
        const current = await queue();
        const mp3 = current.find((l) => l.includes('(Fresh MP3.mp3) [new]'));
        const flac = current.find((l) => l.includes('(incoming/Fresh FLAC.flac) [new]'));
        return mp3 && flac ? current : undefined;
      },
      30_000,
      25,
    );
    const elapsed = Date.now() - copiedAt;
    // The bar is 2 s; the wait above is bounded more generously for a loaded machine.
    process.stderr.write(`new files listed by request.queue ${elapsed} ms after the copy\n`);
    expect(lines.find((l) => l.includes('Fresh MP3'))).toMatch(
      /^\d+ New Artist - Fresh MP3 \(Fresh MP3\.mp3\) \[new\]$/,
    );
    const rows = await station.db.db
      .selectFrom('tracks')
      .selectAll()
      .where('title', 'like', 'Fresh%')
      .execute();
    expect(rows.map((r) => [r.path, r.status, r.format]).sort()).toEqual([
      ['Fresh MP3.mp3', 'ok', 'mp3'],
      ['incoming/Fresh FLAC.flac', 'ok', 'flac'],
    ]);
    await waitFor('a library.changed event', () =>
      events.some(
        (e) => e.type === 'library.changed' && (e.payload.paths ?? []).includes('Fresh MP3.mp3'),
      ),
    );
  });

  it('waits for a file being written to be complete before indexing it', async () => {
    const data = await readFile(join(staging, 'slow.flac'));
    const target = join(station.music, 'Slow Copy.flac');
    const file = await open(target, 'w');
    const piece = Math.ceil(data.length / 6);
    for (let at = 0; at < data.length; at += piece) {
      await file.write(data.subarray(at, at + piece));
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
    await file.close();
    await waitFor(
      'the slow copy listed',
      async () => (await queue()).some((l) => l.includes('(Slow Copy.flac) [new]')),
      20_000,
    );
    const row = await station.db.db
      .selectFrom('tracks')
      .selectAll()
      .where('path', '=', 'Slow Copy.flac')
      .executeTakeFirst();
    expect(row).toMatchObject({ status: 'ok', title: 'Slow Copy' });
    expect(Number(row?.duration)).toBeGreaterThan(2.9);
  });

  it('marks a corrupt file added later invalid and never queues it', async () => {
    await writeCorruptFile(join(station.music, 'Broken Later.mp3'));
    const row = await waitFor('the corrupt file indexed', () =>
      station.db.db
        .selectFrom('tracks')
        .selectAll()
        .where('path', '=', 'Broken Later.mp3')
        .executeTakeFirst(),
    );
    expect(row).toMatchObject({ status: 'invalid' });
    expect((await queue()).some((l) => l.includes('Broken Later'))).toBe(false);
  });

  it('follows a rename and a deletion without a restart', async () => {
    const before = await station.db.db
      .selectFrom('tracks')
      .selectAll()
      .where('path', '=', 'Fresh MP3.mp3')
      .executeTakeFirstOrThrow();
    await rename(join(station.music, 'Fresh MP3.mp3'), join(station.music, 'Renamed MP3.mp3'));
    const moved = await waitFor('the renamed file indexed', () =>
      station.db.db
        .selectFrom('tracks')
        .selectAll()
        .where('path', '=', 'Renamed MP3.mp3')
        .where('status', '=', 'ok')
        .executeTakeFirst(),
    );
    expect(moved.id).toBe(before.id);
    await unlink(join(station.music, 'incoming', 'Fresh FLAC.flac'));
    await waitFor('the deleted file marked missing', async () => {
      const row = await station.db.db
        .selectFrom('tracks')
        .select('status')
        .where('path', '=', 'incoming/Fresh FLAC.flac')
        .executeTakeFirst();
      return row?.status === 'missing' && !(await queue()).some((l) => l.includes('Fresh FLAC'));
    });
  });
});

describe('an empty music folder', () => {
  let station: TestStation;
  let staging: string;

  beforeAll(async () => {
    station = await TestStation.start({ emptyLibrary: true });
    staging = await mkdtemp(join(tmpdir(), 'sched-staging-'));
    await generateTrack(
      join(staging, 'first.flac'),
      { format: 'flac', durationSeconds: 4, tags: { title: 'First Song' } },
      { ffmpegPath },
    );
  });

  afterAll(async () => {
    await station?.stop();
    await rm(staging, { recursive: true, force: true });
  });

  it('plays silence without a track, and plays the first track as soon as it appears', async () => {
    expect(await station.command('request.on_air')).toBe('');
    expect(await station.command('request.queue')).toBe('');
    expect(await station.command('request.metadata')).toBe('ERROR: nothing is on air');
    expect(station.scheduler.status().mounts.every((m) => m.connected)).toBe(true);
    await copyFile(join(staging, 'first.flac'), join(station.music, 'first.flac'));
    const line = await waitFor(
      'the first track on air',
      async () => (await station.command('request.on_air')) || undefined,
      20_000,
    );
    expect(line).toMatch(/^\d+ First Song \d+:\d\d \/ 0:04$/);
  });
});
