import { stat } from 'node:fs/promises';
import { type Logger, locateFfmpeg } from '@radio/core';
import type { Track } from '@radio/db';
import { ApiError } from '../errors.ts';
import type { TracksRepository } from '../repositories/tracks.repository.ts';
import type { TrackIndex } from '../search/track-index.ts';
import { insideMusic } from './library-paths.ts';

export interface TrackFilesOptions {
  tracks: TracksRepository;
  index: TrackIndex;
  musicDir: string;
  /** FFMPEG_PATH, else ffmpeg as @radio/core finds it. */
  ffmpegPath: string | undefined;
  logger: Logger;
  /** How long a change waits for the scheduler's index to show it (ms). */
  indexWaitMs: number;
}

const POLL_MS = 100;

/**
 * The tracks' files as the api edits them: the row and file of a track (404, 409), one change
 * at a time per track, and the wait for the scheduler's index to show a change. The scheduler
 * owns the index (its watcher re-reads a changed file); a route answers once the row shows
 * what it did, so the client reads the new state right after.
 */
export class TrackFiles {
  readonly #options: TrackFilesOptions;
  readonly #busy = new Map<number, Promise<unknown>>();
  #ffmpegPath: string | null = null;

  constructor(options: TrackFilesOptions) {
    this.#options = options;
  }

  get musicDir(): string {
    return this.#options.musicDir;
  }

  get ffmpegPath(): string {
    // Found on first use: an api without ffmpeg still serves everything else.
    this.#ffmpegPath ??= locateFfmpeg({ ffmpegPath: this.#options.ffmpegPath }).path;
    return this.#ffmpegPath;
  }

  async row(id: number): Promise<Track> {
    const row = await this.#options.tracks.findById(id);
    if (!row) throw new ApiError('API_TRACK_NOT_FOUND', `no track with id ${id}`);
    return row;
  }

  /** The paths of the tracks whose files are there, from the search index (no query each time). */
  async presentPaths(): Promise<string[]> {
    const { tracks } = await this.#options.index.snapshot();
    return tracks.flatMap((track) => (track.status === 'missing' ? [] : [track.path]));
  }

  /** The absolute path of the track's file; 409 when the file is not there. */
  async file(row: Track): Promise<string> {
    const absolute = insideMusic(this.#options.musicDir, row.path);
    const info = row.status === 'missing' ? null : await stat(absolute).catch(() => null);
    if (!info?.isFile()) {
      throw new ApiError(
        'API_FILE_MISSING',
        `the file of track ${row.id} (${row.path}) is missing`,
      );
    }
    return absolute;
  }

  /** Runs `work` after any other change of the same track has finished. */
  exclusive<T>(id: number, work: () => Promise<T>): Promise<T> {
    const before = this.#busy.get(id) ?? Promise.resolve();
    const run = before.catch(() => {}).then(work);
    const settled = run.catch(() => {});
    this.#busy.set(id, settled);
    void settled.then(() => {
      if (this.#busy.get(id) === settled) this.#busy.delete(id);
    });
    return run;
  }

  /**
   * Waits until the track's row satisfies `done` (the scheduler re-indexed the file), bounded
   * by `indexWaitMs`; then the row as it is. The search index is told to reload either way.
   */
  async settled(
    id: number,
    what: string,
    done: (row: Track) => boolean | Promise<boolean>,
  ): Promise<Track> {
    const deadline = Date.now() + this.#options.indexWaitMs;
    const check = async (): Promise<{ row: Track | undefined; ok: boolean }> => {
      const row = await this.#options.tracks.findById(id);
      return { row, ok: row !== undefined && (await done(row)) };
    };
    let state = await check();
    while (!state.ok && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      state = await check();
    }
    this.#options.index.invalidate();
    const { row } = state;
    if (!row) throw new ApiError('API_TRACK_NOT_FOUND', `track ${id} is gone`);
    if (!state.ok) {
      this.#options.logger.warn(
        { trackId: id, what, waitedMs: this.#options.indexWaitMs },
        'the library index did not show the change in time (is the scheduler running?)',
      );
    }
    return row;
  }

  /** The row shows the file as it is on disk now (size and mtime, as the scheduler stores them). */
  async matchesDisk(row: Track): Promise<boolean> {
    const info = await stat(insideMusic(this.#options.musicDir, row.path)).catch(() => null);
    return (
      info !== null &&
      row.status === 'ok' &&
      Number(row.size) === info.size &&
      Number(row.mtime) === Math.floor(info.mtimeMs)
    );
  }
}
