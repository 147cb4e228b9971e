// `pnpm --filter @radio/scheduler bench:analysis [--files 20] [--seconds 30]`
//
// Throughput of the background loudness and cue analysis: generated MP3 files (tones with a
// fade-out, 128 kb/s) analysed one at a time, as the scheduler's worker does them with
// concurrency 1. CPU is ffmpeg's (what the reaped children left in /proc/self/stat's cutime
// and cstime) plus this process's own (reading ffmpeg's log); the figure is seconds of audio
// analysed per CPU-second of one core. `benchAnalysis` is what bench:playout calls for its row.
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { locateFfmpeg, runFfmpeg, silentLogger } from '@radio/core';
import { DEFAULT_MAX_SECONDS } from '../src/analysis/analysis-worker.ts';
import { analyzeFile } from '../src/analysis/analyzer.ts';

export interface AnalysisBench {
  files: number;
  /** Seconds of audio analysed. */
  audioSeconds: number;
  wallSeconds: number;
  /** ffmpeg's CPU plus the log parsing in this process. */
  cpuSeconds: number;
  /** Seconds of audio per CPU-second of one core. */
  perCpuSecond: number;
  /** Seconds of audio per second of wall time (one file at a time). */
  perWallSecond: number;
}

const CLK_TCK = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;

/** CPU seconds of this process's reaped children. */
async function childrenCpu(): Promise<number> {
  const text = await readFile('/proc/self/stat', 'utf8');
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[13]) + Number(fields[14])) / CLK_TCK;
}

function ownCpu(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1e6;
}

export async function benchAnalysis(
  options: { files?: number; seconds?: number; ffmpegPath?: string } = {},
): Promise<AnalysisBench> {
  const files = options.files ?? 20;
  const seconds = options.seconds ?? 30;
  const ffmpegPath = options.ffmpegPath ?? locateFfmpeg().path;
  const logger = silentLogger();
  const dir = await mkdtemp(join(tmpdir(), 'bench-analysis-'));
  try {
    const paths: string[] = [];
    for (let i = 0; i < files; i++) {
      const path = join(dir, `track ${i}.mp3`);
      const tone = `sine=f=${220 + i * 20}:r=44100:d=${seconds},afade=t=out:st=${seconds - 3}:d=3`;
      await runFfmpeg(
        ['-loglevel', 'error', '-y', '-f', 'lavfi', '-i', tone, '-ac', '2', '-b:a', '128k', path],
        { ffmpegPath, logger, name: 'bench audio' },
      );
      paths.push(path);
    }
    const cpu0 = (await childrenCpu()) + ownCpu();
    const wall0 = performance.now();
    let audioSeconds = 0;
    for (const path of paths) {
      const result = await analyzeFile(path, {
        ffmpegPath,
        logger,
        maxSeconds: DEFAULT_MAX_SECONDS,
      });
      if (!result.ok) throw new Error(`analysis of ${path} failed: ${result.reason}`);
      audioSeconds += result.measurement.duration;
    }
    const wallSeconds = (performance.now() - wall0) / 1000;
    const cpuSeconds = (await childrenCpu()) + ownCpu() - cpu0;
    return {
      files,
      audioSeconds,
      wallSeconds,
      cpuSeconds,
      perCpuSecond: audioSeconds / cpuSeconds,
      perWallSecond: audioSeconds / wallSeconds,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      files: { type: 'string', default: '20' },
      seconds: { type: 'string', default: '30' },
    },
  });
  const result = await benchAnalysis({
    files: Number(values.files),
    seconds: Number(values.seconds),
  });
  const rows: [string, string][] = [
    ['files analysed (one at a time)', String(result.files)],
    ['audio, s', result.audioSeconds.toFixed(1)],
    ['wall time, s', result.wallSeconds.toFixed(2)],
    ['CPU, s (ffmpeg + log parsing)', result.cpuSeconds.toFixed(2)],
    ['s of audio per CPU-second of one core', result.perCpuSecond.toFixed(1)],
    ['s of audio per wall second', result.perWallSecond.toFixed(1)],
  ];
  const width = Math.max(...rows.map((row) => row[0].length));
  console.log(`\nAnalysis benchmark: ${result.files} MP3 files of ${values.seconds} s\n`);
  for (const [name, value] of rows) console.log(`| ${name.padEnd(width)} | ${value.padStart(8)} |`);
  console.log('');
}
