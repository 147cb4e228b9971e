import type { Derived } from './derived.ts';
import { mix, permutation } from './random.ts';
import { cursorOf, type WorkState } from './state.ts';
import type { PlannerConfig, PlanPlaylist } from './types.ts';

/**
 * How far the separation rules had to relax for a pick, in the documented order:
 * 0 none; 1 artist separation halved; 2 artist separation dropped; 3 track separation halved
 * (artist dropped); 4 the least recently played track of the pool.
 */
export type Relaxation = 0 | 1 | 2 | 3 | 4;

const RELAXED: Record<Relaxation, string> = {
  0: '',
  1: 'artist separation halved',
  2: 'artist separation dropped',
  3: 'track separation halved',
  4: 'least recently played',
};

/** The words for a relaxation, or '' when none. */
export function relaxationText(level: Relaxation): string {
  return RELAXED[level];
}

/** A track taken from a playlist's order. */
export interface Pick {
  readonly trackId: number;
  readonly position: number;
  readonly cycle: number;
  readonly level: Relaxation;
}

export interface PickContext {
  readonly config: PlannerConfig;
  readonly derived: Derived;
  readonly state: WorkState;
}

/** How much relaxation playing `trackId` at `t` needs. */
export function relaxationFor(context: PickContext, trackId: number, t: number): Relaxation {
  const { config, derived, state } = context;
  const trackAt = state.trackLast.get(trackId);
  const trackAge = trackAt === undefined ? Number.POSITIVE_INFINITY : t - trackAt;
  const artist = derived.artists.get(trackId);
  const artistAt = artist ? state.artistLast.get(artist) : undefined;
  const artistAge = artistAt === undefined ? Number.POSITIVE_INFINITY : t - artistAt;
  if (trackAge >= config.trackSeparationMs) {
    if (artistAge >= config.artistSeparationMs) return 0;
    return artistAge >= config.artistSeparationMs / 2 ? 1 : 2;
  }
  return trackAge >= config.trackSeparationMs / 2 ? 3 : 4;
}

type Visit = (trackId: number, position: number, cycle: number) => boolean;

/** Whether a request not yet planned waits for the track. */
function isRequested({ derived, state }: PickContext, trackId: number): boolean {
  const ids = derived.requestedTracks.get(trackId);
  return ids?.some((id) => !state.requestsDone.includes(id)) ?? false;
}

/** Collects the best candidate of a scan: the first at the lowest relaxation. */
class Best {
  readonly #context: PickContext;
  readonly #t: number;
  readonly #jingle: boolean;
  pick: Pick | null = null;
  #lastPlayed = Number.POSITIVE_INFINITY;

  constructor(context: PickContext, t: number, jingle: boolean) {
    this.#context = context;
    this.#t = t;
    this.#jingle = jingle;
  }

  /** Returns true (stop) once a pick needing no relaxation is found. */
  readonly visit: Visit = (trackId, position, cycle) => {
    // A track a listener asked for is kept for the request (played here, its separation would
    // hold the request back hours): taken only when nothing else is left, like the last resort.
    const held = !this.#jingle && isRequested(this.#context, trackId);
    // Jingles are neither checked nor counted: the first in order plays.
    const level = held ? 4 : this.#jingle ? 0 : relaxationFor(this.#context, trackId, this.#t);
    const lastPlayed = held
      ? Number.POSITIVE_INFINITY
      : (this.#context.state.trackLast.get(trackId) ?? Number.NEGATIVE_INFINITY);
    const current = this.pick;
    if (
      current === null ||
      level < current.level ||
      (level === 4 && current.level === 4 && lastPlayed < this.#lastPlayed)
    ) {
      this.pick = { trackId, position, cycle, level };
      this.#lastPlayed = lastPlayed;
    }
    return level === 0;
  };

  /** The better of two scans' picks (the first one on a tie). */
  static better(a: Best, b: Best): Pick | null {
    if (!a.pick || !b.pick) return a.pick ?? b.pick;
    if (b.pick.level < a.pick.level) return b.pick;
    if (a.pick.level === 4 && b.pick.level === 4 && b.#lastPlayed < a.#lastPlayed) return b.pick;
    return a.pick;
  }
}

/**
 * The next track of a playlist's order at `t` that the separation rules allow, relaxing them
 * in order when none does; null only for an empty playlist. A shuffle looks at the rest of
 * its round first, then at a fresh round (which it then starts) before relaxing anything.
 */
export function pickFrom(context: PickContext, playlist: PlanPlaylist, t: number): Pick | null {
  const length = playlist.trackIds.length;
  if (length === 0) return null;
  const { cursor, cycle, ahead } = cursorOf(context.state, playlist.id);
  const seed = context.config.seed;
  const current = new Best(context, t, playlist.jingle);
  if (playlist.order === 'sequential') {
    for (let k = 0; k < length; k++) {
      const position = (cursor + k) % length;
      const id = playlist.trackIds[position] as number;
      if (current.visit(id, position, cursor + k >= length ? cycle + 1 : cycle)) break;
    }
    return current.pick;
  }
  if (playlist.order === 'random') {
    const start = mix(seed, playlist.id, context.state.pickCount) % length;
    for (let k = 0; k < length; k++) {
      const position = (start + k) % length;
      if (current.visit(playlist.trackIds[position] as number, position, cycle)) break;
    }
    return current.pick;
  }
  if (cursor < length) shuffleRound(playlist, seed, cycle, cursor, new Set(ahead), current.visit);
  if (current.pick?.level === 0) return current.pick;
  const fresh = new Best(context, t, playlist.jingle);
  shuffleRound(playlist, seed, cycle + 1, 0, new Set(), fresh.visit);
  return Best.better(current, fresh);
}

function shuffleRound(
  playlist: PlanPlaylist,
  seed: number,
  cycle: number,
  from: number,
  taken: ReadonlySet<number>,
  visit: Visit,
): void {
  const order = permutation(playlist.trackIds.length, mix(seed, playlist.id, cycle));
  for (let position = from; position < order.length; position++) {
    if (taken.has(position)) continue;
    if (visit(playlist.trackIds[order[position] as number] as number, position, cycle)) return;
  }
}
