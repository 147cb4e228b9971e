import { extname } from 'node:path';

/**
 * The file extensions the station plays (lower case, with the dot). The scheduler indexes only
 * these, so radioctl refuses others and embedded mode counts only these as music.
 */
export const AUDIO_EXTENSIONS: ReadonlySet<string> = new Set([
  '.mp3',
  '.flac',
  '.ogg',
  '.oga',
  '.opus',
  '.m4a',
  '.mp4',
  '.aac',
  '.wav',
  '.wave',
]);

export function isAudioFile(path: string): boolean {
  return AUDIO_EXTENSIONS.has(extname(path).toLowerCase());
}
