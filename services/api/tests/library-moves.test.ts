/**
 * File moves as delete and restore use them, on one filesystem and across two (the music
 * folder on disk, DATA_DIR/trash on a tmpfs, as compose's separate volume is): content and
 * mtime kept, nothing overwritten, no hidden temporary file left.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ApiError } from '../src/errors.ts';
import { moveFile } from '../src/library/file-moves.ts';

const SHM = '/dev/shm';

describe('moveFile', () => {
  let disk: string;
  let other: string;

  beforeAll(async () => {
    disk = await mkdtemp(join(tmpdir(), 'radio-moves-'));
    // A second filesystem when the machine has one (Linux: tmpfs), else the same one again.
    other = await mkdtemp(
      join((await stat(SHM).catch(() => null)) ? SHM : tmpdir(), 'radio-moves-'),
    );
  });
  afterAll(async () => {
    await rm(disk, { recursive: true, force: true });
    await rm(other, { recursive: true, force: true });
  });

  const make = async (path: string): Promise<Buffer> => {
    const data = randomBytes(256 * 1024);
    await writeFile(path, data);
    await utimes(path, new Date('2020-01-01T00:00:00Z'), new Date('2020-01-02T03:04:05Z'));
    return data;
  };

  it.each([
    ['on one filesystem', () => disk],
    ['across filesystems', () => other],
  ])('moves %s keeping the bytes and the mtime', async (_name, target) => {
    const from = join(disk, `a-${randomBytes(3).toString('hex')}.mp3`);
    const to = join(target(), `b-${randomBytes(3).toString('hex')}.mp3`);
    const data = await make(from);
    await moveFile(from, to, false);
    expect(await readFile(to)).toEqual(data);
    expect((await stat(to)).mtime.toISOString()).toBe('2020-01-02T03:04:05.000Z');
    await expect(stat(from)).rejects.toThrow();
    expect((await readdir(target())).filter((name) => name.startsWith('.'))).toEqual([]);
  });

  it.each([
    ['on one filesystem', () => disk],
    ['across filesystems', () => other],
  ])(
    'never replaces an existing file %s (409), leaving both as they were',
    async (_name, target) => {
      const from = join(disk, `c-${randomBytes(3).toString('hex')}.mp3`);
      const to = join(target(), `d-${randomBytes(3).toString('hex')}.mp3`);
      const mine = await make(from);
      const theirs = await make(to);
      const error = await moveFile(from, to, false).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).code).toBe('API_PATH_TAKEN');
      expect(await readFile(from)).toEqual(mine);
      expect(await readFile(to)).toEqual(theirs);
      expect((await readdir(target())).filter((name) => name.startsWith('.'))).toEqual([]);
    },
  );
});
