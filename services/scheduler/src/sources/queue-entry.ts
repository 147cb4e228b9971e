import type { TrackSource } from '@radio/core';
import type { LibraryTrack } from '../library/library-track.ts';

/** One track on its way to air: a request id, the track, and why it plays. */
export interface QueueEntry {
  /** The scheduler's request id (`request.push` answers it, `request.queue` lists it). */
  readonly requestId: string;
  readonly track: LibraryTrack;
  readonly kind: TrackSource;
  /** Epoch ms when it was queued. */
  readonly queuedAt: number;
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
