import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { locateFfmpeg, probeAudioFile, runFfmpeg, silentLogger } from '@radio/core';
import { generateTrack, type TestAudioFormat, writeCorruptFile } from '@radio/core/test-audio';
import { checkAudioFile, findMediaTools, sniffAudio } from '../src/audio.ts';
import { singleFileTar } from '../src/tar.ts';

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'radioctl-audio-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('sniffAudio', () => {
  test('knows the formats by their first bytes', () => {
    const bytes = (...values: (number | string)[]): Buffer =>
      Buffer.concat(
        values.map((v) => (typeof v === 'string' ? Buffer.from(v, 'latin1') : Buffer.from([v]))),
      );
    expect(sniffAudio(bytes('fLaC', 0, 0, 0, 34))).toBe('flac');
    expect(sniffAudio(bytes('OggS', 0, 2))).toBe('ogg');
    expect(sniffAudio(bytes('RIFF', 0, 0, 0, 0, 'WAVEfmt '))).toBe('wav');
    expect(sniffAudio(bytes(0, 0, 0, 0x20, 'ftypM4A ', 0, 0))).toBe('mp4');
    expect(sniffAudio(bytes('ID3', 4, 0, 0, 0, 0, 0, 0))).toBe('mp3');
    expect(sniffAudio(bytes(0xff, 0xfb, 0x90, 0x64))).toBe('mp3');
    expect(sniffAudio(bytes(0xff, 0xf1, 0x50, 0x80))).toBe('aac');
  });

  test('refuses what is not audio', () => {
    expect(sniffAudio(Buffer.from('hello world'))).toBeNull();
    expect(sniffAudio(Buffer.from([0xff, 0xd8, 0xff, 0xe0]))).toBeNull(); // JPEG
    expect(sniffAudio(Buffer.from('%PDF-1.7'))).toBeNull();
    expect(sniffAudio(Buffer.from([0, 0, 0, 0x20, ...Buffer.from('ftypheic')]))).toBeNull();
    expect(sniffAudio(Buffer.alloc(0))).toBeNull();
  });
});

describe('checkAudioFile on real files', () => {
  const formats: [TestAudioFormat, string, string][] = [
    ['mp3', 'a.mp3', 'mp3'],
    ['flac', 'a.flac', 'flac'],
    ['ogg', 'a.ogg', 'ogg'],
    ['opus', 'a.opus', 'ogg'],
    ['m4a', 'a.m4a', 'mp4'],
    ['wav', 'a.wav', 'wav'],
  ];

  test.each(formats)('%s from ffmpeg is audio', async (format, name, sniffed) => {
    const path = await generateTrack(
      join(dir, name),
      { format, durationSeconds: 1, tags: { title: 'T', artist: 'A' } },
      { ffmpegPath: locateFfmpeg().path },
    );
    const tools = findMediaTools(process.env.PATH);
    const check = await checkAudioFile(path, tools);
    expect(check).toMatchObject({ path, format: sniffed, probed: tools !== null });
    expect(check.size).toBeGreaterThan(0);
  });

  test('refuses a missing file, a folder, a wrong extension, text, an empty file', async () => {
    await expect(checkAudioFile(join(dir, 'none.mp3'), null)).rejects.toMatchObject({
      code: 'OPS_FILE_NOT_FOUND',
      exitCode: 6,
    });
    await mkdir(join(dir, 'folder.mp3'));
    await expect(checkAudioFile(join(dir, 'folder.mp3'), null)).rejects.toMatchObject({
      code: 'OPS_NOT_AUDIO',
    });
    await writeFile(join(dir, 'song.txt'), 'x');
    await expect(checkAudioFile(join(dir, 'song.txt'), null)).rejects.toMatchObject({
      code: 'OPS_NOT_AUDIO',
      message: expect.stringContaining('not an audio file the library plays'),
    });
    await writeFile(join(dir, 'text.flac'), 'not a flac');
    await expect(checkAudioFile(join(dir, 'text.flac'), null)).rejects.toMatchObject({
      code: 'OPS_NOT_AUDIO',
    });
    await writeFile(join(dir, 'empty.mp3'), '');
    await expect(checkAudioFile(join(dir, 'empty.mp3'), null)).rejects.toMatchObject({
      message: expect.stringContaining('empty file'),
    });
  });

  test('the probe catches a file whose first bytes lie, with the reason the api gives', async () => {
    const tools = findMediaTools(process.env.PATH);
    const corrupt = await writeCorruptFile(join(dir, 'corrupt.mp3'));
    // By its first bytes alone it passes (an ID3 tag)...
    await expect(checkAudioFile(corrupt, null)).resolves.toMatchObject({
      format: 'mp3',
      probed: false,
    });
    if (tools === null) return; // ...and only ffmpeg can tell: nothing more to check here.
    const probe = await probeAudioFile(corrupt);
    expect(probe).toMatchObject({ ok: false, status: 422, code: 'UNDECODABLE' });
    await expect(checkAudioFile(corrupt, tools)).rejects.toMatchObject({
      code: 'OPS_NOT_AUDIO',
      message: `${corrupt}: ${(probe as { message: string }).message}`,
    });
  });

  test('refuses a video and random bytes as the api does, before anything is copied', async () => {
    const tools = findMediaTools(process.env.PATH);
    if (tools === null) return;
    const film = join(dir, 'film.mp4');
    await runFfmpeg(
      ['-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=d=1:s=160x120:r=10'].concat([
        '-f',
        'lavfi',
        '-i',
        'sine=d=1',
        '-c:v',
        'mpeg4',
        '-c:a',
        'aac',
        film,
      ]),
      { ffmpegPath: tools.ffmpegPath, logger: silentLogger(), name: 'film' },
    );
    const [videoProbe, videoCheck] = await Promise.all([
      probeAudioFile(film),
      checkAudioFile(film, tools).catch((error: Error) => error),
    ]);
    expect(videoProbe).toMatchObject({ ok: false, code: 'VIDEO' });
    expect((videoCheck as Error).message).toBe(
      `${film}: ${(videoProbe as { message: string }).message}`,
    );
    const noise = join(dir, 'noise.mp3');
    await writeFile(
      noise,
      Buffer.from(Array.from({ length: 65536 }, (_, i) => (i * 2654435761) >>> 24)),
    );
    await expect(checkAudioFile(noise, tools)).rejects.toMatchObject({
      code: 'OPS_NOT_AUDIO',
      message: expect.stringContaining('noise.mp3: not audio'),
    });
  });
});

describe('singleFileTar', () => {
  test('is a tar that tar reads back', async () => {
    const data = Buffer.from('x'.repeat(700));
    const archive = join(dir, 'one.tar');
    await writeFile(archive, singleFileTar('Song One.flac', data, { mode: 0o640 }));
    const { stdout } = await promisify(execFile)('tar', ['-tvf', archive]);
    expect(stdout).toMatch(/^-rw-r----- 0\/0\s+700 .* Song One\.flac\n$/);
    const out = join(dir, 'out');
    await mkdir(out);
    await promisify(execFile)('tar', ['-xf', archive, '-C', out]);
    const { readFile } = await import('node:fs/promises');
    expect(await readFile(join(out, 'Song One.flac'))).toEqual(data);
  });

  test('refuses names tar cannot hold in one header', () => {
    expect(() => singleFileTar('a/b', Buffer.alloc(1))).toThrow(RangeError);
    expect(() => singleFileTar('x'.repeat(101), Buffer.alloc(1))).toThrow(RangeError);
  });
});
