/**
 * A music folder the api may not write (a read-only mount, or a host folder owned by another
 * user, as with a compose bind mount left to root): the api still starts and serves, and an
 * upload answers 503 with the reason, on both dialects. Needs root to mount
 * a read-only tmpfs; elsewhere it says so and checks nothing.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { ROUTE_SETUPS } from './helpers/databases.ts';
import { BASE, createUser, startTestApi, type TestApi } from './helpers/test-api.ts';
import { createUpload, errorCode, loginCookie } from './helpers/tus.ts';

jest.setTimeout(60_000);

const run = promisify(execFile);

async function mountReadOnly(dir: string): Promise<boolean> {
  if (process.getuid?.() !== 0) return false;
  try {
    await run('mount', ['-t', 'tmpfs', '-o', 'ro,size=1m', 'tmpfs', dir]);
    return true;
  } catch {
    return false;
  }
}

describe.each(ROUTE_SETUPS)('a music folder the api may not write ($dialect)', (setup) => {
  let t: TestApi;
  let mounted = false;

  beforeAll(async () => {
    t = await startTestApi(setup);
    mounted = await mountReadOnly(t.musicDir);
    // Built again over the read-only folder: the upload store's folder cannot be made now.
    if (mounted) await t.restart();
    await createUser(t.db, 'dj', 'dj');
  });

  afterAll(async () => {
    if (mounted) await run('umount', [t.musicDir]);
    await t?.close();
  });

  it('starts, and answers an upload with 503 and the reason', async () => {
    if (!mounted) {
      process.stdout.write(
        '[music-read-only] no tmpfs can be mounted here (needs root): skipped\n',
      );
      return;
    }
    const status = await fetch(`${t.api.url}${BASE}/status`);
    expect(status.status).toBe(200);

    const created = await createUpload({
      base: t.api.url,
      cookie: await loginCookie(t.api.url, 'dj'),
      metadata: { filename: 'song.mp3' },
      length: 1000,
    });
    expect({ status: created.status, code: errorCode(created) }).toEqual({
      status: 503,
      code: 'API_STORAGE_NOT_WRITABLE',
    });
    expect(created.text).toMatch(/EROFS/);
  });
});
