import type { TrackSource } from '@radio/core';
import type { LibraryChange } from '../library/change-batch.ts';
import type { LibraryTrack } from '../library/library-track.ts';
import type { QueueEntry, RequestIds } from './queue-entry.ts';
import { RequestQueue } from './request-queue.ts';
import { Rotation } from './rotation.ts';

export interface UpcomingOptions {
  ids: RequestIds;
  /** How many rotation picks are decided (and listed by `request.queue`) ahead of time. */
  lookahead?: number;
  random?: () => number;
}

/**
 * What plays next: the request queue (requests, then new music, then playlist items) and, when
 * it is empty, the rotation. A few rotation picks are made ahead with their own request ids, so
 * `request.queue` shows the real upcoming order and the player can decode the head early.
 */
export class Upcoming {
  readonly #ids: RequestIds;
  readonly #lookahead: number;
  readonly #queue = new RequestQueue();
  readonly #rotation: Rotation;
  #ahead: QueueEntry[] = [];
  readonly #tracks = new Map<number, LibraryTrack>();
  #lastTaken: number | null = null;
  readonly #listeners = new Set<() => void>();

  constructor(options: UpcomingOptions) {
    this.#ids = options.ids;
    this.#lookahead = Math.max(1, options.lookahead ?? 3);
    this.#rotation = new Rotation({ random: options.random });
  }

  /** Seeds the rotation; `recent` are track ids played lately, most recent first. */
  init(tracks: readonly LibraryTrack[], recent: readonly number[] = []): void {
    for (const track of tracks) {
      this.#tracks.set(track.id, track);
      this.#rotation.add(track.id);
    }
    for (const id of [...recent].reverse()) {
      if (this.#tracks.has(id)) this.#rotation.played(id);
    }
    this.#fill();
    this.#changed();
  }

  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** The entry that plays next, or null when nothing is playable. */
  head(): QueueEntry | null {
    return this.#queue.head() ?? this.#ahead[0] ?? null;
  }

  list(): QueueEntry[] {
    return [...this.#queue.list(), ...this.#ahead];
  }

  find(requestId: string): QueueEntry | undefined {
    return this.list().find((entry) => entry.requestId === requestId);
  }

  /** Removes the entry that just went on air (usually the head). */
  take(requestId: string): QueueEntry | null {
    let entry: QueueEntry | undefined = this.#queue.remove(requestId);
    if (!entry) {
      const index = this.#ahead.findIndex((item) => item.requestId === requestId);
      if (index >= 0) entry = this.#ahead.splice(index, 1)[0];
    }
    if (!entry) return null;
    this.#rotation.played(entry.track.id);
    this.#lastTaken = entry.track.id;
    this.#fill();
    this.#changed();
    return entry;
  }

  /** Queues a track; requests go after earlier requests and before everything else. */
  push(track: LibraryTrack, kind: TrackSource = 'request'): QueueEntry {
    const entry = this.#entry(track, kind);
    this.#queue.push(entry);
    this.#changed();
    return entry;
  }

  /** Queues a track before everything else (played on command). */
  pushFront(track: LibraryTrack): QueueEntry {
    const entry = this.#entry(track, 'request');
    this.#queue.pushFront(entry);
    this.#changed();
    return entry;
  }

  /** Queues a playlist: `replace` drops the queued requests, new music and playlist items first. */
  pushPlaylist(tracks: readonly LibraryTrack[], mode: 'replace' | 'append'): QueueEntry[] {
    if (mode === 'replace') this.#queue.clear();
    const entries = tracks.map((track) => this.#entry(track, 'playlist'));
    for (const entry of entries) this.#queue.push(entry);
    this.#changed();
    return entries;
  }

  remove(requestId: string): QueueEntry | undefined {
    const entry = this.#queue.remove(requestId);
    if (entry) this.#changed();
    return entry;
  }

  /**
   * Drops a track from the queue, the picks ahead and the rotation (its file is being
   * deleted). Returns how many queued entries it had.
   */
  removeTrack(trackId: number): number {
    const ahead = this.#ahead.length;
    this.#ahead = this.#ahead.filter((entry) => entry.track.id !== trackId);
    const removed = this.#queue.removeTrack(trackId) + ahead - this.#ahead.length;
    this.#tracks.delete(trackId);
    this.#rotation.remove(trackId);
    this.#fill();
    this.#changed();
    return removed;
  }

  /** Follows the library: new music queued near the front, removed tracks dropped everywhere. */
  applyLibraryChange(change: LibraryChange): void {
    for (const id of change.removed) {
      this.#tracks.delete(id);
      this.#rotation.remove(id);
      this.#queue.removeTrack(id);
      this.#ahead = this.#ahead.filter((entry) => entry.track.id !== id);
    }
    for (const track of change.updated) {
      this.#tracks.set(track.id, track);
      this.#rotation.add(track.id);
      this.#queue.updateTrack(track);
      this.#ahead = this.#ahead.map((entry) =>
        entry.track.id === track.id ? { ...entry, track } : entry,
      );
    }
    for (const track of change.added) {
      this.#tracks.set(track.id, track);
      this.#rotation.add(track.id);
      if (change.fresh && !this.#queue.hasTrack(track.id)) {
        this.#queue.push(this.#entry(track, 'new'));
      }
    }
    this.#fill();
    this.#changed();
  }

  #entry(track: LibraryTrack, kind: TrackSource): QueueEntry {
    return { requestId: this.#ids.next(), track, kind, queuedAt: Date.now() };
  }

  #fill(): void {
    while (this.#ahead.length < this.#lookahead && this.#rotation.size > 0) {
      const avoid = new Set<number>(this.#ahead.map((entry) => entry.track.id));
      for (const entry of this.#queue.list()) avoid.add(entry.track.id);
      if (this.#lastTaken !== null) avoid.add(this.#lastTaken);
      const id = this.#rotation.next(avoid);
      const track = id === null ? undefined : this.#tracks.get(id);
      if (!track) break;
      this.#ahead.push(this.#entry(track, 'rotation'));
    }
  }

  #changed(): void {
    for (const listener of this.#listeners) listener();
  }
}
