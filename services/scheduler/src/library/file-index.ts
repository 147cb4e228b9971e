import type { Stats } from 'node:fs';
import { stat } from 'node:fs/promises';
import { extname, join } from 'node:path';
import type { Logger } from '@radio/core';
import type { TrackAnalysis } from '@radio/db';
import type { FileFacts, TrackRepository, TrackStamp } from '../repositories/track-repository.ts';
import type { ChangeBatch } from './change-batch.ts';
import { type LibraryTrack, toLibraryTrack } from './library-track.ts';
import type { Probe } from './probe.ts';

/** What indexing one file did. */
export type IndexOutcome = 'added' | 'updated' | 'unchanged' | 'invalid' | 'removed' | 'ignored';

export interface FileIndexOptions {
  /** MUSIC_DIR, absolute. */
  root: string;
  tracks: TrackRepository;
  logger: Logger;
  probe: Probe;
  /** Where each change is recorded. */
  batch: ChangeBatch;
}

/**
 * The files of MUSIC_DIR as the `tracks` table knows them (a stamp a path: size, mtime and
 * status, so an unchanged file is not read again) and the playable tracks in memory.
 */
export class FileIndex {
  readonly #root: string;
  readonly #repo: TrackRepository;
  readonly #log: Logger;
  readonly #probe: Probe;
  readonly #batch: ChangeBatch;
  readonly #playable = new Map<number, LibraryTrack>();
  readonly #idsByPath = new Map<string, number>();
  readonly #stamps = new Map<string, TrackStamp>();
  #probes = 0;

  constructor(options: FileIndexOptions) {
    this.#root = options.root;
    this.#repo = options.tracks;
    this.#log = options.logger;
    this.#probe = options.probe;
    this.#batch = options.batch;
  }

  /** What the database already knows. */
  async load(): Promise<void> {
    for (const stamp of await this.#repo.stamps()) this.#stamps.set(stamp.path, stamp);
    for (const row of await this.#repo.playable()) this.#remember(toLibraryTrack(row));
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

  statusOf(path: string): TrackStamp['status'] | undefined {
    return this.#stamps.get(path)?.status;
  }

  /** Every path the table has a row for. */
  knownPaths(): string[] {
    return [...this.#stamps.keys()];
  }

  /** The paths whose files were there when last seen. */
  presentPaths(): string[] {
    return [...this.#stamps].flatMap(([path, stamp]) => (stamp.status === 'missing' ? [] : [path]));
  }

  /** How many files were read for tags. */
  get probeCount(): number {
    return this.#probes;
  }

  /** Brings the row of one file in step with the disk. */
  async index(path: string, fresh: boolean): Promise<IndexOutcome> {
    let info: Stats;
    try {
      info = await stat(join(this.#root, path));
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
    const result = await this.#probe(join(this.#root, path), path, facts.size);
    const wasPlayable = stamp?.status === 'ok' && this.#idsByPath.has(path);
    const previousId = this.#idsByPath.get(path);
    this.#batch.touched(path);
    if (!result.ok) return this.#saveInvalid(path, facts, result.reason, previousId);

    const moved = !stamp && (await this.#followMove(path, facts));
    // New content is measured again; a renamed file, or one that came back as it was, is not.
    const contentChanged =
      stamp !== undefined && (stamp.size !== facts.size || stamp.mtime !== facts.mtime);
    const row = await this.#repo.saveOk(path, facts, result.tags, contentChanged);
    const track = toLibraryTrack(row);
    this.#stamps.set(path, { id: row.id, path, ...facts, status: 'ok' });
    this.#remember(track);
    if (wasPlayable || moved) {
      this.#batch.playable(track, 'updated');
      return 'updated';
    }
    this.#batch.playable(track, 'added');
    this.#batch.markFresh(fresh);
    this.#log.info({ path, trackId: track.id }, 'track indexed');
    return 'added';
  }

  /**
   * What the analysis measured for a playable track, set on the very object the queue and the
   * rotation hold, so the next play of it uses the new values.
   */
  applyAnalysis(id: number, analysis: TrackAnalysis): void {
    const track = this.#playable.get(id);
    if (track) (track as { analysis: TrackAnalysis }).analysis = analysis;
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
    this.#batch.removed(id);
    this.#batch.invalid(track.path);
    this.#batch.touched(track.path);
    this.#batch.schedule(true);
  }

  async #saveInvalid(
    path: string,
    facts: FileFacts,
    reason: string,
    previousId: number | undefined,
  ): Promise<IndexOutcome> {
    const format = extname(path).slice(1).toLowerCase() || 'unknown';
    const row = await this.#repo.saveInvalid(path, facts, format, reason);
    this.#stamps.set(path, { id: row.id, path, ...facts, status: 'invalid' });
    if (previousId !== undefined) {
      this.#forget(previousId);
      this.#batch.removed(previousId);
    }
    this.#batch.invalid(path);
    this.#log.info({ path, reason }, 'file is not playable; marked invalid');
    return 'invalid';
  }

  /** A new path with the size and mtime of a track whose file is gone is that track, moved. */
  async #followMove(path: string, facts: FileFacts): Promise<boolean> {
    const candidate = await this.#repo.findMovedCandidate(facts, path);
    if (!candidate || (await exists(join(this.#root, candidate.path)))) return false;
    await this.#repo.rename(candidate.id, path);
    this.#stamps.delete(candidate.path);
    this.#forget(candidate.id);
    this.#log.info({ from: candidate.path, to: path, trackId: candidate.id }, 'file moved');
    return true;
  }

  async #remove(path: string): Promise<IndexOutcome> {
    const stamp = this.#stamps.get(path);
    if (!stamp || stamp.status === 'missing') return 'ignored';
    // The add of a renamed file may have claimed this track first: then it is not missing.
    if (!(await this.#repo.markMissingAt(stamp.id, path))) return 'ignored';
    this.#stamps.set(path, { ...stamp, status: 'missing' });
    this.#forget(stamp.id);
    this.#batch.removed(stamp.id);
    this.#batch.touched(path);
    this.#log.info({ path, trackId: stamp.id }, 'file removed; track marked missing');
    return 'removed';
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
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}
