import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { locateFfmpeg, silentLogger } from '@radio/core';
import { generateTrack } from '@radio/core/test-audio';
import { CHANNELS, SAMPLE_RATE } from '../pcm.ts';
import { FallbackSource } from './fallback-source.ts';

jest.setTimeout(30_000);

const ffmpegPath = locateFfmpeg().path;
const BLOCK = 2205;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Pulls `seconds` of audio the way the clock does; the peak of each block. */
async function play(source: FallbackSource, seconds: number, pace = 2): Promise<number[]> {
  const out = new Float32Array(BLOCK * CHANNELS);
  const peaks: number[] = [];
  for (let done = 0; done < seconds * SAMPLE_RATE; done += BLOCK) {
    source.fill(out, BLOCK);
    let peak = 0;
    for (const value of out) peak = Math.max(peak, Math.abs(value));
    peaks.push(peak);
    // Faster than real time, but leaving ffmpeg time to decode.
    await sleep(pace);
  }
  return peaks;
}

/** The blocks after the first one with sound (a decoder takes a moment to start). */
function afterStart(peaks: number[]): number[] {
  const first = peaks.findIndex((peak) => peak > 0);
  expect(first).toBeGreaterThanOrEqual(0);
  return peaks.slice(first);
}

describe('FallbackSource', () => {
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'fallback-'));
    await generateTrack(
      join(dir, 'short.flac'),
      { format: 'flac', durationSeconds: 1.5 },
      { ffmpegPath },
    );
    await generateTrack(
      join(dir, 'long.flac'),
      { format: 'flac', durationSeconds: 3 },
      { ffmpegPath },
    );
    await writeFile(join(dir, 'broken.mp3'), Buffer.alloc(2048, 7));
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('plays the station-ID chime at once without a file', async () => {
    const source = new FallbackSource({ ffmpegPath, file: undefined, logger: silentLogger() });
    source.start();
    const peaks = await play(source, 1);
    expect(source.kind).toBe('chime');
    expect(peaks[0]).toBeGreaterThan(0.01);
    await source.close();
  });

  it.each([
    ['from memory', 'short.flac', 10],
    ['decoded again each pass', 'long.flac', 1],
  ])('loops a file %s without a gap', async (_how, name, clipMaxSeconds) => {
    const source = new FallbackSource({
      ffmpegPath,
      file: join(dir, name),
      logger: silentLogger(),
      clipMaxSeconds,
    });
    try {
      source.start();
      // Five times real time: the next pass has a fifth of the last one's buffer to start.
      const peaks = afterStart(await play(source, 8, 10));
      expect(source.kind).toBe('file');
      // Two passes and more, every block with sound: no silence where the file starts again.
      expect(peaks.length * BLOCK).toBeGreaterThan(6 * SAMPLE_RATE);
      expect(peaks.filter((peak) => peak < 0.01)).toEqual([]);
    } finally {
      await source.close();
    }
  });

  it('plays the chime when the file cannot be played', async () => {
    const source = new FallbackSource({
      ffmpegPath,
      file: join(dir, 'broken.mp3'),
      logger: silentLogger(),
    });
    source.start();
    const peaks = afterStart(await play(source, 3));
    expect(source.kind).toBe('chime');
    expect(Math.max(...peaks)).toBeGreaterThan(0.05);
    await source.close();
  });
});
