import { access, link, mkdir, rename } from 'node:fs/promises';
import { dirname } from 'node:path';
import { uploadError } from './upload-errors.ts';

/** Error codes of a filesystem that has no hard links (some FUSE and SMB mounts). */
const NO_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS']);

/** Destinations being renamed into by this process, for filesystems without links. */
const claimed = new Set<string>();

function diskFull(): Error {
  return uploadError(
    'UPLOAD_DISK_FULL',
    'no space left on the music volume: free some space (empty the trash?) and upload again',
  );
}

function nameTaken(path: string): Error {
  return uploadError(
    'UPLOAD_NAME_TAKEN',
    `${path} exists already with other audio: rename the file and upload it again`,
  );
}

/**
 * Without links: a check then a rename, made exclusive within this process (one api writes
 * a music folder); another program writing the same name at that instant could still lose.
 */
async function renameIfFree(source: string, target: string, shown: string): Promise<void> {
  if (claimed.has(target)) throw nameTaken(shown);
  claimed.add(target);
  try {
    const exists = await access(target).then(
      () => true,
      () => false,
    );
    if (exists) throw nameTaken(shown);
    await rename(source, target);
  } finally {
    claimed.delete(target);
  }
}

/**
 * Puts a finished upload at `target` in one step, never over an existing file: a hard link
 * appears whole or not at all and fails with EEXIST if the name is taken, so of two uploads
 * of one name exactly one wins (the other gets 409). The source stays for the caller to drop.
 * `shown` is the path as the user knows it (relative to MUSIC_DIR), for the error.
 */
export async function placeFile(source: string, target: string, shown: string): Promise<void> {
  try {
    await mkdir(dirname(target), { recursive: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? '';
    if (code === 'ENOSPC') throw diskFull();
    if (code === 'EEXIST' || code === 'ENOTDIR') {
      throw uploadError('UPLOAD_NAME_TAKEN', `a part of ${shown}'s folder is a file, not a folder`);
    }
    throw error;
  }
  try {
    await link(source, target);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? '';
    if (code === 'EEXIST') throw nameTaken(shown);
    if (code === 'ENOSPC') throw diskFull();
    if (!NO_LINKS.has(code)) throw error;
    await renameIfFree(source, target, shown);
  }
}
