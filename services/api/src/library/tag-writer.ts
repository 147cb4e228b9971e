import { rm, writeFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { ApiError } from '../errors.ts';
import { type RewriteOptions, rewrite } from './file-rewrite.ts';
import { hiddenSibling } from './library-paths.ts';
import { rewriteOgg } from './ogg-tags.ts';
import { type CoverImage, TAG_KEYS, type TagChanges } from './tag-changes.ts';

/** How each container takes tags and a cover picture through ffmpeg's stream copy. */
interface Container {
  /**
   * Ogg (Vorbis, Opus): Vorbis comments on the audio stream, the cover among them (see
   * ogg-tags.ts); the others: the file's tags, the cover as an attached picture stream.
   */
  ogg: boolean;
  extra: string[];
}

const CONTAINERS: Record<string, Container> = {
  '.mp3': { ogg: false, extra: ['-id3v2_version', '4'] },
  '.flac': { ogg: false, extra: [] },
  '.m4a': { ogg: false, extra: [] },
  '.mp4': { ogg: false, extra: [] },
  '.ogg': { ogg: true, extra: [] },
  '.oga': { ogg: true, extra: [] },
  '.opus': { ogg: true, extra: [] },
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

/** Rewrites the tags of `file` (audio stream bytes copied as they are). */
export async function writeTags(
  file: string,
  changes: TagChanges,
  options: RewriteOptions,
): Promise<void> {
  const container = containerOf(file);
  if (container.ogg) return rewriteOgg(file, changes, 'keep', options);
  const tags: string[] = [];
  for (const [key, name] of Object.entries(TAG_KEYS) as [keyof TagChanges, string][]) {
    const value = changes[key];
    if (value === undefined) continue;
    // An empty value removes the tag.
    tags.push('-metadata', `${name}=${value === null ? '' : String(value)}`);
  }
  await rewrite(
    file,
    ['-i', file],
    ['-map', '0', '-c', 'copy', '-map_metadata', '0', ...tags, ...container.extra],
    options,
  );
}

/**
 * Replaces the embedded picture of `file` with `image` (or removes it when null). The image
 * goes in as a second input, copied as it is, marked as the front cover.
 */
export async function writeCover(
  file: string,
  image: CoverImage | null,
  options: RewriteOptions,
): Promise<void> {
  const container = containerOf(file);
  if (container.ogg) return rewriteOgg(file, {}, image, options);
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
