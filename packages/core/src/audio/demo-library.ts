import { join } from 'node:path';
import { type GenerateOptions, generateTrack, type TestTrackOptions } from './test-audio.ts';

const DEMO_TRACKS: [string, TestTrackOptions][] = [
  [
    'Demo Orchestra - Sunrise.mp3',
    {
      format: 'mp3',
      durationSeconds: 75,
      frequency: 262,
      cover: true,
      tags: {
        title: 'Sunrise',
        artist: 'Demo Orchestra',
        album: 'A Day on Air',
        genre: 'Ambient',
        year: 2026,
        trackNo: 1,
      },
    },
  ],
  [
    'Demo Orchestra - Coffee Break.mp3',
    {
      format: 'mp3',
      durationSeconds: 60,
      frequency: 294,
      tags: {
        title: 'Coffee Break',
        artist: 'Demo Orchestra',
        album: 'A Day on Air',
        genre: 'Ambient',
        year: 2026,
        trackNo: 2,
      },
    },
  ],
  [
    'Test Tones - Afternoon.flac',
    {
      format: 'flac',
      durationSeconds: 70,
      frequency: 330,
      cover: true,
      tags: {
        title: 'Afternoon',
        artist: 'Test Tones',
        album: 'Lavfi Sessions',
        genre: 'Electronic',
        year: 2025,
        trackNo: 1,
      },
    },
  ],
  [
    'Test Tones - Golden Hour.flac',
    {
      format: 'flac',
      durationSeconds: 65,
      frequency: 349,
      tags: {
        title: 'Golden Hour',
        artist: 'Test Tones',
        album: 'Lavfi Sessions',
        genre: 'Electronic',
        year: 2025,
        trackNo: 2,
      },
    },
  ],
  [
    'Night Shift - Midnight.mp3',
    {
      format: 'mp3',
      durationSeconds: 80,
      frequency: 392,
      cover: true,
      tags: {
        title: 'Midnight',
        artist: 'Night Shift',
        album: 'Late Signals',
        genre: 'Jazz',
        year: 2024,
        trackNo: 1,
      },
    },
  ],
];

/** Fills `dir` with a few tagged demo tracks so a fresh station has something to play. */
export async function generateDemoLibrary(
  dir: string,
  options: GenerateOptions,
): Promise<string[]> {
  const written: string[] = [];
  for (const [name, track] of DEMO_TRACKS) {
    written.push(await generateTrack(join(dir, name), track, options));
  }
  return written;
}
