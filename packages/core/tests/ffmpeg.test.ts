import { execFile } from 'node:child_process';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { generateTestLibrary, type TestLibrary } from '../src/audio/test-audio.ts';
import {
  FfmpegExitError,
  FfmpegNotFoundError,
  ffmpegVersion,
  locateFfmpeg,
  locateFfprobe,
  runFfmpeg,
  silentLogger,
  spawnFfmpeg,
} from '../src/index.ts';

const exec = promisify(execFile);
const logger = silentLogger();

interface Probe {
  format: { duration: string; tags?: Record<string, string> };
  streams: { codec_type: string; codec_name: string; disposition?: { attached_pic?: number } }[];
}

async function probe(ffprobe: string, file: string): Promise<Probe> {
  const { stdout } = await exec(ffprobe, [
    '-v',
    'error',
    '-show_format',
    '-show_streams',
    '-of',
    'json',
    file,
  ]);
  return JSON.parse(stdout) as Probe;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('ffmpeg locator', () => {
  it('prefers FFMPEG_PATH, then PATH', () => {
    const onPath = locateFfmpeg();
    expect(onPath.source).toBe('PATH');
    expect(locateFfmpeg({ ffmpegPath: onPath.path })).toEqual({
      path: onPath.path,
      source: 'FFMPEG_PATH',
    });
  });

  it('falls back to the npm package when PATH has none', () => {
    const found = locateFfmpeg({ pathVar: '/nonexistent' });
    expect(found.source).toBe('@ffmpeg-installer/ffmpeg');
  });

  it('refuses an FFMPEG_PATH that is missing or not executable', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'radio-core-locate-'));
    const plainFile = join(dir, 'ffmpeg');
    await writeFile(plainFile, 'not a program', { mode: 0o644 });
    expect(() => locateFfmpeg({ ffmpegPath: plainFile })).toThrow(FfmpegNotFoundError);
    expect(() => locateFfmpeg({ ffmpegPath: join(dir, 'missing') })).toThrow(
      /is not an executable file/,
    );
    await rm(dir, { recursive: true, force: true });
  });

  it('reports the version', async () => {
    expect(await ffmpegVersion(locateFfmpeg().path)).toMatch(/^\d+\.\d+/);
  });
});

describe('ffmpeg helper and test audio', () => {
  const ffmpeg = locateFfmpeg();
  const ffprobe = locateFfprobe(ffmpeg);
  let dir: string;
  let library: TestLibrary;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'radio-core-audio-'));
    library = await generateTestLibrary(dir, { ffmpegPath: ffmpeg.path, durationSeconds: 2 });
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('writes tagged MP3 and FLAC tracks, some with cover art', async () => {
    const mp3 = await probe(ffprobe, join(dir, 'Alpha Band/First Light/01 - Morning.mp3'));
    expect(mp3.streams.find((s) => s.codec_type === 'audio')?.codec_name).toBe('mp3');
    expect(mp3.streams.some((s) => s.disposition?.attached_pic === 1)).toBe(true);
    expect(mp3.format.tags).toMatchObject({
      title: 'Morning',
      artist: 'Alpha Band',
      album: 'First Light',
      genre: 'Ambient',
    });
    expect(Number(mp3.format.duration)).toBeCloseTo(2, 0);

    const flac = await probe(ffprobe, join(dir, 'Beta Trio/Waves/01 - Tide.flac'));
    expect(flac.streams.find((s) => s.codec_type === 'audio')?.codec_name).toBe('flac');
    expect(flac.streams.some((s) => s.disposition?.attached_pic === 1)).toBe(true);
    const tags = Object.fromEntries(
      Object.entries(flac.format.tags ?? {}).map(([k, v]) => [k.toLowerCase(), v]),
    );
    expect(tags).toMatchObject({ title: 'Tide', artist: 'Beta Trio', date: '2019', track: '1' });

    const plain = await probe(ffprobe, join(dir, 'untagged-demo.mp3'));
    expect(plain.format.tags?.title).toBeUndefined();
    expect(library.valid).toHaveLength(5);
  });

  it('writes a corrupt file that ffprobe rejects and a zero-byte file', async () => {
    await expect(probe(ffprobe, join(dir, library.corrupt))).rejects.toThrow();
    expect((await stat(join(dir, library.empty))).size).toBe(0);
  });

  it('turns a failed exit into an error with the last stderr lines', async () => {
    const failure = runFfmpeg(['-i', join(dir, 'no-such-file.mp3'), '-f', 'null', '-'], {
      ffmpegPath: ffmpeg.path,
      logger,
      name: 'missing input',
    });
    await expect(failure).rejects.toThrow(FfmpegExitError);
    await expect(failure).rejects.toThrow(/no-such-file\.mp3: No such file or directory/);
  });

  it('streams PCM on stdout and kills the child when its owner is disposed', async () => {
    const job = spawnFfmpeg(
      [
        '-f',
        'lavfi',
        '-i',
        'sine=frequency=440',
        '-f',
        's16le',
        '-ac',
        '2',
        '-ar',
        '44100',
        'pipe:1',
      ],
      {
        ffmpegPath: ffmpeg.path,
        logger,
        name: 'endless tone',
      },
    );
    const firstChunk = await new Promise<Buffer>((resolve) => job.stdout?.once('data', resolve));
    expect(firstChunk.length).toBeGreaterThan(0);
    const pid = job.pid as number;
    expect(isRunning(pid)).toBe(true);
    await job.dispose();
    await job.dispose();
    expect(isRunning(pid)).toBe(false);
    await expect(job.exited).resolves.toBeUndefined();
  });

  it('kills the child when the owner aborts its signal', async () => {
    const owner = new AbortController();
    const job = spawnFfmpeg(['-f', 'lavfi', '-i', 'anullsrc', '-f', 'null', '-'], {
      ffmpegPath: ffmpeg.path,
      logger,
      name: 'aborted',
      signal: owner.signal,
    });
    owner.abort();
    await expect(job.exited).resolves.toBeUndefined();
    expect(isRunning(job.pid as number)).toBe(false);
  });

  it('reports a binary that cannot start', async () => {
    const job = spawnFfmpeg(['-version'], {
      ffmpegPath: join(dir, 'not-ffmpeg'),
      logger,
      name: 'ghost',
    });
    await expect(job.exited).rejects.toMatchObject({ code: 'FFMPEG_SPAWN_FAILED' });
  });
});
