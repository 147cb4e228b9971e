import { isAudioFile, type LibraryScan, type Logger } from '@radio/core';
import type { TrackAnalysis } from '@radio/db';
import type { TrackRepository } from '../repositories/track-repository.ts';
import { ChangeBatch, type LibraryChange } from './change-batch.ts';
import { FileIndex, type IndexOutcome } from './file-index.ts';
import { type ScanRun, startScan } from './folder-scan.ts';
import type { LibraryTrack } from './library-track.ts';
import { PathLocks } from './path-locks.ts';
import { type Probe, probeFile } from './probe.ts';
import { LibraryWatcher, type WatchEvent } from './watcher.ts';

export type ResolveResult =
  | { readonly ok: true; readonly track: LibraryTrack }
  | {
      readonly ok: false;
      readonly reason: 'not-found' | 'not-audio' | 'invalid';
      readonly message: string;
    };

export interface LibraryOptions {
  /** MUSIC_DIR, absolute. */
  root: string;
  tracks: TrackRepository;
  logger: Logger;
  probe?: Probe;
  /** Watch the folder (default true). */
  watch?: boolean;
  /** awaitWriteFinish stability (ms). */
  stableMs?: number;
  /** Watcher changes are gathered this long into one batch (ms). */
  batchMs?: number;
}

/**
 * The music library: the `tracks` table kept in step with MUSIC_DIR (start-up scan, folder
 * watch, rescans) and the playable tracks in memory for the queue. Never throws on a file: a
 * bad one is stored as invalid with the reason.
 */
export class Library {
  readonly #root: string;
  readonly #repo: TrackRepository;
  readonly #log: Logger;
  readonly #watcher: LibraryWatcher | null;
  readonly #batch: ChangeBatch;
  readonly #index: FileIndex;
  readonly #locks = new PathLocks();
  readonly #scanListeners = new Set<(scan: LibraryScan) => void>();
  readonly #analysisListeners = new Set<(track: LibraryTrack) => void>();

  #started = false;
  #stopped = false;
  #scan: ScanRun | null = null;

  constructor(options: LibraryOptions) {
    this.#root = options.root;
    this.#repo = options.tracks;
    this.#log = options.logger;
    this.#batch = new ChangeBatch(options.batchMs ?? 100, options.logger);
    this.#index = new FileIndex({
      root: options.root,
      tracks: options.tracks,
      logger: options.logger,
      probe: options.probe ?? probeFile,
      batch: this.#batch,
    });
    this.#watcher =
      options.watch === false
        ? null
        : new LibraryWatcher({
            root: options.root,
            logger: options.logger,
            stableMs: options.stableMs,
            onEvent: (event) => this.#onWatchEvent(event),
          });
  }

  /** Loads what the database knows, then watches and scans the folder. */
  async start(): Promise<void> {
    await this.load();
    await this.watchAndScan();
  }

  /** The playable tracks the database already knows (the station can play before a scan). */
  async load(): Promise<void> {
    await this.#index.load();
  }

  /** Starts the watch, then scans the whole folder; resolves when the scan is done. */
  async watchAndScan(): Promise<void> {
    // Watch first, so a file that arrives during the scan is not missed; both paths go through
    // the per-file lock, so they never index the same file at once.
    await this.#watcher?.start();
    if (this.#stopped) return;
    await this.#runScan(false).done;
    this.#started = true;
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    this.#batch.stop();
    await this.#watcher?.stop();
    await this.#scan?.done.catch(() => {});
    await this.#locks.settled();
  }

  tracks(): LibraryTrack[] {
    return this.#index.tracks();
  }

  get(id: number): LibraryTrack | undefined {
    return this.#index.get(id);
  }

  byPath(path: string): LibraryTrack | undefined {
    return this.#index.byPath(path);
  }

  get root(): string {
    return this.#root;
  }

  /** How many files were read for tags since start (a rescan of an unchanged library adds 0). */
  get probeCount(): number {
    return this.#index.probeCount;
  }

  onChange(listener: (change: LibraryChange) => void): () => void {
    return this.#batch.onChange(listener);
  }

  onScan(listener: (scan: LibraryScan) => void): () => void {
    this.#scanListeners.add(listener);
    return () => this.#scanListeners.delete(listener);
  }

  /** The scan running now, or the last one. */
  lastScan(): LibraryScan | null {
    return this.#scan ? { ...this.#scan.state } : null;
  }

  /** Starts a full rescan (or joins the one running) and returns its id and completion. */
  rescan(): { scanId: string; done: Promise<LibraryScan> } {
    if (this.#scan && this.#scan.state.state === 'running') {
      return { scanId: this.#scan.state.scanId, done: this.#scan.done };
    }
    const scan = this.#runScan(true);
    return { scanId: scan.state.scanId, done: scan.done };
  }

  /**
   * The playable track at `path` (relative), indexing the file now if the watcher has not yet:
   * what `request.push` needs to answer at once.
   */
  async resolve(path: string): Promise<ResolveResult> {
    if (!isAudioFile(path)) {
      return { ok: false, reason: 'not-audio', message: `not an audio file: ${path}` };
    }
    const outcome = await this.#indexFile(path, true);
    if (outcome === 'removed' || outcome === 'ignored') {
      return { ok: false, reason: 'not-found', message: `file not found: ${path}` };
    }
    const track = this.byPath(path);
    if (track) return { ok: true, track };
    const row = await this.#repo.findByPath(path);
    return {
      ok: false,
      reason: 'invalid',
      message: `not playable: ${path}: ${row?.error ?? 'invalid audio file'}`,
    };
  }

  /** A track that failed to decode: invalid from now on, until its file changes. */
  markUnplayable(id: number, reason: string): Promise<void> {
    return this.#index.markUnplayable(id, reason);
  }

  /** New analysis values for a playable track: its next play uses them. */
  applyAnalysis(id: number, analysis: TrackAnalysis): void {
    this.#index.applyAnalysis(id, analysis);
    const track = this.#index.get(id);
    if (track) for (const listener of this.#analysisListeners) listener(track);
  }

  /** A track's analysis changed (its cue points time it differently from now on). */
  onAnalysis(listener: (track: LibraryTrack) => void): () => void {
    this.#analysisListeners.add(listener);
    return () => this.#analysisListeners.delete(listener);
  }

  /** One file is never indexed twice at once (the watch, a scan and `resolve` may all ask). */
  #indexFile(path: string, fresh: boolean): Promise<IndexOutcome> {
    return this.#locks.run(path, () => this.#index.index(path, fresh));
  }

  #onWatchEvent(event: WatchEvent): void {
    if (this.#stopped) return;
    const fresh = this.#started;
    if (event.kind === 'folder-removed') {
      const prefix = `${event.path}/`;
      for (const path of this.#index.knownPaths()) {
        if (path.startsWith(prefix)) void this.#watchJob(path, fresh);
      }
      return;
    }
    void this.#watchJob(event.path, fresh);
  }

  async #watchJob(path: string, fresh: boolean): Promise<void> {
    try {
      await this.#indexFile(path, fresh);
      this.#batch.schedule(fresh);
    } catch (error) {
      this.#log.error({ err: error, path }, 'indexing a file failed');
    }
  }

  #runScan(fresh: boolean): ScanRun {
    this.#scan = startScan({
      root: this.#root,
      logger: this.#log,
      index: this.#index,
      indexFile: (path) => this.#indexFile(path, fresh),
      stopped: () => this.#stopped,
      progress: (state) => this.#emitScan(state),
      flush: () => this.#batch.flush(),
    });
    return this.#scan;
  }

  #emitScan(state: LibraryScan): void {
    for (const listener of this.#scanListeners) {
      try {
        listener({ ...state });
      } catch (error) {
        this.#log.error({ err: error }, 'library scan listener failed');
      }
    }
  }
}
