import type { TrackSource } from '@radio/core';
import type { LibraryChange } from '../library/change-batch.ts';
import type { LibraryTrack } from '../library/library-track.ts';
import type { ProgrammeMark, QueueEntry, RequestIds } from './queue-entry.ts';
import { RequestQueue } from './request-queue.ts';

export interface UpcomingOptions {
  ids: RequestIds;
}

/** Why the upcoming list changed: someone queued or removed (`queue`), the plan, or a take. */
/** `withdrawn`: a track left the queue for good (its file is being deleted). */
export type UpcomingChange = 'queue' | 'plan' | 'take' | 'withdrawn';

/** A planned entry as the upcoming list holds it: its track and what the plan says of it. */
export interface PlannedTrack {
  readonly track: LibraryTrack;
  readonly kind: TrackSource;
  readonly programme: ProgrammeMark;
}

/**
 * What plays next: the request queue (requests, then new music, then playlist items) and, after
 * it, the first entries the programme planned. The planned entries get their own request ids,
 * so `request.queue` shows the real upcoming order and the player can decode the head early.
 */
export class Upcoming {
  readonly #ids: RequestIds;
  readonly #queue = new RequestQueue();
  #ahead: QueueEntry[] = [];
  readonly #listeners = new Set<(change: UpcomingChange) => void>();
  /** Tracks being deleted: kept out of the plan until the library sees their file again. */
  readonly #withdrawn = new Set<number>();
  readonly #takeListeners = new Set<(entry: QueueEntry) => void>();

  constructor(options: UpcomingOptions) {
    this.#ids = options.ids;
  }

  onChange(listener: (change: UpcomingChange) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** An entry was taken to play (before the change listeners hear of it). */
  onTake(listener: (entry: QueueEntry) => void): () => void {
    this.#takeListeners.add(listener);
    return () => this.#takeListeners.delete(listener);
  }

  /** The entry that plays next, or null when nothing is playable. */
  head(): QueueEntry | null {
    return this.#queue.head() ?? this.#ahead[0] ?? null;
  }

  list(): QueueEntry[] {
    return [...this.#queue.list(), ...this.#ahead];
  }

  /** The entries queued by hand (they play before the planned ones), in play order. */
  queued(): readonly QueueEntry[] {
    return this.#queue.list();
  }

  find(requestId: string): QueueEntry | undefined {
    return this.list().find((entry) => entry.requestId === requestId);
  }

  /**
   * Replaces the planned entries. An entry planned as before keeps its request id (wherever it
   * moved), so a track the player decodes ahead is not dropped by a re-plan that kept it, and
   * request ids are not used up by re-plans.
   */
  setPlanned(planned: readonly PlannedTrack[]): readonly QueueEntry[] {
    const unused = [...this.#ahead];
    this.#ahead = planned.map((item) => {
      const index = unused.findIndex((old) => samePlan(old, item));
      const old = index >= 0 ? unused.splice(index, 1)[0] : undefined;
      if (old) return { ...old, track: item.track, programme: item.programme };
      return { ...this.#entry(item.track, item.kind), programme: item.programme };
    });
    this.#changed('plan');
    return this.#ahead;
  }

  /** Removes the entry that just went on air (usually the head). */
  take(requestId: string): QueueEntry | null {
    let entry: QueueEntry | undefined = this.#queue.remove(requestId);
    if (!entry) {
      const index = this.#ahead.findIndex((item) => item.requestId === requestId);
      if (index >= 0) entry = this.#ahead.splice(index, 1)[0];
    }
    if (!entry) return null;
    for (const listener of this.#takeListeners) listener(entry);
    this.#changed('take');
    return entry;
  }

  /** Queues a track; requests go after earlier requests and before everything else. */
  push(track: LibraryTrack, kind: TrackSource = 'request'): QueueEntry {
    const entry = this.#entry(track, kind);
    this.#queue.push(entry);
    this.#changed('queue');
    return entry;
  }

  /** Queues a track before everything else (played on command). */
  pushFront(track: LibraryTrack): QueueEntry {
    const entry = this.#entry(track, 'request');
    this.#queue.pushFront(entry);
    this.#changed('queue');
    return entry;
  }

  /** Queues a playlist: `replace` drops the queued requests, new music and playlist items first. */
  pushPlaylist(tracks: readonly LibraryTrack[], mode: 'replace' | 'append'): QueueEntry[] {
    if (mode === 'replace') this.#queue.clear();
    const entries = tracks.map((track) => this.#entry(track, 'playlist'));
    for (const entry of entries) this.#queue.push(entry);
    this.#changed('queue');
    return entries;
  }

  remove(requestId: string): QueueEntry | undefined {
    const entry = this.#queue.remove(requestId);
    if (entry) this.#changed('queue');
    return entry;
  }

  /**
   * Drops a track from the queue and the planned entries (its file is being deleted); the
   * programme re-plans without it. Returns how many entries it had.
   */
  removeTrack(trackId: number): number {
    const ahead = this.#ahead.length;
    this.#ahead = this.#ahead.filter((entry) => entry.track.id !== trackId);
    const removed = this.#queue.removeTrack(trackId) + ahead - this.#ahead.length;
    this.#withdrawn.add(trackId);
    this.#changed('withdrawn');
    return removed;
  }

  /** Whether the track was withdrawn (removeTrack) and its file not seen again since. */
  isWithdrawn(trackId: number): boolean {
    return this.#withdrawn.has(trackId);
  }

  /** Follows the library: new music queued near the front, removed tracks dropped everywhere. */
  applyLibraryChange(change: LibraryChange): void {
    for (const id of change.removed) {
      this.#withdrawn.delete(id);
      this.#queue.removeTrack(id);
      this.#ahead = this.#ahead.filter((entry) => entry.track.id !== id);
    }
    // A restored file comes back (the same track id): it may be planned again.
    for (const track of [...change.added, ...change.updated]) this.#withdrawn.delete(track.id);
    for (const track of change.updated) {
      this.#queue.updateTrack(track);
      this.#ahead = this.#ahead.map((entry) =>
        entry.track.id === track.id ? { ...entry, track } : entry,
      );
    }
    for (const track of change.added) {
      if (change.fresh && !this.#queue.hasTrack(track.id)) {
        this.#queue.push(this.#entry(track, 'new'));
      }
    }
    this.#changed('queue');
  }

  #entry(track: LibraryTrack, kind: TrackSource): QueueEntry {
    return { requestId: this.#ids.next(), track, kind, queuedAt: Date.now() };
  }

  #changed(change: UpcomingChange): void {
    for (const listener of this.#listeners) listener(change);
  }
}

function samePlan(entry: QueueEntry, item: PlannedTrack): boolean {
  const a = entry.programme;
  const b = item.programme;
  return (
    entry.track.id === item.track.id &&
    a !== undefined &&
    a.source === b.source &&
    a.playlistId === b.playlistId &&
    a.songRequestId === b.songRequestId &&
    a.interruptAt === b.interruptAt
  );
}
