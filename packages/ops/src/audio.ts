import { statSync } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { delimiter, extname, join } from 'node:path';
import { AUDIO_EXTENSIONS, locateFfmpeg, probeAudioFile } from '@radio/core';
import { OpsError } from './errors.ts';

/** What the first bytes of a file say it is, among the audio formats the library plays. */
export function sniffAudio(head: Buffer): string | null {
  const ascii = (start: number, end: number): string =>
    head.subarray(start, end).toString('latin1');
  if (ascii(0, 4) === 'fLaC') return 'flac';
  if (ascii(0, 4) === 'OggS') return 'ogg';
  if (ascii(0, 4) === 'RIFF' && (ascii(8, 12) === 'WAVE' || ascii(8, 12) === 'RF64')) return 'wav';
  if (ascii(0, 4) === 'RF64' && ascii(8, 12) === 'WAVE') return 'wav';
  if (ascii(4, 8) === 'ftyp') {
    // MP4 family: the major brand says audio (M4A, M4B) or a generic brand that audio uses.
    const brand = ascii(8, 12);
    if (/^(M4A |M4B |M4P |mp4[12]|isom|iso[2-9]|dash|3gp.)$/.test(brand)) return 'mp4';
    return null;
  }
  if (ascii(0, 3) === 'ID3' && head.length >= 10 && head[3] !== undefined && head[3] <= 4) {
    // An ID3v2 tag leads MP3 (and sometimes AAC or FLAC) files: the tag itself is metadata.
    return 'mp3';
  }
  const b0 = head[0] ?? 0;
  const b1 = head[1] ?? 0;
  if (b0 === 0xff && (b1 & 0xf6) === 0xf0) return 'aac'; // ADTS: sync 12 bits, layer 00
  if (b0 === 0xff && (b1 & 0xe0) === 0xe0) {
    // MPEG audio frame: 11 sync bits, a version that is not "reserved", a layer that is set,
    // and a bitrate/sample-rate byte without the invalid values.
    const version = (b1 >> 3) & 0x03;
    const layer = (b1 >> 1) & 0x03;
    const b2 = head[2] ?? 0;
    const bitrate = b2 >> 4;
    const sampleRate = (b2 >> 2) & 0x03;
    if (version !== 1 && layer !== 0 && bitrate !== 0x0f && sampleRate !== 0x03) return 'mp3';
  }
  return null;
}

export interface AudioCheck {
  path: string;
  size: number;
  format: string;
  /** True when the content was probed (as the api probes uploads); false without ffmpeg here. */
  probed: boolean;
}

/** The ffmpeg beside an ffprobe on PATH: what probing needs. */
export interface MediaTools {
  ffmpegPath: string;
}

/** `ffprobe` on PATH, if any: a deeper check than the first bytes, when it is there. */
export function findFfprobe(pathVar: string | undefined): string | null {
  for (const dir of (pathVar ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, 'ffprobe');
    const info = statSync(candidate, { throwIfNoEntry: false });
    if (info?.isFile() && (info.mode & 0o111) !== 0) return candidate;
  }
  return null;
}

/** ffmpeg and ffprobe on PATH, or null (then only the first bytes are checked). */
export function findMediaTools(pathVar: string | undefined): MediaTools | null {
  if (findFfprobe(pathVar) === null) return null;
  try {
    return { ffmpegPath: locateFfmpeg({ pathVar }).path };
  } catch {
    return null;
  }
}

/**
 * Refuses anything that is not an audio file the library plays: a missing file, a folder, an
 * extension the scheduler skips, then (with ffmpeg here) whatever the api refuses as an upload,
 * for the same reason (probeAudioFile: not audio, a video, undecodable, empty, cut short), or
 * (without) first bytes that are no audio format.
 */
export async function checkAudioFile(path: string, tools: MediaTools | null): Promise<AudioCheck> {
  const info = await stat(path).catch(() => null);
  if (!info) throw new OpsError('OPS_FILE_NOT_FOUND', `${path}: no such file`);
  if (!info.isFile()) throw new OpsError('OPS_NOT_AUDIO', `${path}: not a regular file`);
  const extension = extname(path).toLowerCase();
  if (!AUDIO_EXTENSIONS.has(extension)) {
    throw new OpsError(
      'OPS_NOT_AUDIO',
      `${path}: not an audio file the library plays (extensions: ${[...AUDIO_EXTENSIONS].join(' ')})`,
    );
  }
  if (tools !== null) {
    const probe = await probeAudioFile(path, { ffmpegPath: tools.ffmpegPath });
    if (!probe.ok) throw new OpsError('OPS_NOT_AUDIO', `${path}: ${probe.message}`);
    return { path, size: info.size, format: probe.format, probed: true };
  }
  const handle = await open(path, 'r');
  const head = Buffer.alloc(64);
  try {
    await handle.read(head, 0, head.length, 0);
  } finally {
    await handle.close();
  }
  const format = info.size > 0 ? sniffAudio(head) : null;
  if (!format) {
    throw new OpsError(
      'OPS_NOT_AUDIO',
      `${path}: not audio (${info.size === 0 ? 'empty file' : 'its first bytes are not MP3, FLAC, Ogg, MP4/AAC or WAV'})`,
    );
  }
  return { path, size: info.size, format, probed: false };
}
