import { setPriority } from 'node:os';
import { FfmpegExitError, type Logger, spawnFfmpeg } from '@radio/core';
import { AnalysisLogParser, type Measurement } from './log-parser.ts';

export interface AnalyzeOptions {
  ffmpegPath: string;
  logger: Logger;
  /** A longer recording is refused: decoding stops once this much audio came out. */
  maxSeconds: number;
  /** Aborting kills ffmpeg; the result is then not the file's fault. */
  signal?: AbortSignal;
}

export type AnalyzeResult =
  | { readonly ok: true; readonly measurement: Measurement }
  | {
      readonly ok: false;
      readonly reason: string;
      /** False when ffmpeg could not run or was stopped: the file may be fine, try later. */
      readonly fileFault: boolean;
    };

// One chain, not asplit: ebur128 passes its input through unchanged, so silencedetect sees the
// same samples without a second copy. The filter input `[0:a:0]` is the first audio stream
// (a video file analyses its audio, a file without audio fails with "matches no streams");
// mapping it with `-map 0:a:0` as well would decode it into a second, useless output.
const FILTER = '[0:a:0]ebur128=peak=true:framelog=verbose,silencedetect=n=-60dB:d=0.05[out]';

/** The lowest CPU priority: analysis runs beside playout and must never take its time. */
const NICEST = 19;

export function formatHours(seconds: number): string {
  const hours = seconds / 3600;
  return hours >= 1 ? `${Number(hours.toFixed(2))} h` : `${Math.round(seconds)} s`;
}

/**
 * Measures one file in one ffmpeg decode pass (loudness, loudness range, true peak, cue-in,
 * cue-out and fade point; see Measurement), on one thread at the lowest priority. Never
 * throws: a file that cannot be measured is a result with the reason.
 */
export async function analyzeFile(path: string, options: AnalyzeOptions): Promise<AnalyzeResult> {
  const parser = new AnalysisLogParser();
  let tooLong = false;
  const job = spawnFfmpeg(
    [
      '-nostdin',
      '-v',
      'verbose',
      '-threads',
      '1',
      '-filter_complex_threads',
      '1',
      '-i',
      path,
      '-filter_complex',
      FILTER,
      '-map',
      '[out]',
      '-f',
      'null',
      '-',
    ],
    {
      ffmpegPath: options.ffmpegPath,
      logger: quiet(options.logger),
      name: 'analysis',
      stdin: 'ignore',
      stdout: 'ignore',
      ...(options.signal ? { signal: options.signal } : {}),
    },
  );
  if (job.pid !== undefined) {
    try {
      setPriority(job.pid, NICEST);
    } catch {
      // It exited already (it could not open the file): the result says why.
    }
  }
  let partial = '';
  job.child.stderr?.on('data', (text: string | Buffer) => {
    const lines = (partial + text.toString()).split(/\r?\n|\r/);
    partial = lines.pop() ?? '';
    for (const line of lines) parser.line(line);
    if (!tooLong && parser.decodedSeconds > options.maxSeconds) {
      tooLong = true;
      void job.dispose();
    }
  });
  try {
    await job.exited;
  } catch (error) {
    return failure(error, parser, options);
  }
  if (partial) parser.line(partial);
  if (tooLong) return longerThan(options.maxSeconds);
  if (options.signal?.aborted) return { ok: false, reason: 'analysis stopped', fileFault: false };
  const parsed = parser.result();
  return parsed.ok ? parsed : { ok: false, reason: parsed.reason, fileFault: true };
}

export function longerThan(maxSeconds: number): AnalyzeResult {
  return { ok: false, reason: `longer than ${formatHours(maxSeconds)}`, fileFault: true };
}

function failure(
  error: unknown,
  parser: AnalysisLogParser,
  options: AnalyzeOptions,
): AnalyzeResult {
  if (options.signal?.aborted) return { ok: false, reason: 'analysis stopped', fileFault: false };
  // ffmpeg that could not start, or was killed from outside, says nothing about the file.
  if (!(error instanceof FfmpegExitError) || error.signal !== null) {
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, reason: message, fileFault: false };
  }
  const said = parser.error ?? error.stderrTail.at(-1) ?? `ffmpeg exited with ${error.exitCode}`;
  if (said.includes('matches no streams')) {
    return { ok: false, reason: 'no audio stream (a video or data file?)', fileFault: true };
  }
  return { ok: false, reason: `cannot decode: ${said}`, fileFault: true };
}

/**
 * spawnFfmpeg logs every stderr line at debug; the frame log is ten lines a second of audio,
 * so a debug log would get hundreds of thousands of them for one long file.
 */
function quiet(logger: Logger): Logger {
  return logger.isLevelEnabled('debug') ? logger.child({}, { level: 'info' }) : logger;
}
