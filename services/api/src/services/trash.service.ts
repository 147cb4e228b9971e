import { randomBytes } from 'node:crypto';
import { mkdir, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { type Logger, LogThrottle } from '@radio/core';
import type { Track, TrashEntry } from '@radio/db';
import type { SchedulerClient } from '../clients/scheduler-client.ts';
import type { Page } from '../dtos/common.dto.ts';
import type { DeleteResult, TrashEntryDto, TrashListQuery } from '../dtos/library.dto.ts';
import { toTrackDto } from '../dtos/mappers.ts';
import type { TrackDto } from '../dtos/tracks.dto.ts';
import type { AuthUser } from '../dtos/users.dto.ts';
import { ApiError } from '../errors.ts';
import { exists, moveFile } from '../library/file-moves.ts';
import { insideMusic } from '../library/library-paths.ts';
import type { TrackFiles } from '../library/track-files.ts';
import type { AuditRepository } from '../repositories/audit.repository.ts';
import type { LibraryRepository } from '../repositories/library.repository.ts';
import type { TrashRepository } from '../repositories/trash.repository.ts';
import type { Actor } from './library-tags.service.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Expired entries removed per run of the purge: a bounded piece of work, the rest next time. */
const PURGE_BATCH = 200;

export interface TrashServiceOptions {
  files: TrackFiles;
  trash: TrashRepository;
  library: LibraryRepository;
  audit: AuditRepository;
  scheduler: SchedulerClient;
  /** Removes a deleted track's pending listener requests; returns how many. */
  requests: { trackDeleted(trackId: number): Promise<number> };
  /** DATA_DIR: the files live in DATA_DIR/trash. */
  dataDir: string;
  /** TRASH_DAYS. */
  trashDays: number;
  logger: Logger;
  /** How often expired entries are purged (ms). Default one hour. */
  purgeEveryMs?: number;
}

function toTrashDto(row: TrashEntry): TrashEntryDto {
  return {
    id: row.id,
    trackId: row.track_id,
    originalPath: row.original_path,
    title: row.title,
    artist: row.artist,
    size: Number(row.size),
    deletedBy: row.deleted_by,
    deletedAt: row.deleted_at,
    expiresAt: row.expires_at,
  };
}

/**
 * Delete, restore and purge. A deleted file goes to DATA_DIR/trash under a unique name, its
 * track leaves every playlist and the queue (the one on air plays to its end: its decoder has
 * the file open), its pending listener requests are removed, and its row is marked missing by
 * the scheduler's index. A restore puts the file back where it was, and the same row comes
 * back `ok` through the index. Admins delete any track and purge the trash; a DJ deletes the
 * tracks it uploaded and restores any (a restore destroys nothing).
 */
export class TrashService {
  readonly #options: TrashServiceOptions;
  readonly #dir: string;
  readonly #log: Logger;
  #timer: NodeJS.Timeout | null = null;
  #purging: Promise<number> | null = null;
  readonly #refusals = new LogThrottle();

  constructor(options: TrashServiceOptions) {
    this.#options = options;
    this.#dir = join(options.dataDir, 'trash');
    this.#log = options.logger;
  }

  /** An admin deletes any track; a DJ only the tracks it uploaded (403 otherwise). */
  async delete(id: number, user: AuthUser): Promise<DeleteResult> {
    const { files, trash, library, audit } = this.#options;
    const { entry, queue, row } = await files.exclusive(id, async () => {
      const row = await files.row(id);
      await this.#checkOwner(row, user);
      const file = await files.file(row);
      await mkdir(this.#dir, { recursive: true });
      const storedName = `${Date.now()}-${randomBytes(4).toString('hex')}-${basename(row.path).slice(-150)}`;
      const entry = await trash.insert({
        track_id: id,
        original_path: row.path,
        stored_name: storedName,
        title: row.title,
        artist: row.artist,
        size: Number(row.size),
        deleted_by: user.id,
        expires_at: new Date(Date.now() + this.#options.trashDays * DAY_MS).toISOString(),
      });
      // Out of the queue before the file goes, so nothing is cued from a file that is gone.
      const queue = await this.#dropFromQueue(id);
      try {
        await moveFile(file, join(this.#dir, storedName), false);
      } catch (error) {
        await trash.remove(entry.id);
        throw error;
      }
      return { entry, queue, row };
    });
    const removedFromPlaylists = await library.removeFromPlaylists(id);
    const removedRequests = await this.#options.requests.trackDeleted(id);
    await audit.record({
      user,
      action: 'track.delete',
      target: row.path,
      details: { trackId: id, trashId: entry.id, removedFromPlaylists, removedRequests, ...queue },
    });
    this.#log.info(
      { trackId: id, path: row.path, trashId: entry.id },
      'track deleted to the trash',
    );
    await files.settled(id, 'delete', (now) => now.status === 'missing' || now.path !== row.path);
    return {
      trashId: entry.id,
      removedFromPlaylists,
      removedFromQueue: queue.removedFromQueue,
      removedRequests,
      onAir: queue.onAir,
    };
  }

  async #checkOwner(row: Track, user: AuthUser): Promise<void> {
    if (user.role === 'admin') return;
    const uploader = await this.#options.library.uploaderOf(row);
    if (uploader === user.id) return;
    const held = this.#refusals.take(`delete:${user.id}`);
    if (held !== null) {
      this.#log.info(
        { userId: user.id, trackId: row.id, uploader, held },
        'refused: a DJ tried to delete a track it did not upload',
      );
    }
    throw new ApiError(
      'API_FORBIDDEN',
      uploader === null
        ? 'a DJ deletes only the tracks it uploaded; this one was not uploaded here: ask an admin'
        : 'a DJ deletes only the tracks it uploaded; another user uploaded this one: ask an admin',
    );
  }

  async list(query: TrashListQuery): Promise<Page<TrashEntryDto>> {
    const { rows, total } = await this.#options.trash.list(
      (query.page - 1) * query.limit,
      query.limit,
    );
    return { items: rows.map(toTrashDto), total, page: query.page, limit: query.limit };
  }

  /** Back where it was; 409 when that name is taken now. */
  async restore(trashId: number, user: Actor): Promise<TrackDto> {
    const { files, trash, library, audit } = this.#options;
    const entry = await trash.find(trashId);
    if (!entry) throw new ApiError('API_TRASH_NOT_FOUND', `no trash entry ${trashId}`);
    const stored = join(this.#dir, entry.stored_name);
    if (!(await exists(stored))) {
      throw new ApiError('API_FILE_MISSING', 'the file of this entry is gone from the trash');
    }
    const target = insideMusic(files.musicDir, entry.original_path);
    await mkdir(dirname(target), { recursive: true });
    await moveFile(stored, target, false);
    await trash.remove(trashId);
    await audit.record({
      user,
      action: 'track.restore',
      target: entry.original_path,
      details: { trashId, trackId: entry.track_id },
    });
    this.#log.info({ trashId, path: entry.original_path }, 'track restored from the trash');
    const back = (row: { path: string; status: string }) =>
      row.path === entry.original_path && row.status === 'ok';
    if (entry.track_id !== null && (await files.row(entry.track_id).catch(() => null))) {
      return toTrackDto(await files.settled(entry.track_id, 'restore', back));
    }
    // The row went with a purge of the index: the scheduler indexes the file as a new track.
    const found = await library.findByPath(entry.original_path);
    if (found) return toTrackDto(await files.settled(found.id, 'restore', back));
    throw new ApiError(
      'API_TRACK_NOT_FOUND',
      'the file is back; the library has not indexed it yet',
    );
  }

  /** Deletes the entry and its file for good. */
  async purge(trashId: number, user: Actor | null): Promise<void> {
    const entry = await this.#options.trash.find(trashId);
    if (!entry) throw new ApiError('API_TRASH_NOT_FOUND', `no trash entry ${trashId}`);
    await this.#purgeEntry(entry, user);
  }

  /** Purges the entries older than TRASH_DAYS now and then every `purgeEveryMs`. */
  start(): void {
    if (this.#timer) return;
    const run = (): void => void this.purgeExpired();
    this.#timer = setInterval(run, this.#options.purgeEveryMs ?? 60 * 60 * 1000);
    this.#timer.unref();
    run();
  }

  async stop(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    await this.#purging?.catch(() => {});
  }

  /** One bounded run of the expiry; returns how many entries went. Never throws. */
  purgeExpired(): Promise<number> {
    this.#purging ??= this.#purgeExpired().finally(() => {
      this.#purging = null;
    });
    return this.#purging;
  }

  async #purgeExpired(): Promise<number> {
    let purged = 0;
    try {
      const expired = await this.#options.trash.expired(new Date().toISOString(), PURGE_BATCH);
      for (const entry of expired) {
        await this.#purgeEntry(entry, null);
        purged += 1;
      }
      if (purged > 0) this.#log.info({ purged }, 'expired trash purged');
    } catch (error) {
      this.#log.warn({ err: error, purged }, 'purging the expired trash failed');
    }
    return purged;
  }

  async #purgeEntry(entry: TrashEntry, user: Actor | null): Promise<void> {
    const file = join(this.#dir, entry.stored_name);
    const size = await stat(file).then(
      (info) => info.size,
      () => 0,
    );
    await rm(file, { force: true });
    await this.#options.trash.remove(entry.id);
    await this.#options.audit.record({
      user,
      action: 'trash.purge',
      target: entry.original_path,
      details: { trashId: entry.id, trackId: entry.track_id, bytes: size, expired: user === null },
    });
  }

  async #dropFromQueue(trackId: number): Promise<{ removedFromQueue: number; onAir: boolean }> {
    try {
      const result = await this.#options.scheduler.request('queue.remove', { trackId });
      return { removedFromQueue: result.removed, onAir: result.onAir };
    } catch (error) {
      // The file still goes: the scheduler drops the track when its index sees the file gone.
      this.#log.warn({ err: error, trackId }, 'the scheduler did not take the track off its queue');
      return { removedFromQueue: 0, onAir: false };
    }
  }
}
