// The soak benchmark's music folder: many short tagged tones in every format the station plays
// (MP3, FLAC, AAC in MP4 and ADTS, Ogg Vorbis), a few corrupt or empty files among them, made by
// a bounded pool of ffmpeg processes, each writing a batch of files.
import { mkdir } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { runFfmpeg, silentLogger } from '@radio/core';
import { writeCorruptFile, writeEmptyFile } from '@radio/core/test-audio';

const CODECS: Record<string, string[]> = {
  mp3: ['-c:a', 'libmp3lame', '-b:a', '128k', '-id3v2_version', '3'],
  flac: ['-c:a', 'flac'],
  m4a: ['-c:a', 'aac', '-b:a', '96k'],
  aac: ['-c:a', 'aac', '-b:a', '96k', '-f', 'adts'],
  ogg: ['-c:a', 'libvorbis', '-q:a', '2'],
};
const FORMATS = Object.keys(CODECS);

export interface SoakLibrary {
  files: number;
  corrupt: number;
  empty: number;
  /** Seconds of audio over the playable files. */
  seconds: number;
}

interface Plan {
  path: string;
  kind: 'audio' | 'corrupt' | 'empty';
  format: string;
  seconds: number;
  frequency: number;
  index: number;
}

/** File i of n: every 97th is corrupt, every 199th empty, the rest 2-5 s tones. */
function plan(dir: string, i: number): Plan {
  const format = FORMATS[i % FORMATS.length] as string;
  const kind = i % 199 === 198 ? 'empty' : i % 97 === 96 ? 'corrupt' : 'audio';
  const name = `${String(i + 1).padStart(5, '0')} - Soak ${i + 1}.${kind === 'audio' ? format : 'mp3'}`;
  return {
    path: join(dir, `${String(Math.floor(i / 100)).padStart(3, '0')}`, name),
    kind,
    format,
    seconds: 2 + ((i * 0.37) % 3),
    frequency: 220 + ((i * 37) % 660),
    index: i,
  };
}

function outputArgs(file: Plan, input: number): string[] {
  const tags =
    file.format === 'aac'
      ? []
      : [
          ['title', `Soak ${file.index + 1}`],
          ['artist', `Artist ${file.index % 50}`],
          ['album', `Album ${file.index % 120}`],
        ].flatMap(([key, value]) => ['-metadata', `${key}=${value}`]);
  return [
    '-map',
    `${input}:a`,
    '-ac',
    '2',
    ...(CODECS[file.format] as string[]),
    ...tags,
    file.path,
  ];
}

/** One ffmpeg for a batch: one tone input and one output per file (process start-up dominates). */
async function writeBatch(batch: readonly Plan[], ffmpegPath: string): Promise<void> {
  const inputs = batch.flatMap((file) => [
    '-f',
    'lavfi',
    '-i',
    `sine=frequency=${file.frequency}:sample_rate=44100:duration=${file.seconds.toFixed(2)}`,
  ]);
  const outputs = batch.flatMap((file, i) => outputArgs(file, i));
  await runFfmpeg(['-loglevel', 'error', '-y', ...inputs, ...outputs], {
    ffmpegPath,
    logger: silentLogger(),
    name: 'soak tracks',
  });
}

const BATCH = 25;

export async function generateSoakLibrary(
  dir: string,
  count: number,
  ffmpegPath: string,
): Promise<SoakLibrary> {
  const files = Array.from({ length: count }, (_, i) => plan(dir, i));
  await Promise.all(
    [...new Set(files.map((f) => join(f.path, '..')))].map((d) => mkdir(d, { recursive: true })),
  );
  const audio = files.filter((f) => f.kind === 'audio');
  for (const file of files) {
    if (file.kind === 'corrupt') await writeCorruptFile(file.path);
    if (file.kind === 'empty') await writeEmptyFile(file.path);
  }
  const batches: Plan[][] = [];
  for (let i = 0; i < audio.length; i += BATCH) batches.push(audio.slice(i, i + BATCH));
  const worker = async () => {
    for (let batch = batches.shift(); batch; batch = batches.shift()) {
      await writeBatch(batch, ffmpegPath);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, availableParallelism()) }, worker));
  return {
    files: count,
    corrupt: files.filter((f) => f.kind === 'corrupt').length,
    empty: files.filter((f) => f.kind === 'empty').length,
    seconds: audio.reduce((sum, f) => sum + f.seconds, 0),
  };
}
