import { execFile } from 'node:child_process';
import { open, stat } from 'node:fs/promises';
import { promisify } from 'node:util';
import { type FfmpegLocation, locateFfmpeg, locateFfprobe } from '../ffmpeg/locate.ts';
import { spawnFfmpeg } from '../ffmpeg/spawn.ts';
import { type Logger, silentLogger } from '../logging/logger.ts';

export interface MediaToolOptions {
  /** FFMPEG_PATH when set; else ffmpeg is found as DESIGN.md orders it. */
  ffmpegPath?: string | undefined;
  logger?: Logger | undefined;
  /** Aborting kills the ffmpeg and ffprobe children. */
  signal?: AbortSignal | undefined;
}

export interface AudioFileInfo {
  ok: true;
  /** The container as the station names it: mp3, flac, ogg, mp4, wav, aac … */
  format: string;
  /** The first audio stream's codec (ffprobe's codec_name). */
  codec: string;
  /** Seconds of audio, measured from the packets (not the header's claim). */
  duration: number;
  sampleRate: number | null;
  channels: number | null;
  /** Bits per second when the container states it. */
  bitRate: number | null;
  size: number;
  /** Whether the file carries a cover picture (an attached picture stream). */
  hasCover: boolean;
}

export type AudioRefusalCode =
  | 'NOT_AUDIO'
  | 'NO_AUDIO_STREAM'
  | 'VIDEO'
  | 'EMPTY_FILE'
  | 'UNDECODABLE'
  | 'NO_DURATION'
  | 'TRUNCATED';

export interface AudioRefusal {
  ok: false;
  /** 415: not audio at all; 422: an audio file the station cannot play. */
  status: 415 | 422;
  code: AudioRefusalCode;
  message: string;
}

export type AudioProbe = AudioFileInfo | AudioRefusal;

interface ProbeStream {
  codec_type?: string;
  codec_name?: string;
  sample_rate?: string;
  channels?: number;
  disposition?: { attached_pic?: number };
}

interface ProbeReport {
  streams?: ProbeStream[];
  format?: { format_name?: string; duration?: string; bit_rate?: string };
}

const DECODE_SECONDS = 5;
const PROBE_TIMEOUT_MS = 60_000;
/** A header's length claim may exceed the packets by this much before the file counts as cut. */
const TRUNCATION_TOLERANCE_SECONDS = 1;

const refuse = (status: 415 | 422, code: AudioRefusalCode, message: string): AudioRefusal => ({
  ok: false,
  status,
  code,
  message,
});

/** The container's station name from ffprobe's format_name list ("mov,mp4,m4a,…" → mp4). */
function containerName(formatName: string): string {
  if (formatName.includes('mp4') || formatName.includes('m4a')) return 'mp4';
  return formatName.split(',')[0] ?? formatName;
}

/** Whether the first bytes are those of an audio container (so a failure is "broken audio"). */
async function looksLikeAudioContainer(path: string): Promise<boolean> {
  const handle = await open(path, 'r');
  const head = Buffer.alloc(16);
  try {
    await handle.read(head, 0, head.length, 0);
  } finally {
    await handle.close();
  }
  const ascii = (start: number, end: number): string =>
    head.subarray(start, end).toString('latin1');
  return (
    ['ID3', 'fLa', 'Ogg', 'RIF', 'RF6'].includes(ascii(0, 3)) ||
    ascii(4, 8) === 'ftyp' ||
    (head[0] === 0xff && ((head[1] ?? 0) & 0xe0) === 0xe0)
  );
}

/**
 * Whether the container's header states the exact length (so packets ending early mean a cut
 * file): FLAC's STREAMINFO, MP4's moov, WAV's data size, an MP3's Xing/Info/VBRI frame. An MP3
 * without one has a length guessed from its first frame's bitrate, which proves nothing.
 */
async function headerStatesLength(path: string, format: string): Promise<boolean> {
  if (format === 'flac' || format === 'mp4' || format === 'wav') return true;
  if (format !== 'mp3') return false;
  const handle = await open(path, 'r');
  try {
    const id3 = Buffer.alloc(10);
    await handle.read(id3, 0, 10, 0);
    // The ID3v2 size is four 7-bit bytes, after which the first frame starts.
    const tagSize =
      id3.toString('latin1', 0, 3) === 'ID3'
        ? 10 +
          (((id3[6] ?? 0) << 21) | ((id3[7] ?? 0) << 14) | ((id3[8] ?? 0) << 7) | (id3[9] ?? 0))
        : 0;
    const frame = Buffer.alloc(4096);
    const { bytesRead } = await handle.read(frame, 0, frame.length, tagSize);
    const text = frame.subarray(0, bytesRead).toString('latin1');
    return text.includes('Xing') || text.includes('Info') || text.includes('VBRI');
  } finally {
    await handle.close();
  }
}

async function ffprobeReport(
  ffprobe: string,
  path: string,
  signal: AbortSignal | undefined,
): Promise<ProbeReport | string> {
  const args = [
    '-v',
    'error',
    '-show_entries',
    'format=format_name,duration,bit_rate:stream=codec_type,codec_name,sample_rate,channels:stream_disposition=attached_pic',
    '-of',
    'json',
    path,
  ];
  try {
    const { stdout } = await promisify(execFile)(ffprobe, args, {
      timeout: PROBE_TIMEOUT_MS,
      maxBuffer: 1024 * 1024,
      ...(signal ? { signal } : {}),
    });
    return JSON.parse(stdout) as ProbeReport;
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr ?? '';
    const line = stderr.trim().split('\n').pop() ?? '';
    // ffprobe ends with "<path>: <reason>"; the reason alone reads well to a user.
    return line.replace(`${path}: `, '') || (error as Error).message;
  }
}

/** Runs ffmpeg and gives its stdout; null when it fails (the stderr tail is in the error). */
async function ffmpegOutput(
  ffmpeg: FfmpegLocation,
  args: readonly string[],
  options: MediaToolOptions,
  name: string,
): Promise<{ stdout: Buffer; error: string | null }> {
  const job = spawnFfmpeg(args, {
    ffmpegPath: ffmpeg.path,
    logger: options.logger ?? silentLogger(),
    name,
    stdout: 'pipe',
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const chunks: Buffer[] = [];
  job.stdout?.on('data', (chunk: Buffer) => chunks.push(chunk));
  try {
    await job.exited;
    return { stdout: Buffer.concat(chunks), error: null };
  } catch (error) {
    const tail = (error as { stderrTail?: string[] }).stderrTail ?? [];
    return { stdout: Buffer.concat(chunks), error: tail.at(-1) ?? (error as Error).message };
  } finally {
    await job.dispose();
  }
}

/** Seconds of audio the packets cover (stream copy to nowhere: no decoding, one read). */
async function packetSeconds(
  ffmpeg: FfmpegLocation,
  path: string,
  options: MediaToolOptions,
): Promise<number | null> {
  const args = ['-v', 'error', '-i', path, '-map', '0:a:0', '-c', 'copy', '-f', 'null'];
  const { stdout, error } = await ffmpegOutput(
    ffmpeg,
    [...args, '-progress', 'pipe:1', '-'],
    options,
    'packet scan',
  );
  if (error !== null) return null;
  const times = [...stdout.toString('latin1').matchAll(/^out_time_us=(\d+)$/gm)];
  const last = times.at(-1)?.[1];
  return last === undefined ? null : Number(last) / 1e6;
}

/** Decodes the first seconds: bytes of 8 kHz mono PCM, or the decoder's complaint. */
async function decodeHead(
  ffmpeg: FfmpegLocation,
  path: string,
  options: MediaToolOptions,
): Promise<{ seconds: number; error: string | null }> {
  const args = ['-v', 'error', '-xerror', '-i', path, '-map', '0:a:0'];
  const pcm = ['-t', String(DECODE_SECONDS), '-ac', '1', '-ar', '8000', '-f', 's16le', '-'];
  const { stdout, error } = await ffmpegOutput(ffmpeg, [...args, ...pcm], options, 'decode check');
  return { seconds: stdout.length / 16_000, error };
}

function classifyStreams(report: ProbeReport): AudioRefusal | ProbeStream {
  const streams = report.streams ?? [];
  const audio = streams.find((stream) => stream.codec_type === 'audio');
  // Cover art is a one-picture "video" stream marked attached_pic; anything else is a film.
  const video = streams.some(
    (stream) => stream.codec_type === 'video' && stream.disposition?.attached_pic !== 1,
  );
  if (video) {
    return refuse(
      415,
      'VIDEO',
      audio
        ? 'a video file: the station plays audio files only (extract the sound first, e.g. ffmpeg -i film.mp4 -vn -c:a copy sound.m4a)'
        : 'a video without sound: the station plays audio files only',
    );
  }
  if (!audio) return refuse(415, 'NO_AUDIO_STREAM', 'the file holds no audio stream');
  return audio;
}

/**
 * Whether a file is audio the station can play, checked from its content (the extension proves
 * nothing): ffprobe must find an audio stream and no film, the first seconds must decode, and
 * the packets must last as long as the header says. 415 for what is not audio at all, 422 for
 * audio that is broken, empty or cut short.
 */
export async function probeAudioFile(
  path: string,
  options: MediaToolOptions = {},
): Promise<AudioProbe> {
  const info = await stat(path);
  if (!info.isFile()) return refuse(415, 'NOT_AUDIO', 'not a regular file');
  if (info.size === 0) return refuse(422, 'EMPTY_FILE', 'the file is empty');
  const ffmpeg = locateFfmpeg({ ffmpegPath: options.ffmpegPath });
  const report = await ffprobeReport(locateFfprobe(ffmpeg), path, options.signal);
  if (typeof report === 'string') {
    return (await looksLikeAudioContainer(path))
      ? refuse(422, 'UNDECODABLE', `an audio file that cannot be read: ${report}`)
      : refuse(415, 'NOT_AUDIO', `not audio: ffprobe cannot read it (${report})`);
  }
  const audio = classifyStreams(report);
  if ('ok' in audio) return audio;
  const format = containerName(report.format?.format_name ?? 'unknown');
  const decoded = await decodeHead(ffmpeg, path, options);
  if (decoded.seconds === 0) {
    const why = decoded.error ?? 'no sound comes out of it';
    return refuse(422, 'UNDECODABLE', `the audio cannot be decoded: ${why}`);
  }
  const duration = await packetSeconds(ffmpeg, path, options);
  if (duration === null || duration <= 0) {
    return refuse(422, 'NO_DURATION', 'the audio has no length');
  }
  const declared = Number(report.format?.duration ?? Number.NaN);
  if (
    declared - duration > TRUNCATION_TOLERANCE_SECONDS &&
    (await headerStatesLength(path, format))
  ) {
    return refuse(
      422,
      'TRUNCATED',
      `the file is cut short: ${duration.toFixed(1)} s of audio where its header says ${declared.toFixed(1)} s`,
    );
  }
  const bitRate = Number(report.format?.bit_rate);
  const sampleRate = Number(audio.sample_rate);
  return {
    ok: true,
    format,
    codec: audio.codec_name ?? 'unknown',
    duration,
    sampleRate: Number.isFinite(sampleRate) && sampleRate > 0 ? sampleRate : null,
    channels: audio.channels ?? null,
    bitRate: Number.isFinite(bitRate) && bitRate > 0 ? bitRate : null,
    size: info.size,
    hasCover: (report.streams ?? []).some((stream) => stream.disposition?.attached_pic === 1),
  };
}
