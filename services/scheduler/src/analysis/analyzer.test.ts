import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { locateFfmpeg, runFfmpeg, silentLogger } from '@radio/core';
import { analyzeFile } from './analyzer.ts';

const ffmpegPath = locateFfmpeg().path;
const options = { ffmpegPath, logger: silentLogger(), maxSeconds: 3 * 3600 };

/** Writes what an ffmpeg lavfi source makes (stereo, 44.1 kHz) to `path`. */
async function lavfi(path: string, source: string, codec: string[]): Promise<string> {
  await runFfmpeg(['-loglevel', 'error', '-y', '-f', 'lavfi', '-i', source, ...codec, path], {
    ffmpegPath,
    logger: silentLogger(),
    name: 'test audio',
  });
  return path;
}

/** ffmpeg's own ebur128 summary of a file: the reference the analysis must agree with. */
async function reference(path: string): Promise<{ loudness: number; truePeak: number }> {
  const { stderr } = await promisify(execFile)(ffmpegPath, [
    '-hide_banner',
    '-nostats',
    '-i',
    path,
    '-af',
    'ebur128=peak=true',
    '-f',
    'null',
    '-',
  ]);
  const summary = stderr.slice(stderr.lastIndexOf('Summary:'));
  return {
    loudness: Number(/\bI:\s+(-?[\d.]+) LUFS/.exec(summary)?.[1]),
    truePeak: Number(/\bPeak:\s+(-?[\d.]+) dBFS/.exec(summary)?.[1]),
  };
}

const tone = (amplitude: number, seconds: number) =>
  `aevalsrc=${amplitude}*sin(2*PI*997*t)|${amplitude}*sin(2*PI*997*t):s=44100:d=${seconds}`;

describe('analyzeFile', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'analysis-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it.each([
    ['a quiet tone (about -30 LUFS)', tone(0.032, 8), -30],
    ['a loud tone (about -6 LUFS)', tone(0.5, 8), -6],
  ])('measures %s as ffmpeg does', async (_name, source, near) => {
    const path = await lavfi(join(dir, `tone${near}.flac`), source, ['-c:a', 'flac']);
    const result = await analyzeFile(path, options);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const expected = await reference(path);
    expect(Math.abs(result.measurement.loudness - expected.loudness)).toBeLessThanOrEqual(0.5);
    expect(Math.abs(result.measurement.loudness - near)).toBeLessThan(1.5);
    expect(Math.abs((result.measurement.truePeak ?? 0) - expected.truePeak)).toBeLessThan(0.5);
    expect(result.measurement).toMatchObject({ cueIn: 0, cueOut: 8, duration: 8 });
    expect(result.measurement.fadePoint).toBeCloseTo(8, 3);
  });

  it('finds the true peak of a clipping square wave above 0 dBTP', async () => {
    const path = await lavfi(
      join(dir, 'square.mp3'),
      'aevalsrc=if(gt(sin(2*PI*440*t)\\,0)\\,1\\,-1):s=44100:c=stereo:d=6',
      ['-c:a', 'libmp3lame', '-b:a', '192k'],
    );
    const result = await analyzeFile(path, options);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const expected = await reference(path);
    expect(result.measurement.truePeak).toBeGreaterThan(0);
    expect(Math.abs((result.measurement.truePeak ?? 0) - expected.truePeak)).toBeLessThan(0.5);
    expect(Math.abs(result.measurement.loudness - expected.loudness)).toBeLessThanOrEqual(0.5);
  });

  it('finds the cue points of 4 s of lead-in and 6 s of tail silence', async () => {
    const path = await lavfi(
      join(dir, 'padded.mp3'),
      `${tone(0.25, 5)},adelay=4000|4000,apad=whole_dur=15`,
      ['-c:a', 'libmp3lame', '-b:a', '128k'],
    );
    const result = await analyzeFile(path, options);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const { cueIn, cueOut, fadePoint, duration } = result.measurement;
    expect(Math.abs(cueIn - 4)).toBeLessThan(0.05);
    expect(Math.abs(cueOut - 9)).toBeLessThan(0.05);
    expect(Math.abs(duration - 15)).toBeLessThan(0.05);
    expect(fadePoint).toBeGreaterThan(8.8);
    expect(fadePoint).toBeLessThanOrEqual(cueOut);
  });

  it('puts the fade point where a fade-out has fallen 12 LU', async () => {
    // A linear fade from 6 s to 10 s is 12 dB down (a quarter of the amplitude) at 9 s; the
    // momentary loudness (400 ms window) follows a little later.
    const path = await lavfi(join(dir, 'fade.flac'), `${tone(0.25, 10)},afade=t=out:st=6:d=4`, [
      '-c:a',
      'flac',
    ]);
    const result = await analyzeFile(path, options);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.measurement.fadePoint).toBeGreaterThan(8.9);
    expect(result.measurement.fadePoint).toBeLessThan(9.4);
    expect(result.measurement.cueOut).toBeGreaterThan(9.8);
  });

  it('measures the audio of a video file', async () => {
    const path = join(dir, 'clip.mp4');
    await runFfmpeg(
      [
        '-loglevel',
        'error',
        '-y',
        '-f',
        'lavfi',
        '-i',
        'testsrc=d=3:s=160x120',
        '-f',
        'lavfi',
        '-i',
        tone(0.25, 3),
        '-shortest',
        '-c:v',
        'libx264',
        '-c:a',
        'aac',
        path,
      ],
      { ffmpegPath, logger: silentLogger(), name: 'test video' },
    );
    const result = await analyzeFile(path, options);
    expect(result.ok && Math.abs(result.measurement.duration - 3)).toBeLessThan(0.1);
  });

  it('fails clearly on random bytes, a video without audio and a missing file', async () => {
    const noise = join(dir, 'noise.mp3');
    await writeFile(noise, Buffer.from(Array.from({ length: 64_000 }, (_, i) => (i * 7919) % 251)));
    expect(await analyzeFile(noise, options)).toMatchObject({
      ok: false,
      fileFault: true,
      reason: expect.stringMatching(/^cannot decode: /),
    });
    const video = join(dir, 'video-only.mp4');
    await lavfi(video, 'testsrc=d=2:s=160x120', ['-c:v', 'libx264']);
    expect(await analyzeFile(video, options)).toEqual({
      ok: false,
      fileFault: true,
      reason: 'no audio stream (a video or data file?)',
    });
    expect(await analyzeFile(join(dir, 'gone.mp3'), options)).toMatchObject({
      ok: false,
      reason: expect.stringContaining('No such file'),
    });
  });

  it('stops a recording longer than the limit once that much is decoded', async () => {
    const path = await lavfi(join(dir, 'long.flac'), tone(0.25, 20), ['-c:a', 'flac']);
    expect(await analyzeFile(path, { ...options, maxSeconds: 5 })).toEqual({
      ok: false,
      fileFault: true,
      reason: 'longer than 5 s',
    });
  });

  it('reports an aborted analysis as not the file’s fault', async () => {
    const path = await lavfi(join(dir, 'abort.flac'), tone(0.25, 60), ['-c:a', 'flac']);
    const controller = new AbortController();
    const running = analyzeFile(path, { ...options, signal: controller.signal });
    controller.abort();
    expect(await running).toEqual({ ok: false, fileFault: false, reason: 'analysis stopped' });
  });
});
