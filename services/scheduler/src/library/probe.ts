import { extname } from 'node:path';
import { type IAudioMetadata, parseFile } from 'music-metadata';
import { titleFromFileName } from './audio-files.ts';

/** What the library stores about a playable file (the `tracks` columns that come from it). */
export interface TrackTags {
  title: string;
  artist: string | null;
  album: string | null;
  genre: string | null;
  isrc: string | null;
  year: number | null;
  trackNo: number | null;
  /** Seconds. */
  duration: number | null;
  format: string;
  bitrate: number | null;
  sampleRate: number | null;
  channels: number | null;
  hasCover: boolean;
  /** dB, the file's ReplayGain track gain tag (what playout uses until the analysis is done). */
  replayGain: number | null;
}

export type ProbeResult =
  | { readonly ok: true; readonly tags: TrackTags }
  | { readonly ok: false; readonly reason: string };

/** Reads the tags and stream facts of one file. Never throws: a bad file is a result. */
export type Probe = (
  absolutePath: string,
  libraryPath: string,
  size: number,
) => Promise<ProbeResult>;

function formatName(metadata: IAudioMetadata, path: string): string {
  const codec = (metadata.format.codec ?? '').toLowerCase();
  const container = (metadata.format.container ?? '').toLowerCase();
  if (codec.includes('layer 3')) return 'mp3';
  if (codec.includes('layer 2')) return 'mp2';
  if (codec.includes('flac')) return 'flac';
  if (codec.includes('opus')) return 'opus';
  if (codec.includes('vorbis')) return 'ogg';
  if (container.includes('wave') || codec === 'pcm') return 'wav';
  if (container.includes('m4a') || container.includes('mp4') || container.includes('isom'))
    return 'm4a';
  if (codec.includes('aac')) return 'aac';
  return extname(path).slice(1).toLowerCase() || 'unknown';
}

function text(value: string | undefined | null): string | null {
  const trimmed = value?.trim();
  return trimmed ? trimmed : null;
}

function positiveInt(value: number | null | undefined): number | null {
  return typeof value === 'number' && Number.isFinite(value) && value > 0
    ? Math.round(value)
    : null;
}

function finite(value: number | null | undefined): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/**
 * Tags with music-metadata. A file is playable only if it has an audio stream with a rate, a
 * channel count and a positive duration; a zero-byte file is refused before it is opened.
 */
export const probeFile: Probe = async (absolutePath, libraryPath, size) => {
  if (size === 0) return { ok: false, reason: 'empty file (0 bytes)' };
  let metadata: IAudioMetadata;
  try {
    metadata = await parseFile(absolutePath, { duration: false, skipCovers: false });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, reason: `unreadable audio file: ${message}` };
  }
  const { format, common } = metadata;
  if (!format.sampleRate || !format.numberOfChannels) {
    return { ok: false, reason: 'no audio stream found' };
  }
  if (format.duration === undefined || !(format.duration > 0)) {
    return { ok: false, reason: 'the audio stream has no duration' };
  }
  return {
    ok: true,
    tags: {
      title: text(common.title) ?? titleFromFileName(libraryPath),
      artist: text(common.artist) ?? text(common.albumartist),
      album: text(common.album),
      genre: text(common.genre?.[0]),
      isrc: text(common.isrc?.[0]),
      year: positiveInt(common.year),
      trackNo: positiveInt(common.track?.no),
      duration: format.duration,
      format: formatName(metadata, libraryPath),
      bitrate: positiveInt(format.bitrate),
      sampleRate: positiveInt(format.sampleRate),
      channels: positiveInt(format.numberOfChannels),
      hasCover: (common.picture?.length ?? 0) > 0,
      replayGain: finite(common.replaygain_track_gain?.dB),
    },
  };
};
