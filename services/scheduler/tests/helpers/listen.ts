import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { get } from 'node:http';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { locateFfmpeg, locateFfprobe, runFfmpeg, silentLogger } from '@radio/core';

const ffmpeg = locateFfmpeg();
const ffprobePath = locateFfprobe(ffmpeg);

export interface Capture {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The audio bytes (ICY metadata blocks taken out). */
  audio: Buffer;
  /** Stream titles seen, with the audio byte offset where each block came. */
  titles: { title: string; at: number; ms: number }[];
}

/**
 * Listens to a mount like a player: GET with `Icy-MetaData: 1`, for `ms` or until `until`
 * says stop (checked as data arrives). Never throws on a refused or closed stream.
 */
export function listen(
  url: string,
  ms: number,
  until?: (capture: Capture) => boolean,
): Promise<Capture> {
  return new Promise((resolve) => {
    const capture: Capture = { status: 0, headers: {}, audio: Buffer.alloc(0), titles: [] };
    const started = Date.now();
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      req.destroy();
      capture.audio = Buffer.concat(chunks);
      resolve(capture);
    };
    const timer = setTimeout(finish, ms);
    const req = get(url, { headers: { 'Icy-MetaData': '1' }, agent: false }, (res) => {
      capture.status = res.statusCode ?? 0;
      capture.headers = res.headers;
      if (capture.status !== 200) {
        res.resume();
        finish();
        return;
      }
      const metaint = Number(res.headers['icy-metaint'] ?? 0);
      let untilMeta = metaint;
      let metaLeft = -1;
      let meta: number[] = [];
      res.on('data', (chunk: Buffer) => {
        let at = 0;
        while (at < chunk.length) {
          if (metaint === 0 || untilMeta > 0) {
            const take = metaint === 0 ? chunk.length - at : Math.min(untilMeta, chunk.length - at);
            chunks.push(chunk.subarray(at, at + take));
            size += take;
            at += take;
            if (metaint > 0) untilMeta -= take;
            continue;
          }
          if (metaLeft < 0) {
            metaLeft = (chunk[at] as number) * 16;
            at += 1;
            meta = [];
          }
          const take = Math.min(metaLeft, chunk.length - at);
          for (let i = 0; i < take; i++) meta.push(chunk[at + i] as number);
          at += take;
          metaLeft -= take;
          if (metaLeft === 0) {
            const text = Buffer.from(meta).toString('utf8');
            const match = /StreamTitle='(.*?)';/.exec(text);
            if (match)
              capture.titles.push({
                title: match[1] as string,
                at: size,
                ms: Date.now() - started,
              });
            metaLeft = -1;
            untilMeta = metaint;
          }
        }
        if (until) {
          capture.audio = Buffer.concat(chunks);
          if (until(capture)) finish();
        }
      });
      res.on('end', finish);
      res.on('error', finish);
    });
    req.on('error', finish);
  });
}

/** Decodes compressed audio to s16le stereo 44.1 kHz. */
export async function decode(audio: Buffer, dir: string, name: string): Promise<Int16Array> {
  const input = join(dir, `${name}.in`);
  const output = join(dir, `${name}.pcm`);
  await writeFile(input, audio);
  await runFfmpeg(
    ['-loglevel', 'error', '-y', '-i', input, '-f', 's16le', '-ac', '2', '-ar', '44100', output],
    { ffmpegPath: ffmpeg.path, logger: silentLogger(), name: 'test decode' },
  );
  const pcm = await readFile(output);
  return new Int16Array(pcm.buffer, pcm.byteOffset, Math.floor(pcm.length / 2));
}

/** RMS level in dBFS of each `windowSeconds` window. */
export function rmsWindows(pcm: Int16Array, windowSeconds: number): number[] {
  const size = Math.round(windowSeconds * 44_100) * 2;
  const levels: number[] = [];
  for (let start = 0; start + size <= pcm.length; start += size) {
    let sum = 0;
    for (let i = start; i < start + size; i++) {
      const s = (pcm[i] as number) / 32_768;
      sum += s * s;
    }
    levels.push(10 * Math.log10(sum / size + 1e-12));
  }
  return levels;
}

export interface ProbeStream {
  codec_name: string;
  profile?: string;
  sample_rate: string;
  channels: number;
  bit_rate?: string;
}

export async function ffprobe(audio: Buffer, dir: string, name: string): Promise<ProbeStream> {
  const file = join(dir, `${name}.probe`);
  await writeFile(file, audio);
  const { stdout } = await promisify(execFile)(ffprobePath, [
    '-v',
    'error',
    '-show_entries',
    'stream=codec_name,profile,sample_rate,channels,bit_rate',
    '-of',
    'json',
    file,
  ]);
  const parsed = JSON.parse(stdout) as { streams: ProbeStream[] };
  return parsed.streams[0] as ProbeStream;
}

/** What ffmpeg complains about while decoding the whole capture (empty when clean). */
export async function decodeErrors(audio: Buffer, dir: string, name: string): Promise<string> {
  const file = join(dir, `${name}.check`);
  await writeFile(file, audio);
  const { stderr } = await promisify(execFile)(ffmpeg.path, [
    '-v',
    'error',
    '-i',
    file,
    '-f',
    'null',
    '-',
  ]);
  return stderr.trim();
}

/** The silences ffmpeg's silencedetect finds (start, duration in seconds). */
export async function silences(
  audio: Buffer,
  dir: string,
  name: string,
  noiseDb = -50,
  minSeconds = 0.02,
): Promise<{ start: number; duration: number }[]> {
  const file = join(dir, `${name}.silence`);
  await writeFile(file, audio);
  const { stderr } = await promisify(execFile)(ffmpeg.path, [
    '-hide_banner',
    '-nostats',
    '-i',
    file,
    '-af',
    `silencedetect=noise=${noiseDb}dB:d=${minSeconds}`,
    '-f',
    'null',
    '-',
  ]);
  const starts = [...stderr.matchAll(/silence_start: (-?[\d.]+)/g)].map((m) => Number(m[1]));
  const durations = [...stderr.matchAll(/silence_duration: ([\d.]+)/g)].map((m) => Number(m[1]));
  return starts.map((start, i) => ({ start, duration: durations[i] ?? Number.NaN }));
}
