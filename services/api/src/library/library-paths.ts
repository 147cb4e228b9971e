import { randomBytes } from 'node:crypto';
import { basename, dirname, extname, isAbsolute, join, relative, resolve } from 'node:path';
import { ApiError } from '../errors.ts';

/* Paths inside MUSIC_DIR as the library names them: relative, `/`-separated, never hidden. */

const MAX_SEGMENT = 255;
const MAX_PATH = 1024;
/** Whether `text` holds a control character (C0, DEL or C1). */
function hasControl(text: string): boolean {
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) return true;
  }
  return false;
}

/**
 * A folder given by a client, checked and normalized: `''` is the music folder itself. Refused
 * (400): `..` or `.` parts, hidden parts (the watcher ignores them, so their files would never
 * play), control characters, backslashes, absolute paths, over-long names.
 */
export function checkFolder(input: string): string {
  const text = input.trim().replace(/^\/+|\/+$/g, '');
  if (text === '') return '';
  const bad = (why: string): ApiError =>
    new ApiError('API_VALIDATION', `folder "${input}": ${why}`);
  if (text.length > MAX_PATH) throw bad(`longer than ${MAX_PATH} characters`);
  if (hasControl(text)) throw bad('control characters are not allowed');
  if (text.includes('\\')) throw bad('use / between folder names');
  for (const part of text.split('/')) {
    if (part === '') throw bad('empty folder name');
    if (part === '..' || part === '.') throw bad('. and .. are not allowed');
    if (part.startsWith('.')) throw bad('a folder name must not start with a dot');
    if (part.trim() !== part) throw bad('a folder name must not start or end with a space');
    if (Buffer.byteLength(part) > MAX_SEGMENT) throw bad(`a name longer than ${MAX_SEGMENT} bytes`);
  }
  return text;
}

/** The folder of a library path (`''` for the top). */
export function folderOf(path: string): string {
  const folder = dirname(path);
  return folder === '.' ? '' : folder;
}

/** `folder/name` as a library path. */
export function joinLibrary(folder: string, name: string): string {
  return folder === '' ? name : `${folder}/${name}`;
}

/** The absolute path of a library path; a path that would lead outside MUSIC_DIR is refused. */
export function insideMusic(musicDir: string, path: string): string {
  const root = resolve(musicDir);
  const absolute = resolve(root, path);
  const inside = relative(root, absolute);
  if (inside.startsWith('..') || isAbsolute(inside)) {
    throw new ApiError('API_VALIDATION', `${path} is outside the music folder`);
  }
  return absolute;
}

/**
 * A hidden name beside `file` for writing its next version: same folder (so the final
 * rename is atomic), same extension (so ffmpeg picks the same container), dot-named (so the
 * watcher never indexes it half written).
 */
export function hiddenSibling(file: string, purpose: string, ext = extname(file)): string {
  const stem = basename(file, extname(file)).slice(0, 100);
  return join(dirname(file), `.${stem}.${purpose}-${randomBytes(4).toString('hex')}${ext}`);
}
