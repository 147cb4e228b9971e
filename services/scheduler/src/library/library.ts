import { randomUUID } from 'node:crypto';
import type { Stats } from 'node:fs';
import { stat } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { isAudioFile, type LibraryScan, type Logger } from '@radio/core';
import type { TrackRepository, TrackStamp } from '../repositories/track-repository.ts';
import { type LibraryTrack, toLibraryTrack } from './library-track.ts';
import { type Probe, probeFile } from './probe.ts';
import { listAudioFiles } from './scanner.ts';
import { LibraryWatcher, type WatchEvent } from './watcher.ts';

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

type Outcome = 'added' | 'updated' | 'unchanged' | 'invalid' | 'removed' | 'ignored';

const SCAN_CONCURRENCY = 4;
const SCAN_PROGRESS_MS = 250;

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
 * The music library: the `tracks` table kept in step with MUSIC_DIR (start-up scan, folder
 * watch, rescans) and the playable tracks in memory for the queue. Never throws on a file: a
 * bad one is stored as invalid with the reason.
 */
export class Library {
  readonly #root: string;
  readonly #repo: TrackRepository;
  readonly #log: Logger;
  readonly #probe: Probe;
  readonly #watcher: LibraryWatcher | null;
  readonly #batchMs: number;

  readonly #playable = new Map<number, LibraryTrack>();
  readonly #idsByPath = new Map<string, number>();
  readonly #stamps = new Map<string, TrackStamp>();
  readonly #locks = new Map<string, Promise<unknown>>();
  readonly #changeListeners = new Set<(change: LibraryChange) => void>();
  readonly #scanListeners = new Set<(scan: LibraryScan) => void>();

  #pending = emptyPending();
  #pendingFresh = false;
  #flushTimer: NodeJS.Timeout | null = null;
  #started = false;
  #stopped = false;
  #scan: { state: LibraryScan; done: Promise<LibraryScan> } | null = null;
  #probes = 0;

  constructor(options: LibraryOptions) {
    this.#root = options.root;
    this.#repo = options.tracks;
    this.#log = options.logger;
    this.#probe = options.probe ?? probeFile;
    this.#batchMs = options.batchMs ?? 100;
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
    for (const stamp of await this.#repo.stamps()) this.#stamps.set(stamp.path, stamp);
    for (const row of await this.#repo.playable()) this.#remember(toLibraryTrack(row));
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
    await this.#watcher?.stop();
    if (this.#flushTimer) clearTimeout(this.#flushTimer);
    this.#flushTimer = null;
    await this.#scan?.done.catch(() => {});
    await Promise.allSettled([...this.#locks.values()]);
  }

  tracks(): LibraryTrack[] {
    return [...this.#playable.values()];
  }

  get(id: number): LibraryTrack | undefined {
    return this.#playable.get(id);
  }

  byPath(path: string): LibraryTrack | undefined {
    const id = this.#idsByPath.get(path);
    return id === undefined ? undefined : this.#playable.get(id);
  }

  get root(): string {
    return this.#root;
  }

  /** How many files were read for tags since start (a rescan of an unchanged library adds 0). */
  get probeCount(): number {
    return this.#probes;
  }

  onChange(listener: (change: LibraryChange) => void): () => void {
    this.#changeListeners.add(listener);
    return () => this.#changeListeners.delete(listener);
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
    const outcome = await this.#locked(path, () => this.#index(path, true));
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

  /**
   * A track that failed to decode: invalid from now on, until its file changes. A file that
   * was deleted or renamed just as it was about to play is not invalid: the watch marks it
   * missing or follows it to its new name, and so does nothing here.
   */
  async markUnplayable(id: number, reason: string): Promise<void> {
    const track = this.#playable.get(id);
    if (!track || !(await exists(join(this.#root, track.path)))) return;
    await this.#repo.markInvalid(id, reason);
    const stamp = this.#stamps.get(track.path);
    if (stamp) this.#stamps.set(track.path, { ...stamp, status: 'invalid' });
    this.#forget(id);
    this.#log.warn({ trackId: id, path: track.path, reason }, 'track marked invalid');
    this.#pendingRemoved(id);
    this.#pending.invalid.add(track.path);
    this.#pending.paths.add(track.path);
    this.#scheduleFlush(true);
  }

  /** Records in the pending batch; the last thing that happened to a track wins. */
  #pendingRemoved(id: number): void {
    this.#pending.added.delete(id);
    this.#pending.updated.delete(id);
    this.#pending.removed.add(id);
  }

  #pendingPlayable(track: LibraryTrack, kind: 'added' | 'updated'): void {
    const wasRemoved = this.#pending.removed.delete(track.id);
    if (kind === 'added' && !wasRemoved && !this.#pending.updated.has(track.id)) {
      this.#pending.added.set(track.id, track);
    } else if (this.#pending.added.has(track.id)) {
      this.#pending.added.set(track.id, track);
    } else {
      this.#pending.updated.set(track.id, track);
    }
  }

  #remember(track: LibraryTrack): void {
    this.#playable.set(track.id, track);
    this.#idsByPath.set(track.path, track.id);
  }

  #forget(id: number): void {
    const track = this.#playable.get(id);
    if (!track) return;
    this.#playable.delete(id);
    if (this.#idsByPath.get(track.path) === id) this.#idsByPath.delete(track.path);
  }

  /** Runs `job` after every earlier job on the same path: one file is never indexed twice at once. */
  #locked<T>(path: string, job: () => Promise<T>): Promise<T> {
    const previous = this.#locks.get(path) ?? Promise.resolve();
    const run = previous.then(job, job);
    const tail = run.catch(() => {});
    this.#locks.set(path, tail);
    void tail.then(() => {
      if (this.#locks.get(path) === tail) this.#locks.delete(path);
    });
    return run;
  }

  #onWatchEvent(event: WatchEvent): void {
    if (this.#stopped) return;
    const fresh = this.#started;
    if (event.kind === 'folder-removed') {
      const prefix = `${event.path}/`;
      for (const path of [...this.#stamps.keys()]) {
        if (path.startsWith(prefix)) void this.#watchJob(path, fresh);
      }
      return;
    }
    void this.#watchJob(event.path, fresh);
  }

  async #watchJob(path: string, fresh: boolean): Promise<void> {
    try {
      await this.#locked(path, () => this.#index(path, fresh));
      this.#scheduleFlush(fresh);
    } catch (error) {
      this.#log.error({ err: error, path }, 'indexing a file failed');
    }
  }

  /** Brings the row of one file in step with the disk; records the change in the pending batch. */
  async #index(path: string, fresh: boolean): Promise<Outcome> {
    const absolute = join(this.#root, path);
    let info: Stats;
    try {
      info = await stat(absolute);
    } catch {
      return this.#remove(path);
    }
    if (!info.isFile()) return 'ignored';
    const facts = { size: info.size, mtime: Math.floor(info.mtimeMs) };
    const stamp = this.#stamps.get(path);
    if (
      stamp &&
      stamp.status !== 'missing' &&
      stamp.size === facts.size &&
      stamp.mtime === facts.mtime
    ) {
      return 'unchanged';
    }

    this.#probes += 1;
    const result = await this.#probe(absolute, path, facts.size);
    const wasPlayable = stamp?.status === 'ok' && this.#idsByPath.has(path);
    const previousId = this.#idsByPath.get(path);
    this.#pending.paths.add(path);
    if (!result.ok) {
      const format = extname(path).slice(1).toLowerCase() || 'unknown';
      const row = await this.#repo.saveInvalid(path, facts, format, result.reason);
      this.#stamps.set(path, { id: row.id, path, ...facts, status: 'invalid' });
      if (previousId !== undefined) {
        this.#forget(previousId);
        this.#pendingRemoved(previousId);
      }
      this.#pending.invalid.add(path);
      this.#log.info({ path, reason: result.reason }, 'file is not playable; marked invalid');
      return 'invalid';
    }

    let moved = false;
    if (!stamp) {
      const candidate = await this.#repo.findMovedCandidate(facts, path);
      if (candidate && !(await exists(join(this.#root, candidate.path)))) {
        await this.#repo.rename(candidate.id, path);
        this.#stamps.delete(candidate.path);
        this.#forget(candidate.id);
        moved = true;
        this.#log.info({ from: candidate.path, to: path, trackId: candidate.id }, 'file moved');
      }
    }
    const row = await this.#repo.saveOk(path, facts, result.tags);
    const track = toLibraryTrack(row);
    this.#stamps.set(path, { id: row.id, path, ...facts, status: 'ok' });
    this.#remember(track);
    if (wasPlayable || moved) {
      this.#pendingPlayable(track, 'updated');
      return 'updated';
    }
    this.#pendingPlayable(track, 'added');
    this.#pendingFresh ||= fresh;
    this.#log.info({ path, trackId: track.id }, 'track indexed');
    return 'added';
  }

  async #remove(path: string): Promise<Outcome> {
    const stamp = this.#stamps.get(path);
    if (!stamp || stamp.status === 'missing') return 'ignored';
    // The add of a renamed file may have claimed this track first: then it is not missing.
    if (!(await this.#repo.markMissingAt(stamp.id, path))) return 'ignored';
    this.#stamps.set(path, { ...stamp, status: 'missing' });
    this.#forget(stamp.id);
    this.#pendingRemoved(stamp.id);
    this.#pending.paths.add(path);
    this.#log.info({ path, trackId: stamp.id }, 'file removed; track marked missing');
    return 'removed';
  }

  #scheduleFlush(fresh: boolean): void {
    this.#pendingFresh ||= fresh;
    if (this.#flushTimer || this.#stopped) return;
    this.#flushTimer = setTimeout(() => {
      this.#flushTimer = null;
      this.#flush();
    }, this.#batchMs);
  }

  #flush(): void {
    const pending = this.#pending;
    const fresh = this.#pendingFresh;
    this.#pending = emptyPending();
    this.#pendingFresh = false;
    if (pending.paths.size === 0 && pending.removed.size === 0) return;
    const change: LibraryChange = {
      added: [...pending.added.values()],
      updated: [...pending.updated.values()],
      removed: [...pending.removed],
      invalid: [...pending.invalid],
      paths: [...pending.paths],
      fresh,
    };
    for (const listener of this.#changeListeners) {
      try {
        listener(change);
      } catch (error) {
        this.#log.error({ err: error }, 'library change listener failed');
      }
    }
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

  #runScan(fresh: boolean): { state: LibraryScan; done: Promise<LibraryScan> } {
    const state: LibraryScan = {
      scanId: randomUUID(),
      state: 'running',
      done: 0,
      total: 0,
      indexed: 0,
      invalid: 0,
      missing: 0,
      startedAt: Date.now(),
      finishedAt: null,
      error: null,
    };
    const done = this.#scanFolder(state, fresh);
    this.#scan = { state, done };
    return this.#scan;
  }

  async #scanFolder(state: LibraryScan, fresh: boolean): Promise<LibraryScan> {
    const log = this.#log.child({ scanId: state.scanId });
    const probesBefore = this.#probes;
    let lastProgress = 0;
    const progress = (force: boolean): void => {
      const now = Date.now();
      if (!force && now - lastProgress < SCAN_PROGRESS_MS) return;
      lastProgress = now;
      this.#emitScan(state);
    };
    try {
      log.info({ root: this.#root }, 'library scan started');
      const files = await listAudioFiles(this.#root, log);
      state.total = files.length;
      progress(true);
      const seen = new Set(files);
      // Missing files first: a file that moved is then found as missing when its new path is
      // indexed, and keeps its id.
      const gone: string[] = [];
      for (const [path, stamp] of [...this.#stamps]) {
        if (stamp.status !== 'missing' && !seen.has(path)) {
          const outcome = await this.#locked(path, () => this.#index(path, fresh));
          if (outcome === 'removed') gone.push(path);
        }
      }
      const stillMissing = (): number =>
        gone.filter((path) => this.#stamps.get(path)?.status === 'missing').length;
      state.missing = stillMissing();
      let next = 0;
      const worker = async (): Promise<void> => {
        while (next < files.length && !this.#stopped) {
          const path = files[next++] as string;
          try {
            const outcome = await this.#locked(path, () => this.#index(path, fresh));
            if (outcome === 'invalid') state.invalid += 1;
            else if (outcome !== 'removed' && outcome !== 'ignored') {
              const stampStatus = this.#stamps.get(path)?.status;
              if (stampStatus === 'ok') state.indexed += 1;
              else if (stampStatus === 'invalid') state.invalid += 1;
            }
          } catch (error) {
            log.error({ err: error, path }, 'indexing a file failed');
            state.invalid += 1;
          }
          state.done += 1;
          progress(false);
        }
      };
      await Promise.all(Array.from({ length: SCAN_CONCURRENCY }, worker));
      state.missing = stillMissing(); // a file found again under a new name is not missing
      state.state = 'done';
      state.finishedAt = Date.now();
      log.info(
        {
          total: state.total,
          indexed: state.indexed,
          invalid: state.invalid,
          missing: state.missing,
          probed: this.#probes - probesBefore,
        },
        'library scan done',
      );
    } catch (error) {
      state.state = 'failed';
      state.finishedAt = Date.now();
      state.error = error instanceof Error ? error.message : String(error);
      log.error({ err: error }, 'library scan failed');
    }
    this.#flush();
    progress(true);
    return { ...state };
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}
