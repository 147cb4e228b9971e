import type { TimelineSource } from '@radio/core';
import type {
  PlannerConfig,
  PlanPlaylist,
  PlanQueued,
  PlanRequest,
  PlanScheduleEntry,
  PlanTrack,
} from './types.ts';

/*
 * The planner's surface for the runtime. The functions live in ./planner.ts (exported from
 * ./index.ts and the package entry) with these signatures:
 *
 *   initialState(history: readonly PlanHistoryRow[], cursors: readonly PlaylistCursorRow[]): PlannerState
 *   plan(inputs: PlannerInputs, state: PlannerState, from: PlanFrom, until: number, limit?: number): PlannedEntry[]
 *   commit(inputs: PlannerInputs, state: PlannerState, entry: PlannedEntry, startedAt: number): PlannerState
 *
 * All three are pure: no I/O, no clock (time is always an argument), no mutation of what they
 * are given. The same inputs and state give the same plan, and planning, then committing each
 * planned entry as it goes on air at its `at`, gives the same plan for what follows.
 *
 * How the runtime drives it:
 * - On start (and on `schedule.reload`): `state = initialState(history, playlists)`, then
 *   `plan(inputs, state, from, now + hours)` for the timeline.
 * - The next track to decode is `plan(...)[0]` (skip `live` entries: nothing to decode). When
 *   it goes on air: `state = commit(inputs, state, entry, startedAt)`, then persist
 *   `state.cursors[entry.playlistId]` into playlists.cursor/cycle when `entry.playlistId` is
 *   set, mark `entry.songRequestId` played, drop `entry.requestId` from the hand queue, and
 *   re-plan from the new on-air track.
 * - `entry.interrupts` on the first entry: fade the track in progress out at `entry.at` (the
 *   player's skip fade) so the entry starts then. Set a timer for `entry.at`; nothing else
 *   interrupts.
 * - A hand push, skip, request, library change or live change: re-plan with new inputs (the
 *   state stays: it only moves on commit).
 *
 * What fills each slot, in order (the walk goes slot by slot from the on-air track):
 * 1. A live slot whose start has come (after_track) when it is in the future; a current slot
 *    is listed first, and holds automation until its end only while its DJ is on air.
 * 2. An interrupt before the track in progress would end: a scheduled span's start (when it
 *    wins then) or an `interrupt` rule's minute; at the same instant the span goes first.
 * 3. The first slot at or after a scheduled span's start: that span (on time, even before
 *    the hand queue).
 * 4. Tracks pushed by hand and new files; then a due rule (once_at, hourly_at,
 *    every_n_minutes, every_n_songs; ties by id); then the oldest listener request whose
 *    not_before has passed and whose separation holds in full; then the items of a playlist
 *    put on air by hand; then the scheduled span in force (highest priority); then the
 *    default rotation (smooth weighted round robin) or, without one, the whole library.
 * Rules: every_n_songs counts non-jingle songs of any source; every_n_minutes never played
 * is due at once; hourly_at plays within 30 minutes of its minute, else waits for the next
 * hour; once_at plays within an hour of its time, once. A rule with schedule entries fires
 * only inside them. Separation relaxes per pick, in order: artist halved, artist dropped,
 * track halved (artist dropped), the least recently played track of the pool; the reason
 * says which ("rotation: Pop (artist separation halved)").
 */

/**
 * Everything the planner reads. Its lookups are cached by the identity of `tracks`,
 * `playlists` and `schedules`: keep those objects while they do not change.
 */
export interface PlannerInputs {
  readonly config: PlannerConfig;
  /** The playable library by id (the whole-library rotation plays these). */
  readonly tracks: ReadonlyMap<number, PlanTrack>;
  /** Only the on-air playlists (playlists.on_air = 1), any kind. */
  readonly playlists: readonly PlanPlaylist[];
  /** All schedule entries (playlists' and DJs' show slots). */
  readonly schedules: readonly PlanScheduleEntry[];
  /** Pushed by hand, in play order: plays first, without separation checks. */
  readonly queue: readonly PlanQueued[];
  /** Pending listener requests, any order (the planner takes the oldest, by id, first). */
  readonly requests: readonly PlanRequest[];
  /** The DJ on air on the live input now, or null. Holds the DJ's current show slot. */
  readonly liveOnAir: { readonly djId: number } | null;
}

/** Where the plan starts. */
export interface PlanFrom {
  /**
   * The present: nothing in the plan starts before it, except an interrupt at most
   * LATE_INTERRUPT_MS (2 s) late, which keeps its time (fade at once).
   */
  readonly now: number;
  /**
   * The track on air, or null (nothing playing, or the live input on air): then the first
   * entry starts at `now`. Its slot (crossfaded, or joined when it or the next is a jingle)
   * gives the first entry's start. `slotMs` overrides the track's own (e.g. a track no longer
   * in the library).
   */
  readonly onAir: {
    readonly trackId: number | null;
    readonly startedAt: number;
    readonly jingle: boolean;
    readonly slotMs?: PlanTrack['slotMs'];
    /**
     * The interrupt it went on air for (its planned time), if any: that interrupt has been
     * made, so it is not planned again (a cut heard a few ms early would otherwise be).
     */
    readonly interruptAt?: number | null;
  } | null;
}

/** A history row as the planner needs it (oldest first). Matches ProgrammeHistoryRow. */
export interface PlanHistoryRow {
  readonly trackId: number | null;
  readonly artist: string | null;
  readonly playlistId: number | null;
  readonly jingle: boolean;
  readonly startedAt: number;
}

/** Where a playlist's order stands, as persisted in playlists.cursor/cycle. */
export interface PlaylistCursorRow {
  readonly id: number;
  readonly cursor: number;
  readonly cycle: number;
}

/**
 * A playlist's order position. `cursor`/`cycle` are what gets persisted. `ahead`: positions
 * past the cursor already taken in this round (separation can make a shuffle take a later
 * position first); in memory only, so after a restart they may play again in that round.
 */
export interface PlaylistCursor {
  readonly cursor: number;
  readonly cycle: number;
  readonly ahead: readonly number[];
}

/**
 * The planner's memory: plain data (records, lists and two maps), copied one level deep by
 * plan and commit. Keys of the records are playlist ids as strings.
 */
export interface PlannerState {
  /** Picks made so far: seeds `random` order. */
  readonly pickCount: number;
  /** By playlist id; id 0 is the whole-library rotation. */
  readonly cursors: Readonly<Record<string, PlaylistCursor>>;
  /** Smooth weighted round robin: each default rotation playlist's current weight. */
  readonly weights: Readonly<Record<string, number>>;
  /** Non-jingle songs played so far (history and plan): every_n_songs counts from it. */
  readonly songCount: number;
  /** By playlist id: `songCount` when it last played (absent: never, so count from 0). */
  readonly songMark: Readonly<Record<string, number>>;
  /** Rule playlists: the start of its last play (every_n_minutes, hourly_at, once_at). */
  readonly lastPlayed: Readonly<Record<string, number>>;
  /**
   * Separation: last start by track id and by artist (jingles excluded); those older than the
   * longer separation are pruned. Maps: they copy far faster than records keyed by track id.
   */
  readonly trackLast: ReadonlyMap<number, number>;
  readonly artistLast: ReadonlyMap<string, number>;
  /** Listener requests and hand-queue entries already planned or played (pruned on commit). */
  readonly requestsDone: readonly number[];
  readonly queueDone: readonly string[];
}

/**
 * How the planner chose an entry, so commit() repeats exactly that step. Opaque to the
 * runtime (it only passes the entry back).
 */
export interface PlanStep {
  /** The playlist whose order advanced (0: whole library), the position taken and its round. */
  readonly order: {
    readonly playlistId: number;
    readonly position: number;
    readonly cycle: number;
  } | null;
  /** The default rotation playlist the weighted round robin chose. */
  readonly weighted: number | null;
  /** The rule playlist that fired. */
  readonly rule: number | null;
}

/** One planned entry. The runtime maps it to the bus TimelineEntry (ids → objects). */
export interface PlannedEntry {
  /** Expected start (epoch ms). */
  readonly at: number;
  /** The next entry's start (or this one's end of slot for the last one, or a slot's end). */
  readonly end: number;
  readonly source: TimelineSource;
  /** Null for a live slot. */
  readonly trackId: number | null;
  readonly playlistId: number | null;
  readonly scheduleId: number | null;
  readonly songRequestId: number | null;
  /** The hand queue's request id (source `queue`). */
  readonly requestId: string | null;
  /** A live slot's DJ. */
  readonly dj: { readonly id: number; readonly name: string } | null;
  /** The track in progress fades out at `at` (scheduled or rule `interrupt`). */
  readonly interrupts: boolean;
  /** Joined without crossfade, not counted for separation, not in the public history. */
  readonly jingle: boolean;
  /** In words: "every 4 songs: Jingles", "request by ana", "rotation: Pop (artist rule halved)". */
  readonly reason: string;
  readonly step: PlanStep;
}

export type InitialStateFunction = (
  history: readonly PlanHistoryRow[],
  cursors: readonly PlaylistCursorRow[],
) => PlannerState;

export type PlanFunction = (
  inputs: PlannerInputs,
  state: PlannerState,
  from: PlanFrom,
  until: number,
  limit?: number,
) => PlannedEntry[];

export type CommitFunction = (
  inputs: PlannerInputs,
  state: PlannerState,
  entry: PlannedEntry,
  startedAt: number,
) => PlannerState;
