import { posix } from 'node:path';
import { AUDIO_EXTENSIONS } from '@radio/core';
import { uploadError } from './upload-errors.ts';

/** Where an upload goes, relative to MUSIC_DIR. */
export interface UploadTarget {
  /** '' for the top of the music folder. */
  folder: string;
  name: string;
  /** `folder/name`, the track's path once indexed. */
  path: string;
}

/** ext4 and most filesystems cap one name at 255 bytes. */
const MAX_NAME_BYTES = 255;
const MAX_PATH_BYTES = 1024;
const MAX_DEPTH = 16;
// C0 and C1 controls and DEL: invisible in listings, dangerous in logs and terminals.
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding them is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * The tus `Upload-Metadata` header: comma-separated `key base64value` pairs (the value may be
 * missing). Null when it is malformed.
 */
export function parseUploadMetadata(header: string | undefined): Record<string, string> | null {
  const metadata: Record<string, string> = {};
  if (header === undefined || header.trim() === '') return metadata;
  for (const pair of header.split(',')) {
    const [key, value, extra] = pair.trim().split(' ');
    if (!key || extra !== undefined || key in metadata) return null;
    if (value !== undefined && !/^[A-Za-z0-9+/]*={0,2}$/.test(value)) return null;
    metadata[key] = value === undefined ? '' : Buffer.from(value, 'base64').toString('utf8');
  }
  return metadata;
}

/** One path segment as a user gave it: refused with 400 if it could escape or hide. */
function checkSegment(segment: string, what: string): void {
  if (segment === '') throw uploadError('UPLOAD_BAD_NAME', `${what} has an empty part`);
  if (segment === '.' || segment === '..') {
    throw uploadError('UPLOAD_BAD_NAME', `${what} may not contain "${segment}"`);
  }
  if (segment.startsWith('.')) {
    throw uploadError(
      'UPLOAD_BAD_NAME',
      `${what} may not start with a dot ("${segment}"): the station ignores hidden files`,
    );
  }
  if (CONTROL.test(segment)) {
    throw uploadError('UPLOAD_BAD_NAME', `${what} contains control characters`);
  }
  if (segment.includes('\\')) {
    throw uploadError('UPLOAD_BAD_NAME', `${what} contains a backslash`);
  }
  if (segment !== segment.trim()) {
    throw uploadError('UPLOAD_BAD_NAME', `${what} starts or ends with a space`);
  }
  if (Buffer.byteLength(segment) > MAX_NAME_BYTES) {
    throw uploadError('UPLOAD_BAD_NAME', `${what} has a part longer than ${MAX_NAME_BYTES} bytes`);
  }
}

/** A folder relative to MUSIC_DIR ('' or 'a/b'), checked part by part. */
export function checkFolder(raw: string | undefined): string {
  const folder = (raw ?? '').normalize('NFC').replace(/\/+$/, '');
  if (folder === '') return '';
  if (folder.startsWith('/')) {
    throw uploadError('UPLOAD_BAD_NAME', 'the folder must be relative to the music folder');
  }
  const parts = folder.split('/');
  if (parts.length > MAX_DEPTH) {
    throw uploadError('UPLOAD_BAD_NAME', `the folder is nested deeper than ${MAX_DEPTH} levels`);
  }
  for (const part of parts) checkSegment(part, 'the folder');
  return parts.join('/');
}

/**
 * The target of an upload from its tus metadata: `filename` (required, a plain name with an
 * extension the station plays) and `folder` (optional). Names are NFC, as macOS sends NFD.
 */
export function uploadTarget(metadata: Record<string, string | null | undefined>): UploadTarget {
  const name = (metadata.filename ?? '').normalize('NFC');
  if (name === '') throw uploadError('UPLOAD_BAD_NAME', 'Upload-Metadata needs a filename');
  if (name.includes('/')) {
    throw uploadError('UPLOAD_BAD_NAME', 'the filename may not contain "/": use the folder');
  }
  checkSegment(name, 'the filename');
  const extension = posix.extname(name).toLowerCase();
  if (!AUDIO_EXTENSIONS.has(extension)) {
    throw uploadError(
      'UPLOAD_NOT_AUDIO',
      `${name}: the station plays ${[...AUDIO_EXTENSIONS].join(' ')} files`,
    );
  }
  const folder = checkFolder(metadata.folder ?? undefined);
  const path = folder === '' ? name : `${folder}/${name}`;
  if (Buffer.byteLength(path) > MAX_PATH_BYTES) {
    throw uploadError('UPLOAD_BAD_NAME', `the path is longer than ${MAX_PATH_BYTES} bytes`);
  }
  return { folder, name, path };
}
