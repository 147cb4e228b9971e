import { copyFile, mkdtemp, open, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { generateTrack, writeCorruptFile } from '../src/audio/test-audio.ts';
import {
  type AudioProbe,
  audioContentHash,
  locateFfmpeg,
  probeAudioFile,
  runFfmpeg,
  silentLogger,
} from '../src/index.ts';

const ffmpegPath = locateFfmpeg().path;
const logger = silentLogger();
let dir: string;

async function ffmpeg(args: string[]): Promise<void> {
  await runFfmpeg(['-loglevel', 'error', '-y', ...args], { ffmpegPath, logger, name: 'fixture' });
}

function refusal(probe: AudioProbe): { status: number; code: string } {
  if (probe.ok) throw new Error(`accepted: ${JSON.stringify(probe)}`);
  return { status: probe.status, code: probe.code };
}

/** The first `bytes` of `source`, as a file cut off mid-transfer would be. */
async function truncate(source: string, target: string, bytes: number): Promise<string> {
  await copyFile(source, target);
  const handle = await open(target, 'r+');
  await handle.truncate(bytes);
  await handle.close();
  return target;
}

/** The bytes the ID3v2 tag takes at the head of an MP3 (the audio starts after them). */
async function id3Size(path: string): Promise<number> {
  const handle = await open(path, 'r');
  const head = Buffer.alloc(10);
  await handle.read(head, 0, 10, 0);
  await handle.close();
  return (
    10 + (((head[6] ?? 0) << 21) | ((head[7] ?? 0) << 14) | ((head[8] ?? 0) << 7) | (head[9] ?? 0))
  );
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'media-probe-'));
  const tags = { title: 'Tone', artist: 'Probe' };
  await generateTrack(
    join(dir, 'tone.mp3'),
    { format: 'mp3', durationSeconds: 8, tags, cover: true },
    { ffmpegPath },
  );
  await generateTrack(
    join(dir, 'tone.flac'),
    { format: 'flac', durationSeconds: 8, tags },
    { ffmpegPath },
  );
  await generateTrack(
    join(dir, 'tone.opus'),
    { format: 'opus', durationSeconds: 8, tags },
    { ffmpegPath },
  );
  await generateTrack(
    join(dir, 'tone.m4a'),
    { format: 'm4a', durationSeconds: 8, tags },
    { ffmpegPath },
  );
  const picture = ['-f', 'lavfi', '-i', 'testsrc=d=2:s=160x120:r=10'];
  await ffmpeg([...picture, '-c:v', 'mpeg4', join(dir, 'silent-film.mp4')]);
  await ffmpeg([
    ...picture,
    '-f',
    'lavfi',
    '-i',
    'sine=d=2',
    '-c:v',
    'mpeg4',
    '-c:a',
    'aac',
    join(dir, 'film.mp4'),
  ]);
  const noise = Buffer.alloc(64 * 1024);
  for (let i = 0; i < noise.length; i++) noise[i] = (i * 2654435761) >>> 24;
  await writeFile(join(dir, 'noise.mp3'), noise);
  await writeFile(join(dir, 'empty.mp3'), Buffer.alloc(0));
  await writeFile(join(dir, 'notes.mp3'), 'just some text, not a song\n'.repeat(100));
  await writeCorruptFile(join(dir, 'corrupt.mp3'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('probeAudioFile', () => {
  it.each([
    ['tone.mp3', 'mp3', 'mp3'],
    ['tone.flac', 'flac', 'flac'],
    ['tone.opus', 'ogg', 'opus'],
    ['tone.m4a', 'mp4', 'aac'],
  ])('accepts %s as %s/%s with its length', async (name, format, codec) => {
    const probe = await probeAudioFile(join(dir, name), { ffmpegPath });
    if (!probe.ok) throw new Error(probe.message);
    expect(probe.format).toBe(format);
    expect(probe.codec).toBe(codec);
    expect(probe.duration).toBeGreaterThan(7.5);
    expect(probe.duration).toBeLessThan(8.5);
    expect(probe.hasCover).toBe(name === 'tone.mp3');
  });

  it('refuses a video with sound as 415 VIDEO: the station plays audio files', async () => {
    expect(refusal(await probeAudioFile(join(dir, 'film.mp4')))).toEqual({
      status: 415,
      code: 'VIDEO',
    });
  });

  it('refuses a video without sound as 415', async () => {
    expect(refusal(await probeAudioFile(join(dir, 'silent-film.mp4')))).toEqual({
      status: 415,
      code: 'VIDEO',
    });
  });

  it('refuses random bytes and text named .mp3 as 415 NOT_AUDIO', async () => {
    expect(refusal(await probeAudioFile(join(dir, 'noise.mp3')))).toEqual({
      status: 415,
      code: 'NOT_AUDIO',
    });
    expect(refusal(await probeAudioFile(join(dir, 'notes.mp3')))).toEqual({
      status: 415,
      code: 'NOT_AUDIO',
    });
  });

  it('refuses an empty file as 422 EMPTY_FILE', async () => {
    expect(refusal(await probeAudioFile(join(dir, 'empty.mp3')))).toEqual({
      status: 422,
      code: 'EMPTY_FILE',
    });
  });

  it('refuses an MP3 header followed by noise as 422 UNDECODABLE', async () => {
    expect(refusal(await probeAudioFile(join(dir, 'corrupt.mp3')))).toEqual({
      status: 422,
      code: 'UNDECODABLE',
    });
  });

  it('refuses an MP3 cut in half as 422 TRUNCATED, and one cut inside its first frame as 422', async () => {
    const source = join(dir, 'tone.mp3');
    const { size } = await stat(source);
    const half = await truncate(source, join(dir, 'half.mp3'), Math.floor(size / 2));
    const probe = await probeAudioFile(half);
    expect(refusal(probe)).toEqual({ status: 422, code: 'TRUNCATED' });
    expect(probe.ok ? '' : probe.message).toMatch(
      /cut short: \d+\.\d s of audio where its header says 8\.\d s/,
    );
    // The cover picture sits in the ID3 tag: cut just after it, only a frame's start remains.
    const stub = await truncate(source, join(dir, 'stub.mp3'), (await id3Size(source)) + 200);
    expect(refusal(await probeAudioFile(stub)).status).toBe(422);
  });
});

describe('audioContentHash', () => {
  it('is the same after re-tagging, differs for other audio, and ignores the cover', async () => {
    const source = join(dir, 'tone.mp3');
    const retagged = join(dir, 'retagged.mp3');
    await ffmpeg([
      '-i',
      source,
      '-map',
      '0:a',
      '-c',
      'copy',
      '-id3v2_version',
      '4',
      '-metadata',
      'title=Renamed',
      retagged,
    ]);
    const [a, b, other] = await Promise.all([
      audioContentHash(source, { ffmpegPath }),
      audioContentHash(retagged),
      audioContentHash(join(dir, 'tone.flac')),
    ]);
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(b).toBe(a);
    expect(other).not.toBe(a);
  });

  it('throws for a file with no audio', async () => {
    await expect(audioContentHash(join(dir, 'silent-film.mp4'))).rejects.toThrow(/ffmpeg/);
  });

  it('leaves no temporary file behind', async () => {
    const before = await readdir(dir);
    await audioContentHash(join(dir, 'tone.flac'));
    expect(await readdir(dir)).toEqual(before);
  });
});
