import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { runFfmpeg } from '../ffmpeg/spawn.ts';
import { type Logger, silentLogger } from '../logging/logger.ts';

export type TestAudioFormat = 'mp3' | 'flac' | 'ogg' | 'opus' | 'm4a' | 'wav';

export interface TestTrackTags {
  title?: string;
  artist?: string;
  album?: string;
  genre?: string;
  year?: number;
  trackNo?: number;
}

export interface TestTrackOptions {
  format: TestAudioFormat;
  durationSeconds: number;
  /** Pitch of the tone, so tracks can be told apart by ear and by analysis. */
  frequency?: number;
  /** Peak amplitude 0-1 (default 0.25, about -12 dBFS), so gain changes stay measurable. */
  amplitude?: number;
  tags?: TestTrackTags;
  cover?: boolean;
}

export interface GenerateOptions {
  ffmpegPath: string;
  logger?: Logger;
}

const CODECS: Record<TestAudioFormat, string[]> = {
  mp3: ['-c:a', 'libmp3lame', '-b:a', '128k', '-id3v2_version', '3'],
  flac: ['-c:a', 'flac'],
  ogg: ['-c:a', 'libvorbis', '-q:a', '3'],
  opus: ['-c:a', 'libopus', '-b:a', '64k'],
  m4a: ['-c:a', 'aac', '-b:a', '96k'],
  wav: ['-c:a', 'pcm_s16le'],
};

/** Formats whose containers carry cover art through ffmpeg's attached_pic. */
const COVER_FORMATS = new Set<TestAudioFormat>(['mp3', 'flac', 'm4a']);

function tagArgs(tags: TestTrackTags): string[] {
  const pairs: [string, string | number | undefined][] = [
    ['title', tags.title],
    ['artist', tags.artist],
    ['album', tags.album],
    ['genre', tags.genre],
    ['date', tags.year],
    ['track', tags.trackNo],
  ];
  return pairs.flatMap(([key, value]) =>
    value === undefined ? [] : ['-metadata', `${key}=${value}`],
  );
}

/**
 * Writes one tagged audio file made by ffmpeg's lavfi: a tone with a soft pulse, so a
 * listener hears something musical-ish and a level meter reads a steady value.
 */
export async function generateTrack(
  path: string,
  track: TestTrackOptions,
  options: GenerateOptions,
): Promise<string> {
  await mkdir(dirname(path), { recursive: true });
  const frequency = track.frequency ?? 440;
  const amplitude = track.amplitude ?? 0.25;
  const duration = track.durationSeconds;
  const tone = `aevalsrc=${amplitude}*sin(2*PI*${frequency}*t)*(0.75+0.25*sin(2*PI*2*t))|${amplitude}*sin(2*PI*${frequency * 1.5}*t)*(0.75+0.25*sin(2*PI*2*t)):s=44100:d=${duration}`;
  const withCover = track.cover === true && COVER_FORMATS.has(track.format);
  const args = ['-loglevel', 'error', '-y', '-f', 'lavfi', '-i', tone];
  if (withCover) {
    const hue = Math.round(frequency) % 0xffffff;
    args.push('-f', 'lavfi', '-i', `color=c=0x${hue.toString(16).padStart(6, '3')}:s=128x128:d=1`);
    args.push('-map', '0:a', '-map', '1:v', '-frames:v', '1', '-c:v', 'png');
    args.push('-disposition:v', 'attached_pic', '-metadata:s:v', 'comment=Cover (front)');
  }
  args.push(...CODECS[track.format], ...tagArgs(track.tags ?? {}), path);
  await runFfmpeg(args, {
    ffmpegPath: options.ffmpegPath,
    logger: options.logger ?? silentLogger(),
    name: `test audio ${track.format}`,
  });
  return path;
}

/** A file that starts like an MP3 and then is noise: tag readers and decoders must refuse it. */
export async function writeCorruptFile(path: string): Promise<string> {
  await mkdir(dirname(path), { recursive: true });
  const noise = Buffer.alloc(4096);
  for (let i = 0; i < noise.length; i++) noise[i] = (i * 7919 + 13) % 251;
  await writeFile(
    path,
    Buffer.concat([Buffer.from('ID3\u0004\u0000\u0000\u007f\u007f\u007f\u007f'), noise]),
  );
  return path;
}

export async function writeEmptyFile(path: string): Promise<string> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, Buffer.alloc(0));
  return path;
}

export interface TestLibrary {
  dir: string;
  /** Every playable file, relative to `dir`. */
  valid: string[];
  corrupt: string;
  empty: string;
}

/**
 * A small library for tests: tagged MP3 and FLAC tracks (two with cover art, one MP3 with no
 * tags at all), a corrupt file and a zero-byte file, all relative to `dir`.
 */
export async function generateTestLibrary(
  dir: string,
  options: GenerateOptions & { durationSeconds?: number },
): Promise<TestLibrary> {
  const duration = options.durationSeconds ?? 4;
  const tracks: [string, TestTrackOptions][] = [
    [
      'Alpha Band/First Light/01 - Morning.mp3',
      {
        format: 'mp3',
        durationSeconds: duration,
        frequency: 330,
        cover: true,
        tags: {
          title: 'Morning',
          artist: 'Alpha Band',
          album: 'First Light',
          genre: 'Ambient',
          year: 2021,
          trackNo: 1,
        },
      },
    ],
    [
      'Alpha Band/First Light/02 - Noon.mp3',
      {
        format: 'mp3',
        durationSeconds: duration,
        frequency: 392,
        tags: {
          title: 'Noon',
          artist: 'Alpha Band',
          album: 'First Light',
          genre: 'Ambient',
          year: 2021,
          trackNo: 2,
        },
      },
    ],
    [
      'Beta Trio/Waves/01 - Tide.flac',
      {
        format: 'flac',
        durationSeconds: duration,
        frequency: 440,
        cover: true,
        tags: {
          title: 'Tide',
          artist: 'Beta Trio',
          album: 'Waves',
          genre: 'Jazz',
          year: 2019,
          trackNo: 1,
        },
      },
    ],
    [
      'Beta Trio/Waves/02 - Undertow.flac',
      {
        format: 'flac',
        durationSeconds: duration,
        frequency: 494,
        tags: {
          title: 'Undertow',
          artist: 'Beta Trio',
          album: 'Waves',
          genre: 'Jazz',
          year: 2019,
          trackNo: 2,
        },
      },
    ],
    ['untagged-demo.mp3', { format: 'mp3', durationSeconds: duration, frequency: 523 }],
  ];
  for (const [relative, track] of tracks) {
    await generateTrack(join(dir, relative), track, options);
  }
  const corrupt = 'broken/corrupt.mp3';
  const empty = 'broken/empty.mp3';
  await writeCorruptFile(join(dir, corrupt));
  await writeEmptyFile(join(dir, empty));
  return { dir, valid: tracks.map(([relative]) => relative), corrupt, empty };
}
