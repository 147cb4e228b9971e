/**
 * The one PCM format inside the scheduler: every decoder converts to it and every encoder reads
 * it, so mixing never resamples. 32-bit float little-endian, 44.1 kHz, stereo interleaved:
 * float leaves headroom above full scale for track gain and crossfades, and only the limiter at
 * the end of the chain brings the level back under its ceiling.
 */
export const SAMPLE_RATE = 44_100;
export const CHANNELS = 2;
export const BYTES_PER_SAMPLE = 4;
/** One frame = one sample for each channel. */
export const BYTES_PER_FRAME = CHANNELS * BYTES_PER_SAMPLE;
export const BYTES_PER_SECOND = SAMPLE_RATE * BYTES_PER_FRAME;

/** ffmpeg's name for the format above, as input (`-f`) or output options. */
export const FFMPEG_PCM_ARGS = [
  '-f',
  'f32le',
  '-ar',
  String(SAMPLE_RATE),
  '-ac',
  String(CHANNELS),
] as const;

/** ffmpeg's codec for the format above (`-acodec`), for a decoder's output. */
export const FFMPEG_PCM_CODEC = 'pcm_f32le';

export function secondsToFrames(seconds: number): number {
  return Math.round(seconds * SAMPLE_RATE);
}

export function framesToSeconds(frames: number): number {
  return frames / SAMPLE_RATE;
}
