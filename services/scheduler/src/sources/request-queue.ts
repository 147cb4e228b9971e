import type { TrackSource } from '@radio/core';
import type { LibraryTrack } from '../library/library-track.ts';
import type { QueueEntry } from './queue-entry.ts';

/** Requests play first, then new music, then playlist items; rotation fills in after them. */
const PRIORITY: Record<TrackSource, number> = { request: 0, new: 1, playlist: 2, rotation: 3 };

/** The explicit queue: entries someone or something asked for, in the order they will play. */
export class RequestQueue {
  #entries: QueueEntry[] = [];

  get size(): number {
    return this.#entries.length;
  }

  list(): readonly QueueEntry[] {
    return this.#entries;
  }

  head(): QueueEntry | undefined {
    return this.#entries[0];
  }

  /** Adds after every entry of the same or a higher priority (FIFO within a kind). */
  push(entry: QueueEntry): void {
    const rank = PRIORITY[entry.kind];
    let index = this.#entries.length;
    while (index > 0 && PRIORITY[(this.#entries[index - 1] as QueueEntry).kind] > rank) index--;
    this.#entries.splice(index, 0, entry);
  }

  /** Puts an entry before everything (a track played on command). */
  pushFront(entry: QueueEntry): void {
    this.#entries.unshift(entry);
  }

  remove(requestId: string): QueueEntry | undefined {
    const index = this.#entries.findIndex((entry) => entry.requestId === requestId);
    if (index < 0) return undefined;
    return this.#entries.splice(index, 1)[0];
  }

  /** Drops every entry of a track that is no longer playable; returns how many. */
  removeTrack(trackId: number): number {
    const before = this.#entries.length;
    this.#entries = this.#entries.filter((entry) => entry.track.id !== trackId);
    return before - this.#entries.length;
  }

  /** Drops the entries of the given kinds (all when none given). */
  clear(kinds?: readonly TrackSource[]): void {
    this.#entries = kinds ? this.#entries.filter((entry) => !kinds.includes(entry.kind)) : [];
  }

  hasTrack(trackId: number, kinds?: readonly TrackSource[]): boolean {
    return this.#entries.some(
      (entry) => entry.track.id === trackId && (!kinds || kinds.includes(entry.kind)),
    );
  }

  /** Replaces the track of matching entries (tags changed, file moved). */
  updateTrack(track: LibraryTrack): boolean {
    let changed = false;
    this.#entries = this.#entries.map((entry) => {
      if (entry.track.id !== track.id) return entry;
      changed = true;
      return { ...entry, track };
    });
    return changed;
  }
}
