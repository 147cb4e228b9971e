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

function peakOf(block: Float32Array): number {
  let peak = 0;
  for (const value of block) peak = Math.max(peak, Math.abs(value));
  return peak;
}

/**
 * Pulls audio the way the clock does, faster than real time but leaving ffmpeg time to decode:
 * first until a block has sound (a decoder, or the failure of one, takes a moment, longer on a
 * busy machine), then `seconds` more. The peak of each block from the first with sound.
 */
async function play(source: FallbackSource, seconds: number, pace = 2): Promise<number[]> {
  const out = new Float32Array(BLOCK * CHANNELS);
  const startedBy = Date.now() + 20_000;
  for (;;) {
    source.fill(out, BLOCK);
    if (peakOf(out) > 0) break;
    if (Date.now() > startedBy) throw new Error('no sound within 20 s');
    await sleep(pace);
  }
  const peaks = [peakOf(out)];
  for (let done = BLOCK; done < seconds * SAMPLE_RATE; done += BLOCK) {
    await sleep(pace);
    source.fill(out, BLOCK);
    peaks.push(peakOf(out));
  }
  return peaks;
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
    const first = new Float32Array(BLOCK * CHANNELS);
    source.fill(first, BLOCK);
    expect(source.kind).toBe('chime');
    expect(peakOf(first)).toBeGreaterThan(0.01);
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
      // Twice real time: the next pass has half the last one's buffer to start (five times
      // was more than a loaded machine's ffmpeg could start in, beside other suites).
      const peaks = await play(source, 8, 25);
      expect(source.kind).toBe('file');
      // Over two passes, every block with sound: no silence where the file starts again.
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
    try {
      source.start();
      const peaks = await play(source, 3);
      expect(source.kind).toBe('chime');
      expect(Math.max(...peaks)).toBeGreaterThan(0.05);
    } finally {
      await source.close();
    }
  });
});
