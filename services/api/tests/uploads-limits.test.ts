/**
 * Uploads at their limits, on both dialects: a body that runs past MAX_UPLOAD_MB with no
 * declared length (413 while streaming), a full music volume (a real tmpfs: 507), and an
 * unfinished upload past its day (removed when the api sweeps). Nothing is left behind.
 */
import { execFile } from 'node:child_process';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { locateFfmpeg } from '@radio/core';
import { generateTrack } from '@radio/core/test-audio';
import { waitFor } from '@radio/core/testing';
import { ROUTE_SETUPS } from './helpers/databases.ts';
import { createUser, startTestApi, type TestApi } from './helpers/test-api.ts';
import {
  createUpload,
  errorCode,
  filesUnder,
  loginCookie,
  patchUpload,
  uploadFile,
  uploadOffset,
} from './helpers/tus.ts';

jest.setTimeout(120_000);

const run = promisify(execFile);
const MB = 1024 * 1024;

/** Bytes of no meaning, streamed without a Content-Length (chunked), `total` in all. */
function chunked(total: number): Readable {
  let left = total;
  return new Readable({
    read() {
      const size = Math.min(64 * 1024, left);
      left -= size;
      this.push(size > 0 ? Buffer.alloc(size, 7) : null);
    },
  });
}

/** A small tmpfs over `dir` when this process may mount one (root), else null. */
async function mountTmpfs(dir: string, bytes: number): Promise<boolean> {
  if (process.getuid?.() !== 0) return false;
  try {
    await run('mount', ['-t', 'tmpfs', '-o', `size=${bytes}`, 'tmpfs', dir]);
    return true;
  } catch {
    return false;
  }
}

describe.each(ROUTE_SETUPS)('upload limits ($dialect)', (setup) => {
  let t: TestApi;
  let dj: string;
  let mounted = false;

  beforeAll(async () => {
    t = await startTestApi(setup, { maxUploadBytes: 10 * MB });
    await createUser(t.db, 'dj', 'dj');
    dj = await loginCookie(t.api.url, 'dj');
  });

  afterAll(async () => {
    if (mounted) await run('umount', [t.musicDir]);
    await t?.close();
  });

  it('refuses a body that runs past MAX_UPLOAD_MB with no declared length (413), dropping it', async () => {
    const created = await createUpload({
      base: t.api.url,
      cookie: dj,
      metadata: { filename: 'endless.mp3' },
      deferLength: true,
    });
    expect(created.status).toBe(201);
    const url = created.location as string;
    const answer = await patchUpload(url, dj, 0, chunked(12 * MB));
    expect({ status: answer.status, code: errorCode(answer) }).toEqual({
      status: 413,
      code: 'UPLOAD_TOO_LARGE',
    });
    expect(await uploadOffset(url, dj)).toBeNull();
    expect(await filesUnder(t.musicDir)).toEqual([]);
  });

  it('removes an unfinished upload a day after it began, when the api sweeps (at start, hourly)', async () => {
    const created = await createUpload({
      base: t.api.url,
      cookie: dj,
      metadata: { filename: 'stale.mp3' },
      length: 1000,
    });
    const url = created.location as string;
    await patchUpload(url, dj, 0, Buffer.alloc(400));
    expect(await uploadOffset(url, dj)).toBe(400);
    const id = url.split('/').pop() as string;
    const info = join(t.musicDir, '.uploads', `${id}.json`);
    const record = JSON.parse(await readFile(info, 'utf8')) as { creation_date: string };
    record.creation_date = new Date(Date.now() - 25 * 60 * 60 * 1000).toISOString();
    await writeFile(info, JSON.stringify(record));
    await t.restart();
    dj = await loginCookie(t.api.url, 'dj');
    // The sweep at start runs in the background: the upload goes once it has.
    await waitFor(
      'the expired upload removed',
      async () => (await readdir(join(t.musicDir, '.uploads'))).length === 0,
    );
    expect(await uploadOffset(new URL(new URL(url).pathname, t.api.url).toString(), dj)).toBeNull();
  });

  it('answers 507 when the music volume is full, leaving nothing on it', async () => {
    const source = join(t.dataDir, 'big.wav');
    // About 5 MB of PCM for a 3 MB volume.
    await generateTrack(
      source,
      { format: 'wav', durationSeconds: 30 },
      { ffmpegPath: locateFfmpeg().path },
    );
    mounted = await mountTmpfs(t.musicDir, 3 * MB);
    if (!mounted) {
      process.stdout.write('[uploads-limits] no tmpfs can be mounted here (needs root): skipped\n');
      return;
    }
    const answer = await uploadFile(t.api.url, dj, source, { filename: 'big.wav' });
    expect({ status: answer.status, code: errorCode(answer) }).toEqual({
      status: 507,
      code: 'UPLOAD_DISK_FULL',
    });
    expect(await filesUnder(t.musicDir)).toEqual([]);
  });
});
