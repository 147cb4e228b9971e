import { execFile } from 'node:child_process';
import { rm, writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { locateFfprobe, spawnFfmpeg } from '@radio/core';
import { ApiError } from '../errors.ts';
import { type RewriteOptions, rewrite } from './file-rewrite.ts';
import { hiddenSibling } from './library-paths.ts';
import { type CoverImage, TAG_KEYS, type TagChanges } from './tag-changes.ts';

/*
 * Ogg (Vorbis, Opus) keeps its tags as Vorbis comments on the audio stream, and its cover as
 * one of them, METADATA_BLOCK_PICTURE (a FLAC picture block in base64). ffmpeg reads that
 * comment as a picture stream but cannot write one back into Ogg, and a cover is far longer
 * than a command-line argument may be. So every comment, the cover among them, is written
 * into an ffmetadata file that ffmpeg maps onto the audio stream.
 */

const run = promisify(execFile);
const PICTURE_KEY = 'METADATA_BLOCK_PICTURE';
/** The muxer writes its own; a stale one is not carried over. */
const DROPPED = new Set(['encoder', PICTURE_KEY.toLowerCase()]);

interface OggState {
  tags: Record<string, string>;
  /** The codec of the cover picture ffmpeg found, if any (`mjpeg`, `png`). */
  pictureCodec: string | null;
}

async function readState(file: string, ffmpegPath: string): Promise<OggState> {
  const ffprobe = locateFfprobe({ path: ffmpegPath, source: 'FFMPEG_PATH' });
  const { stdout } = await run(
    ffprobe,
    [
      '-v',
      'error',
      '-show_entries',
      'stream=codec_type,codec_name:stream_tags',
      '-of',
      'json',
      file,
    ],
    { maxBuffer: 64 * 1024 * 1024 },
  );
  const streams =
    (
      JSON.parse(stdout) as {
        streams?: { codec_type?: string; codec_name?: string; tags?: Record<string, string> }[];
      }
    ).streams ?? [];
  const audio = streams.find((stream) => stream.codec_type === 'audio');
  const picture = streams.find((stream) => stream.codec_type === 'video');
  return { tags: { ...(audio?.tags ?? {}) }, pictureCodec: picture?.codec_name ?? null };
}

/** The bytes of the cover ffmpeg found in the file, copied out as they are. */
async function readPicture(file: string, options: RewriteOptions): Promise<Buffer> {
  const job = spawnFfmpeg(
    [
      '-nostdin',
      '-loglevel',
      'error',
      '-i',
      file,
      '-map',
      '0:v:0',
      '-c',
      'copy',
      '-f',
      'image2pipe',
      '-',
    ],
    {
      ffmpegPath: options.ffmpegPath,
      logger: options.logger,
      name: 'cover reader',
      stdout: 'pipe',
    },
  );
  const chunks: Buffer[] = [];
  job.stdout?.on('data', (chunk: Buffer) => chunks.push(chunk));
  await job.exited;
  return Buffer.concat(chunks);
}

/** A FLAC picture block (front cover), as METADATA_BLOCK_PICTURE holds it in base64. */
export function pictureBlock(image: CoverImage): string {
  const mime = Buffer.from(image.type);
  const head = Buffer.alloc(8);
  head.writeUInt32BE(3, 0); // picture type 3: the front cover
  head.writeUInt32BE(mime.length, 4);
  // Description length 0; width, height, depth and colours 0 (unknown); then the data length.
  const sizes = Buffer.alloc(24);
  sizes.writeUInt32BE(image.data.length, 20);
  return Buffer.concat([head, mime, sizes, image.data]).toString('base64');
}

/** One ffmetadata line: `=`, `;`, `#`, `\` and line breaks escaped with a backslash. */
function metadataLine(key: string, value: string): string {
  const escaped = (text: string) => text.replace(/[=;#\\\n]/g, (char) => `\\${char}`);
  return `${escaped(key)}=${escaped(value)}`;
}

/** The comments after the changes: a null change removes its tag, whatever its case. */
function applyChanges(tags: Record<string, string>, changes: TagChanges): Record<string, string> {
  const next: Record<string, string> = {};
  for (const [key, value] of Object.entries(tags)) {
    if (!DROPPED.has(key.toLowerCase())) next[key] = value;
  }
  for (const [field, name] of Object.entries(TAG_KEYS) as [keyof TagChanges, string][]) {
    const value = changes[field];
    if (value === undefined) continue;
    for (const key of Object.keys(next)) if (key.toLowerCase() === name) delete next[key];
    if (value !== null) next[name] = String(value);
  }
  return next;
}

/**
 * Rewrites an Ogg file's comments: `changes` applied, and the cover replaced by `cover`,
 * removed (null) or kept as it is ('keep').
 */
export async function rewriteOgg(
  file: string,
  changes: TagChanges,
  cover: CoverImage | null | 'keep',
  options: RewriteOptions,
): Promise<void> {
  const state = await readState(file, options.ffmpegPath).catch((error: unknown) => {
    throw new ApiError('API_TAG_WRITE_FAILED', `ffprobe could not read the file: ${String(error)}`);
  });
  const tags = applyChanges(state.tags, changes);
  let picture: CoverImage | null = cover === 'keep' ? null : cover;
  if (cover === 'keep' && state.pictureCodec !== null) {
    const type = state.pictureCodec === 'png' ? 'image/png' : 'image/jpeg';
    picture = { data: await readPicture(file, options), type };
  }
  const lines = [';FFMETADATA1', '[STREAM]'];
  for (const [key, value] of Object.entries(tags)) lines.push(metadataLine(key, value));
  if (picture && picture.data.length > 0)
    lines.push(metadataLine(PICTURE_KEY, pictureBlock(picture)));
  const meta = hiddenSibling(file, 'comments', '.txt');
  try {
    await writeFile(meta, `${lines.join('\n')}\n`, { flag: 'wx' });
    await rewrite(
      file,
      ['-i', file, '-f', 'ffmetadata', '-i', meta],
      ['-map', '0:a', '-c', 'copy', '-map_metadata:s:a:0', '1:s:0'],
      options,
    );
  } finally {
    await rm(meta, { force: true });
  }
}
