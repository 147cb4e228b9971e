import { type Track, type TrackAnalysis, trackAnalysis, trackTags } from '@radio/db';

/** A playable track as the scheduler keeps it in memory (a `tracks` row with status ok). */
export interface LibraryTrack {
  readonly id: number;
  /** Relative to MUSIC_DIR, `/` separators. */
  readonly path: string;
  readonly title: string;
  readonly artist: string | null;
  readonly album: string | null;
  readonly genre: string | null;
  readonly year: number | null;
  readonly trackNo: number | null;
  /** Seconds; null when the file did not say. */
  readonly duration: number | null;
  readonly format: string;
  readonly hasCover: boolean;
  /** Loudness, cue points and ReplayGain: what playout levels and joins the track by. */
  readonly analysis: TrackAnalysis;
}

export function toLibraryTrack(row: Track): LibraryTrack {
  return {
    ...trackTags(row),
    hasCover: Number(row.has_cover) !== 0,
    analysis: trackAnalysis(row),
  };
}

/** `Artist - Title`, or the title alone: the stream title and the queue's display name. */
export function displayTitle(track: { title: string; artist: string | null }): string {
  return track.artist ? `${track.artist} - ${track.title}` : track.title;
}

/** The analysis of a track nothing has been measured for yet (it plays as it was mastered). */
export const NOT_ANALYSED: TrackAnalysis = {
  status: 'pending',
  loudness: null,
  loudnessRange: null,
  truePeak: null,
  cueIn: null,
  cueOut: null,
  fadePoint: null,
  replayGain: null,
  error: null,
  analyzedAt: null,
};
