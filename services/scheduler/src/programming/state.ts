import { artistKey } from './artist.ts';
import type { Derived } from './derived.ts';
import { playlistOf } from './derived.ts';
import type {
  PlanHistoryRow,
  PlannedEntry,
  PlannerState,
  PlaylistCursor,
  PlaylistCursorRow,
} from './planner-api.ts';

/** The planner's state while it plans: a private copy it may change. */
export interface WorkState {
  pickCount: number;
  cursors: Record<string, PlaylistCursor>;
  weights: Record<string, number>;
  songCount: number;
  songMark: Record<string, number>;
  lastPlayed: Record<string, number>;
  trackLast: Map<number, number>;
  artistLast: Map<string, number>;
  requestsDone: number[];
  queueDone: string[];
}

const START: PlaylistCursor = { cursor: 0, cycle: 0, ahead: [] };

/**
 * The state from the recent history (oldest first) and the persisted order positions. The
 * history should reach back over the longest separation and rule interval (a day is plenty).
 */
export function initialState(
  history: readonly PlanHistoryRow[],
  cursors: readonly PlaylistCursorRow[],
): PlannerState {
  const state = cloneState(emptyState());
  for (const row of cursors) {
    state.cursors[row.id] = { cursor: row.cursor, cycle: row.cycle, ahead: [] };
  }
  for (const row of history) {
    state.pickCount += 1;
    if (row.playlistId !== null) state.lastPlayed[row.playlistId] = row.startedAt;
    if (row.jingle || row.trackId === null) {
      if (row.playlistId !== null) state.songMark[row.playlistId] = state.songCount;
      continue;
    }
    state.songCount += 1;
    if (row.playlistId !== null) state.songMark[row.playlistId] = state.songCount;
    state.trackLast.set(row.trackId, row.startedAt);
    const artist = artistKey(row.artist);
    if (artist) state.artistLast.set(artist, row.startedAt);
  }
  return state;
}

function emptyState(): PlannerState {
  return {
    pickCount: 0,
    cursors: {},
    weights: {},
    songCount: 0,
    songMark: {},
    lastPlayed: {},
    trackLast: new Map(),
    artistLast: new Map(),
    requestsDone: [],
    queueDone: [],
  };
}

/** A private copy: every record and list copied one level deep (their values are immutable). */
export function cloneState(state: PlannerState): WorkState {
  return {
    pickCount: state.pickCount,
    cursors: { ...state.cursors },
    weights: { ...state.weights },
    songCount: state.songCount,
    songMark: { ...state.songMark },
    lastPlayed: { ...state.lastPlayed },
    trackLast: new Map(state.trackLast),
    artistLast: new Map(state.artistLast),
    requestsDone: [...state.requestsDone],
    queueDone: [...state.queueDone],
  };
}

/** Where a playlist's order stands (the start of round 0 when it never played). */
export function cursorOf(state: WorkState, playlistId: number): PlaylistCursor {
  return state.cursors[playlistId] ?? START;
}

/**
 * What an entry going on air at `startedAt` changes: the order position it took, the
 * weighted round robin, the rule's last play, the song count and the separation times. Plan
 * and commit both call this, so a plan played as planned needs no re-planning.
 */
export function applyStep(
  derived: Derived,
  state: WorkState,
  entry: PlannedEntry,
  startedAt: number,
): void {
  if (entry.trackId === null) return;
  state.pickCount += 1;
  const { order, weighted, rule } = entry.step;
  if (order) advanceCursor(derived, state, order);
  if (weighted !== null) advanceWeights(derived, state, weighted);
  if (!entry.jingle) state.songCount += 1;
  if (rule !== null) {
    state.lastPlayed[rule] = startedAt;
    state.songMark[rule] = state.songCount;
  }
  if (entry.songRequestId !== null) state.requestsDone.push(entry.songRequestId);
  if (entry.requestId !== null) state.queueDone.push(entry.requestId);
  if (entry.jingle) return;
  state.trackLast.set(entry.trackId, startedAt);
  const artist = derived.artists.get(entry.trackId);
  if (artist) state.artistLast.set(artist, startedAt);
}

function advanceCursor(
  derived: Derived,
  state: WorkState,
  order: NonNullable<PlannedEntry['step']['order']>,
): void {
  const playlist = playlistOf(derived, order.playlistId);
  if (!playlist || playlist.order === 'random') return;
  const length = playlist.trackIds.length;
  const now = cursorOf(state, order.playlistId);
  // An entry planned before its round ended (committed late) must not take the order back.
  if (order.cycle < now.cycle) return;
  let { cursor, ahead } = now;
  const { cycle } = order;
  if (cycle !== now.cycle) {
    cursor = 0;
    ahead = [];
  }
  if (playlist.order === 'sequential') {
    cursor = order.position + 1;
    ahead = [];
  } else if (order.position === cursor) {
    cursor += 1;
    const rest = new Set(ahead);
    while (rest.delete(cursor)) cursor += 1;
    ahead = [...rest];
  } else {
    ahead = [...ahead, order.position];
  }
  // The round is over: the next one starts (and reshuffles) at once.
  state.cursors[order.playlistId] =
    cursor >= length ? { cursor: 0, cycle: cycle + 1, ahead: [] } : { cursor, cycle, ahead };
}

/** Smooth weighted round robin (nginx's): everyone gains its weight, the one played pays the total. */
function advanceWeights(derived: Derived, state: WorkState, played: number): void {
  let total = 0;
  for (const playlist of derived.defaultRotation) {
    total += playlist.weight;
    state.weights[playlist.id] = (state.weights[playlist.id] ?? 0) + playlist.weight;
  }
  state.weights[played] = (state.weights[played] ?? 0) - total;
}

/** Drops what can no longer matter: separation times past the horizon, finished ids. */
export function prune(
  state: WorkState,
  horizonStart: number,
  requests: ReadonlySet<number>,
  queue: ReadonlySet<string>,
): void {
  for (const [key, at] of state.trackLast) if (at < horizonStart) state.trackLast.delete(key);
  for (const [key, at] of state.artistLast) if (at < horizonStart) state.artistLast.delete(key);
  state.requestsDone = state.requestsDone.filter((id) => requests.has(id));
  state.queueDone = state.queueDone.filter((id) => queue.has(id));
}
