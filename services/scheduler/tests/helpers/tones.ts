import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { runFfmpeg, silentLogger } from '@radio/core';
import { decode, listen } from './listen.ts';
import { ffmpegPath } from './station.ts';

export interface ToneFile {
  path: string;
  hz: number;
  seconds: number;
  title: string;
  artist: string;
}

/** A FLAC file of one steady stereo tone, tagged, so a listener can tell it from the others. */
export async function writeTone(file: ToneFile): Promise<void> {
  await mkdir(dirname(file.path), { recursive: true });
  await runFfmpeg(
    [
      '-loglevel',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      `sine=frequency=${file.hz}:sample_rate=44100:duration=${file.seconds}`,
      '-af',
      'volume=0.3',
      '-ac',
      '2',
      '-metadata',
      `title=${file.title}`,
      '-metadata',
      `artist=${file.artist}`,
      file.path,
    ],
    { ffmpegPath, logger: silentLogger(), name: 'test tone' },
  );
}

/** The level of one frequency in a window of the left channel (Goertzel), linear. */
export function toneLevel(pcm: Int16Array, start: number, size: number, hz: number): number {
  const k = 2 * Math.cos((2 * Math.PI * hz) / 44_100);
  let s1 = 0;
  let s2 = 0;
  for (let i = start; i < start + size; i++) {
    const s0 = (pcm[2 * i] as number) / 32_768 + k * s1 - s2;
    s2 = s1;
    s1 = s0;
  }
  return Math.sqrt(Math.max(0, s1 * s1 + s2 * s2 - k * s1 * s2)) / (size / 2);
}

/** A stretch of stream audio and the wall-clock time at which each of its samples was heard. */
export interface HeardAudio {
  pcm: Int16Array;
  /** Epoch ms at which sample 0 reached the listener. */
  startMs: number;
}

/**
 * Listens to a mount for `ms` and decodes what came. The stream server sends a burst of older
 * audio at connect; from then on audio arrives as it is played, so the end of the capture is
 * the present, and each sample's time is counted back from it.
 */
export async function hear(url: string, ms: number, dir: string, name: string) {
  const capture = await listen(url, ms);
  const endMs = Date.now();
  const pcm = await decode(capture.audio, dir, name);
  const seconds = pcm.length / 2 / 44_100;
  return { pcm, startMs: endMs - seconds * 1000 } satisfies HeardAudio;
}

/**
 * When `hz` is first heard as the loudest of `among` (epoch ms, to 20 ms), after `afterMs`;
 * null when it never is.
 */
export function firstHeard(
  audio: HeardAudio,
  hz: number,
  among: readonly number[],
  afterMs = 0,
): number | null {
  const size = Math.round(0.02 * 44_100);
  const frames = audio.pcm.length / 2;
  for (let start = 0; start + size <= frames; start += size) {
    const at = audio.startMs + (start / 44_100) * 1000;
    if (at < afterMs) continue;
    const level = toneLevel(audio.pcm, start, size, hz);
    if (level < 0.02) continue;
    if (among.every((other) => other === hz || toneLevel(audio.pcm, start, size, other) < level)) {
      return at;
    }
  }
  return null;
}
