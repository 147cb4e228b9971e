import { constants } from 'node:fs';
import { copyFile, link, lstat, open, rename, rm, stat, unlink, utimes } from 'node:fs/promises';
import { ApiError } from '../errors.ts';
import { hiddenSibling } from './library-paths.ts';

/* Moving files without ever replacing one, and across filesystems (the trash under DATA_DIR). */

function codeOf(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | null)?.code;
}

export async function exists(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch (error) {
    if (codeOf(error) === 'ENOENT') return false;
    throw error;
  }
}

/** Filesystems without hard links answer these; then a checked rename is the best there is. */
const NO_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EMLINK']);

/**
 * Gives `from` the name `to` on the same filesystem, never replacing an existing `to`
 * (409 API_PATH_TAKEN): a hard link fails when the name exists, where a rename would
 * silently overwrite. The file keeps its inode, size and mtime, which is how the library's
 * index recognises a moved file as the same track.
 */
async function renameNoReplace(from: string, to: string): Promise<void> {
  try {
    await link(from, to);
  } catch (error) {
    const code = codeOf(error);
    if (code === 'EEXIST') throw new ApiError('API_PATH_TAKEN', `${to} exists already`);
    if (code === undefined || !NO_LINKS.has(code)) throw error;
    if (await exists(to)) throw new ApiError('API_PATH_TAKEN', `${to} exists already`);
    await rename(from, to);
    return;
  }
  await unlink(from);
}

/**
 * Copies `from` beside `to` under a hidden name, flushed to disk with `from`'s times, then
 * names it `to` and removes `from`: a move across filesystems that never leaves half a file
 * under the final name.
 */
async function copyAcross(from: string, to: string, replace: boolean): Promise<void> {
  const temp = hiddenSibling(to, 'move');
  try {
    await copyFile(from, temp, constants.COPYFILE_EXCL);
    const handle = await open(temp, 'r+');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
    const info = await stat(from);
    await utimes(temp, info.atime, info.mtime);
    if (replace) await rename(temp, to);
    else await renameNoReplace(temp, to);
  } finally {
    await rm(temp, { force: true });
  }
  await unlink(from);
}

/**
 * Moves a file. `replace: false` refuses to overwrite `to` (409). Same filesystem: one rename
 * (or link + unlink); another (EXDEV): copy, fsync, then unlink the original.
 */
export async function moveFile(from: string, to: string, replace: boolean): Promise<void> {
  try {
    if (replace) await rename(from, to);
    else await renameNoReplace(from, to);
  } catch (error) {
    if (codeOf(error) !== 'EXDEV') throw error;
    await copyAcross(from, to, replace);
  }
}
