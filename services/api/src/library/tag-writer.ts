import { chmod, rename, rm, stat, writeFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { FfmpegExitError, type Logger, runFfmpeg } from '@radio/core';
import { ApiError } from '../errors.ts';
import { hiddenSibling } from './library-paths.ts';

/** The tags the station writes; null clears one, undefined leaves it as it is. */
export interface TagChanges {
  title?: string | null | undefined;
  artist?: string | null | undefined;
  album?: string | null | undefined;
  albumArtist?: string | null | undefined;
  genre?: string | null | undefined;
  year?: number | null | undefined;
  trackNumber?: number | null | undefined;
}

/**
 * ffmpeg's generic tag names; each muxer writes them in its own way: ID3v2.4 frames for MP3
 * (TIT2, TPE1, TALB, TPE2, TCON, TDRC, TRCK), Vorbis comments for FLAC, Ogg and Opus (TITLE …
 * ALBUMARTIST, DATE, TRACKNUMBER), MP4 atoms for M4A (©nam, ©ART, ©alb, aART, ©gen, ©day,
 * trkn). Checked by reading them back with ffprobe and music-metadata (tests/library-tags).
 */
const FFMPEG_KEYS: Record<keyof TagChanges, string> = {
  title: 'title',
  artist: 'artist',
  album: 'album',
  albumArtist: 'album_artist',
  genre: 'genre',
  year: 'date',
  trackNumber: 'track',
};

/** How each container takes tags and a cover picture through ffmpeg's stream copy. */
interface Container {
  /** Vorbis comments in Ogg belong to the audio stream, not the file. */
  streamTags: boolean;
  /** Whether the muxer stores an attached picture. */
  cover: boolean;
  extra: string[];
}

const CONTAINERS: Record<string, Container> = {
  '.mp3': { streamTags: false, cover: true, extra: ['-id3v2_version', '4'] },
  '.flac': { streamTags: false, cover: true, extra: [] },
  '.m4a': { streamTags: false, cover: true, extra: [] },
  '.mp4': { streamTags: false, cover: true, extra: [] },
  '.ogg': { streamTags: true, cover: false, extra: [] },
  '.oga': { streamTags: true, cover: false, extra: [] },
  '.opus': { streamTags: true, cover: false, extra: [] },
};

function containerOf(file: string): Container {
  const container = CONTAINERS[extname(file).toLowerCase()];
  if (!container) {
    throw new ApiError(
      'API_FORMAT_UNSUPPORTED',
      `the station writes tags into MP3, FLAC, Ogg, Opus and M4A files, not ${extname(file) || 'this file'}`,
    );
  }
  return container;
}

export interface RewriteOptions {
  ffmpegPath: string;
  logger: Logger;
}

/**
 * Writes the next version of `file` with ffmpeg (`args` between the inputs and the output)
 * into a hidden file beside it, then renames it over `file`: readers see the old file or the
 * new one, never half of one, and the watcher sees one change. The hidden file is removed
 * whatever happens.
 */
async function rewrite(
  file: string,
  inputs: string[],
  args: string[],
  options: RewriteOptions,
): Promise<void> {
  const temp = hiddenSibling(file, 'tags');
  try {
    const mode = (await stat(file)).mode & 0o7777;
    try {
      await runFfmpeg(['-nostdin', '-loglevel', 'error', '-y', ...inputs, ...args, temp], {
        ffmpegPath: options.ffmpegPath,
        logger: options.logger,
        name: 'tag writer',
      });
    } catch (error) {
      const detail =
        error instanceof FfmpegExitError ? error.stderrTail.join(' | ') : String(error);
      throw new ApiError('API_TAG_WRITE_FAILED', `ffmpeg could not rewrite the file: ${detail}`);
    }
    await chmod(temp, mode);
    await rename(temp, file);
  } finally {
    await rm(temp, { force: true });
  }
}

/** Rewrites the tags of `file` (audio stream bytes copied as they are). */
export async function writeTags(
  file: string,
  changes: TagChanges,
  options: RewriteOptions,
): Promise<void> {
  const container = containerOf(file);
  const target = container.streamTags ? '-metadata:s:a:0' : '-metadata';
  const tags: string[] = [];
  for (const [key, name] of Object.entries(FFMPEG_KEYS) as [keyof TagChanges, string][]) {
    const value = changes[key];
    if (value === undefined) continue;
    // An empty value removes the tag.
    tags.push(target, `${name}=${value === null ? '' : String(value)}`);
  }
  await rewrite(
    file,
    ['-i', file],
    ['-map', '0', '-c', 'copy', '-map_metadata', '0', ...tags, ...container.extra],
    options,
  );
}

export type CoverType = 'image/jpeg' | 'image/png';

/**
 * Replaces the embedded picture of `file` with `image` (or removes it when null). The image
 * goes in as a second input, copied as it is, marked as the front cover.
 */
export async function writeCover(
  file: string,
  image: { data: Buffer; type: CoverType } | null,
  options: RewriteOptions,
): Promise<void> {
  const container = containerOf(file);
  if (image === null) {
    // Every picture stream goes: what is left is the audio with its tags.
    await rewrite(
      file,
      ['-i', file],
      ['-map', '0', '-map', '-0:v?', '-c', 'copy', '-map_metadata', '0', ...container.extra],
      options,
    );
    return;
  }
  if (!container.cover) {
    throw new ApiError(
      'API_FORMAT_UNSUPPORTED',
      'cover pictures can be written into MP3, FLAC and M4A files, not Ogg or Opus',
    );
  }
  const png = image.type === 'image/png';
  const picture = hiddenSibling(file, 'cover', png ? '.png' : '.jpg');
  try {
    await writeFile(picture, image.data, { flag: 'wx' });
    await rewrite(
      file,
      ['-i', file, '-f', png ? 'png_pipe' : 'jpeg_pipe', '-i', picture],
      [
        ...['-map', '0', '-map', '-0:v?', '-map', '1:v:0', '-c', 'copy', '-map_metadata', '0'],
        ...['-disposition:v:0', 'attached_pic', '-metadata:s:v:0', 'comment=Cover (front)'],
        ...container.extra,
      ],
      options,
    );
  } finally {
    await rm(picture, { force: true });
  }
}
