import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  FrameSplitter,
  locateFfmpeg,
  parseAdtsHeader,
  parseMp3Header,
  runFfmpeg,
  silentLogger,
} from '@radio/core';
import { encoderArgs } from './encoder-args.ts';

describe('FrameSplitter on real encoder output', () => {
  let dir: string;
  const ffmpegPath = locateFfmpeg().path;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'frames-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const encode = async (codec: 'mp3' | 'aac', bitrate: number): Promise<Buffer> => {
    const file = join(dir, `out-${codec}-${bitrate}`);
    await runFfmpeg(
      [
        '-loglevel',
        'error',
        '-f',
        'lavfi',
        '-i',
        'sine=frequency=440:sample_rate=44100:duration=2',
        '-ac',
        '2',
        ...encoderArgs({ codec, bitrate }),
        '-y',
        file,
      ],
      { ffmpegPath, logger: silentLogger(), name: 'test encode' },
    );
    return readFile(file);
  };

  it.each([
    ['mp3', 128, 'mp3'],
    ['mp3', 64, 'mp3'],
    ['aac', 96, 'adts'],
  ] as const)('cuts %s %i k into whole frames, in any chunking', async (codec, bitrate, format) => {
    const data = await encode(codec, bitrate);
    const whole: Buffer[] = [];
    let samples = 0;
    const splitter = new FrameSplitter(format);
    const onFrames = (frames: Buffer, count: number): void => {
      whole.push(Buffer.from(frames));
      samples += count;
    };
    // Odd chunk sizes cut headers and frames in every possible place.
    for (let at = 0; at < data.length; at += 333) {
      splitter.push(data.subarray(at, at + 333), onFrames);
    }
    const joined = Buffer.concat(whole);
    expect(splitter.junkBytes).toBe(0);
    expect(data.subarray(0, joined.length).equals(joined)).toBe(true);
    expect(data.length - joined.length).toBeLessThan(1200); // at most the last frame waits
    // Two seconds of audio (plus the encoder's priming and padding).
    expect(samples / 44_100).toBeGreaterThan(1.9);
    expect(samples / 44_100).toBeLessThan(2.2);
    const parse = format === 'mp3' ? parseMp3Header : parseAdtsHeader;
    expect(parse(joined, 0)?.samples).toBe(format === 'mp3' ? 1152 : 1024);
  });
});
