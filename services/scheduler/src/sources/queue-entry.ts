import type { TimelineSource, TrackSource } from '@radio/core';
import type { LibraryTrack } from '../library/library-track.ts';

/** One track on its way to air: a request id, the track, and why it plays. */
export interface QueueEntry {
  /** The scheduler's request id (`request.push` answers it, `request.queue` lists it). */
  readonly requestId: string;
  readonly track: LibraryTrack;
  readonly kind: TrackSource;
  /** Epoch ms when it was queued. */
  readonly queuedAt: number;
  /** Set on entries the programme planned (not on hand-queued ones). */
  readonly programme?: ProgrammeMark;
}

/** What the plan says about an entry: where it comes from and how it is played. */
export interface ProgrammeMark {
  readonly source: TimelineSource;
  readonly playlistId: number | null;
  /** Joined without crossfade into and out of it; not in the public history. */
  readonly jingle: boolean;
  readonly songRequestId: number | null;
  /** Epoch ms (as heard) at which the track in progress is faded out for it, or null. */
  readonly interruptAt: number | null;
}

/** A jingle is joined back to back with its neighbours: no crossfade into or out of it. */
export function isJingle(entry: QueueEntry | null | undefined): boolean {
  return entry?.programme?.jingle === true;
}

/** Request ids count up from 1 for the life of the scheduler, like Liquidsoap's rids. */
export class RequestIds {
  #next = 1;

  next(): string {
    const id = this.#next;
    this.#next += 1;
    return String(id);
  }
}
