import type { Logger } from '@radio/core';
import type { LibraryTrack } from './library-track.ts';

/** One batch of library changes, as the queue and the bus need them. */
export interface LibraryChange {
  /** Playable now and not playable before (a new file, or one that came back or was fixed). */
  readonly added: readonly LibraryTrack[];
  /** Playable before and after (tags changed, or the file was renamed or moved). */
  readonly updated: readonly LibraryTrack[];
  /** Ids that were playable and are not any more (deleted, or found unplayable). */
  readonly removed: readonly number[];
  /** Paths found unplayable in this batch. */
  readonly invalid: readonly string[];
  readonly paths: readonly string[];
  /** False for the start-up scan: only changes after start count as new music. */
  readonly fresh: boolean;
}

interface PendingChange {
  added: Map<number, LibraryTrack>;
  updated: Map<number, LibraryTrack>;
  removed: Set<number>;
  invalid: Set<string>;
  paths: Set<string>;
}

function emptyPending(): PendingChange {
  return {
    added: new Map(),
    updated: new Map(),
    removed: new Set(),
    invalid: new Set(),
    paths: new Set(),
  };
}

/**
 * The library's changes gathered for `batchMs`, then told to the listeners as one
 * LibraryChange. Within a batch the last thing that happened to a track wins.
 */
export class ChangeBatch {
  readonly #batchMs: number;
  readonly #log: Logger;
  readonly #listeners = new Set<(change: LibraryChange) => void>();
  #pending = emptyPending();
  #fresh = false;
  #timer: NodeJS.Timeout | null = null;
  #stopped = false;

  constructor(batchMs: number, logger: Logger) {
    this.#batchMs = batchMs;
    this.#log = logger;
  }

  onChange(listener: (change: LibraryChange) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  removed(id: number): void {
    this.#pending.added.delete(id);
    this.#pending.updated.delete(id);
    this.#pending.removed.add(id);
  }

  playable(track: LibraryTrack, kind: 'added' | 'updated'): void {
    const pending = this.#pending;
    const wasRemoved = pending.removed.delete(track.id);
    if (kind === 'added' && !wasRemoved && !pending.updated.has(track.id)) {
      pending.added.set(track.id, track);
    } else if (pending.added.has(track.id)) {
      pending.added.set(track.id, track);
    } else {
      pending.updated.set(track.id, track);
    }
  }

  invalid(path: string): void {
    this.#pending.invalid.add(path);
  }

  touched(path: string): void {
    this.#pending.paths.add(path);
  }

  /** Marks the batch as new music when `fresh` (a change after the start-up scan). */
  markFresh(fresh: boolean): void {
    this.#fresh ||= fresh;
  }

  /** Tells the batch in `batchMs` (once, however many changes come in that time). */
  schedule(fresh: boolean): void {
    this.markFresh(fresh);
    if (this.#timer || this.#stopped) return;
    this.#timer = setTimeout(() => {
      this.#timer = null;
      this.flush();
    }, this.#batchMs);
  }

  /** Tells the batch now, if anything changed. */
  flush(): void {
    const pending = this.#pending;
    const fresh = this.#fresh;
    this.#pending = emptyPending();
    this.#fresh = false;
    if (pending.paths.size === 0 && pending.removed.size === 0) return;
    const change: LibraryChange = {
      added: [...pending.added.values()],
      updated: [...pending.updated.values()],
      removed: [...pending.removed],
      invalid: [...pending.invalid],
      paths: [...pending.paths],
      fresh,
    };
    for (const listener of this.#listeners) {
      try {
        listener(change);
      } catch (error) {
        this.#log.error({ err: error }, 'library change listener failed');
      }
    }
  }

  /** No timed batch from now on (a `flush` still tells). */
  stop(): void {
    this.#stopped = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
  }
}
