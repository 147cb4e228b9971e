import type { PlaylistKind, PlayOrder, StartMode } from '@radio/db';

/** The schedule types are shared with the api (one definition): see @radio/core schedule. */
export type { PlanScheduleEntry, ScheduleSpan } from '@radio/core';

/*
 * The planner's inputs and outputs. The planner is pure: the same inputs give the same plan,
 * so what the timeline shows is what plays unless something intervenes. Times are epoch ms.
 */

/** A playable track as the planner sees it. */
export interface PlanTrack {
  readonly id: number;
  readonly title: string;
  readonly artist: string | null;
  readonly album: string | null;
  /** Seconds; null when unknown. */
  readonly duration: number | null;
  /**
   * Ms from its start to the start of the next track: what it plays (cue-in to cue-out) less
   * the overlap of the crossfade into the next. `joined` is the same when the next is a
   * jingle or it is one itself (no crossfade: back to back).
   */
  readonly slotMs: { readonly crossfaded: number; readonly joined: number };
}

export interface PlanPlaylist {
  readonly id: number;
  readonly name: string;
  readonly kind: PlaylistKind;
  readonly order: PlayOrder;
  readonly weight: number;
  readonly jingle: boolean;
  /** every_n_songs: N; every_n_minutes: N; hourly_at: the minute 0-59. */
  readonly interval: number | null;
  /** once_at: when. */
  readonly playAt: number | null;
  readonly startMode: StartMode;
  /** Its tracks in playlist order (only playable ones). */
  readonly trackIds: readonly number[];
}

export interface PlanRequest {
  readonly id: number;
  readonly userName: string;
  readonly trackId: number;
  readonly notBefore: number;
}

/** An entry pushed by hand (control port, API, a new file, a playlist put on air): plays first. */
export interface PlanQueued {
  readonly requestId: string;
  readonly trackId: number;
  readonly kind: 'request' | 'new' | 'playlist';
}

export interface PlannerConfig {
  readonly timeZone: string;
  readonly artistSeparationMs: number;
  readonly trackSeparationMs: number;
  /** Seeds every random choice; the same seed and state give the same plan. */
  readonly seed: number;
}
