import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { audioContentHash, type Logger, type MediaToolOptions } from '@radio/core';
import type { DbHandle, Track } from '@radio/db';

/** Tracks whose length is this close to an upload's may hold the same audio. */
const DURATION_TOLERANCE_SECONDS = 1.5;
/** Hashing is a read of each file: bounded per upload (the rest get hashed by later uploads). */
const MAX_CANDIDATES = 25;

/**
 * The library's audio hashes (tracks.audio_hash): found by value, and filled in lazily for
 * tracks that have none yet, among those as long as the upload (the scheduler clears a hash
 * when the file's content changes).
 */
export class TrackHashes {
  readonly #handle: DbHandle;
  readonly #musicDir: string;
  readonly #media: MediaToolOptions;
  readonly #log: Logger;

  constructor(handle: DbHandle, musicDir: string, media: MediaToolOptions, log: Logger) {
    this.#handle = handle;
    this.#musicDir = musicDir;
    this.#media = media;
    this.#log = log;
  }

  findByPath(path: string): Promise<Track | undefined> {
    return this.#handle.db
      .selectFrom('tracks')
      .selectAll()
      .where('path', '=', path)
      .executeTakeFirst();
  }

  /** A playable track with this audio, hashing unhashed tracks of about this length first. */
  async findDuplicate(hash: string, durationSeconds: number): Promise<Track | undefined> {
    const known = await this.#withHash(hash);
    if (known) return known;
    const db = this.#handle.db;
    const candidates = await db
      .selectFrom('tracks')
      .selectAll()
      .where('status', '=', 'ok')
      .where('audio_hash', 'is', null)
      .where('duration', '>=', durationSeconds - DURATION_TOLERANCE_SECONDS)
      .where('duration', '<=', durationSeconds + DURATION_TOLERANCE_SECONDS)
      .orderBy('id')
      .limit(MAX_CANDIDATES)
      .execute();
    let found: Track | undefined;
    for (const track of candidates) {
      const value = await this.#hashOf(track);
      if (value !== null && (await this.store(track, value)) && value === hash) found ??= track;
    }
    return found;
  }

  /**
   * Records a track's hash, unless its file changed since the row was read (same size and
   * mtime as the row, so a hash never lands on a newer version). True when stored.
   */
  async store(track: Track, hash: string): Promise<boolean> {
    const result = await this.#handle.db
      .updateTable('tracks')
      .set({ audio_hash: hash })
      .where('id', '=', track.id)
      .where('size', '=', track.size)
      .where('mtime', '=', track.mtime)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  #withHash(hash: string): Promise<Track | undefined> {
    return this.#handle.db
      .selectFrom('tracks')
      .selectAll()
      .where('audio_hash', '=', hash)
      .where('status', '=', 'ok')
      .orderBy('id')
      .executeTakeFirst();
  }

  async #hashOf(track: Track): Promise<string | null> {
    const file = join(this.#musicDir, track.path);
    try {
      const info = await stat(file);
      // The row describes another version of the file: the scheduler will index it anew.
      if (info.size !== Number(track.size) || Math.floor(info.mtimeMs) !== Number(track.mtime)) {
        return null;
      }
      return await audioContentHash(file, this.#media);
    } catch (error) {
      this.#log.debug({ err: error, path: track.path }, 'cannot hash a library file');
      return null;
    }
  }
}
