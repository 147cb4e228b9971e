import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, test } from '@jest/globals';
import { locateFfmpeg, locateFfprobe } from '@radio/core';
import { formatOf } from './index.ts';

const run = promisify(execFile);
const ffmpeg = locateFfmpeg().path;
const ffprobe = locateFfprobe(locateFfmpeg());
let dir = '';
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('content types', () => {
  test('map to formats as Icecast classifies them', () => {
    expect(formatOf('audio/mpeg').kind).toBe('mp3');
    expect(formatOf('audio/aac').kind).toBe('aac');
    expect(formatOf('audio/aacp').kind).toBe('aac');
    expect(formatOf('application/ogg').kind).toBe('ogg');
    expect(formatOf('application/ogg').icy).toBe(false);
    expect(formatOf('audio/x-weird').kind).toBe('generic');
  });
});

describe('silence in the mount format, decoded by real ffmpeg', () => {
  test.each([
    ['audio/mpeg', 128, 'mp3', 128_000],
    ['audio/mpeg', 64, 'mp3', 64_000],
    ['audio/aac', 96, 'aac', 96_000],
  ])(
    '%s at %i kbit/s is digital silence that ffprobe reads as %s',
    async (type, bitrate, codec, bps) => {
      dir ||= await mkdtemp(join(tmpdir(), 'stream-silence-'));
      const format = formatOf(type);
      const silence = format.silence(format.defaultTemplate(bitrate) as Buffer, bitrate);
      expect(silence).not.toBeNull();
      const frames = Array.from({ length: 400 }, (_, i) => silence?.frameAt(i) as Buffer);
      const data = Buffer.concat(frames);
      // The exact byte rate of the bitrate.
      const seconds = (400 * (silence?.samplesPerFrame ?? 0)) / (silence?.sampleRate ?? 1);
      expect(data.length / seconds).toBeCloseTo((bitrate * 1000) / 8, -1);
      const file = join(dir, `silence-${bitrate}.${codec}`);
      await writeFile(file, data);
      const probe = await run(ffprobe, [
        '-v',
        'error',
        '-show_entries',
        'stream=codec_name,sample_rate,channels,bit_rate',
        '-of',
        'json',
        file,
      ]);
      const stream = JSON.parse(probe.stdout).streams[0];
      expect(stream).toMatchObject({ codec_name: codec, sample_rate: '44100', channels: 2 });
      expect(Math.abs(Number(stream.bit_rate) - bps) / bps).toBeLessThan(0.02);
      const decoded = await run(ffmpeg, [
        '-hide_banner',
        '-v',
        'info',
        '-i',
        file,
        '-af',
        'volumedetect',
        '-f',
        'null',
        '-',
      ]);
      expect(decoded.stderr).toMatch(/max_volume: -91\.0 dB/);
      expect(decoded.stderr).not.toMatch(/error/i);
    },
  );
});
