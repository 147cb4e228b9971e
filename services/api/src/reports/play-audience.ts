/*
 * A play's audience from the sessions around it. A session counts over [start, end): one that
 * ends at the very moment a song starts did not hear it.
 */

export interface PlayAudience {
  listenersAtStart: number;
  /** Null while the play is under way. */
  listenersAtEnd: number | null;
  /** Sessions that ended while it played; null while it is under way. */
  leftDuring: number | null;
  /** Sessions that heard some of it: the royalty count. */
  listeners: number;
}

/** The starts and the ends of the sessions of a stretch of time, each sorted. */
export class SessionSpans {
  readonly #starts: Float64Array;
  readonly #ends: Float64Array;

  constructor(starts: Float64Array, ends: Float64Array) {
    this.#starts = starts.sort();
    this.#ends = ends.sort();
  }

  /** The audience of a play over [start, end); a play under way runs to `now`. */
  audience(start: number, end: number | null, now: number): PlayAudience {
    const starts = this.#starts;
    const ends = this.#ends;
    // Connected at t: started at or before t, not ended by t.
    const at = (t: number) => countAtMost(starts, t) - countAtMost(ends, t);
    return {
      listenersAtStart: at(start),
      listenersAtEnd: end === null ? null : at(end),
      leftDuring: end === null ? null : countAtMost(ends, end) - countAtMost(ends, start),
      // Started before its end and had not ended by its start.
      listeners: countBelow(starts, end ?? now) - countAtMost(ends, start),
    };
  }
}

/** How many of the sorted values are ≤ x. */
function countAtMost(sorted: Float64Array, x: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if ((sorted[mid] as number) <= x) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** How many of the sorted values are < x. */
function countBelow(sorted: Float64Array, x: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if ((sorted[mid] as number) < x) low = mid + 1;
    else high = mid;
  }
  return low;
}
