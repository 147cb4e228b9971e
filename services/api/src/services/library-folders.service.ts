import { mkdir, opendir } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { Logger } from '@radio/core';
import type { Track } from '@radio/db';
import type { BulkFailure, FolderDto } from '../dtos/library.dto.ts';
import { toTrackDto } from '../dtos/mappers.ts';
import type { TrackDto } from '../dtos/tracks.dto.ts';
import { ApiError } from '../errors.ts';
import { exists, moveFile } from '../library/file-moves.ts';
import { checkFolder, folderOf, insideMusic, joinLibrary } from '../library/library-paths.ts';
import type { TrackFiles } from '../library/track-files.ts';
import type { AuditRepository } from '../repositories/audit.repository.ts';
import { type Actor, failureOf } from './library-tags.service.ts';

/** At most this many folders are read from disk for the list (a bound on a huge tree). */
const MAX_DISK_FOLDERS = 5000;

/** The folders on disk under MUSIC_DIR (hidden ones and their contents left out). */
async function diskFolders(root: string): Promise<string[]> {
  const found: string[] = [];
  const pending = [''];
  while (pending.length > 0 && found.length < MAX_DISK_FOLDERS) {
    const folder = pending.shift() as string;
    const dir = await opendir(join(root, folder)).catch(() => null);
    if (!dir) continue;
    for await (const entry of dir) {
      if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
      const path = joinLibrary(folder, entry.name);
      found.push(path);
      pending.push(path);
    }
  }
  return found;
}

/** Every folder of `path`'s ancestors, nearest first, ending with '' (the top). */
function ancestors(folder: string): string[] {
  const list: string[] = [];
  let current = folder;
  for (;;) {
    list.push(current);
    if (current === '') return list;
    current = folderOf(current);
  }
}

/** Folders of the music library and moving tracks between them. */
export class LibraryFoldersService {
  readonly #files: TrackFiles;
  readonly #audit: AuditRepository;
  readonly #log: Logger;

  constructor(files: TrackFiles, audit: AuditRepository, logger: Logger) {
    this.#files = files;
    this.#audit = audit;
    this.#log = logger;
  }

  /** Folders with their track counts: those tracks are in, and the empty ones on disk. */
  async list(): Promise<FolderDto[]> {
    const folders = new Map<string, FolderDto>([['', { path: '', tracks: 0, total: 0 }]]);
    const folder = (path: string): FolderDto => {
      let entry = folders.get(path);
      if (!entry) {
        entry = { path, tracks: 0, total: 0 };
        folders.set(path, entry);
      }
      return entry;
    };
    for (const path of await diskFolders(this.#files.musicDir)) folder(path);
    for (const path of await this.#files.presentPaths()) {
      const own = folderOf(path);
      folder(own).tracks += 1;
      for (const each of ancestors(own)) folder(each).total += 1;
    }
    return [...folders.values()].sort((a, b) => a.path.localeCompare(b.path));
  }

  async create(input: string, user: Actor): Promise<FolderDto> {
    const path = checkFolder(input);
    if (path === '') throw new ApiError('API_VALIDATION', 'give the name of the folder to create');
    const absolute = insideMusic(this.#files.musicDir, path);
    if (await exists(absolute)) throw new ApiError('API_PATH_TAKEN', `${path} exists already`);
    await mkdir(absolute, { recursive: true });
    await this.#audit.record({ user, action: 'folder.create', target: path });
    this.#log.info({ path }, 'folder created');
    return { path, tracks: 0, total: 0 };
  }

  /**
   * Moves tracks into `folder` (created when missing), keeping their file names; a name taken
   * there is a failure of that track, never an overwrite. Each keeps its id: the index follows
   * a renamed file.
   */
  async move(
    ids: readonly number[],
    input: string,
    user: Actor,
  ): Promise<{ moved: TrackDto[]; failed: BulkFailure[] }> {
    const folder = checkFolder(input);
    await mkdir(insideMusic(this.#files.musicDir, folder), { recursive: true });
    const done: { row: Track; to: string }[] = [];
    const failed: BulkFailure[] = [];
    for (const id of new Set(ids)) {
      try {
        done.push(await this.#moveOne(id, folder, user));
      } catch (error) {
        if (!(error instanceof ApiError))
          this.#log.error({ err: error, trackId: id }, 'move failed');
        failed.push(failureOf(id, error));
      }
    }
    const moved: TrackDto[] = [];
    for (const { row, to } of done) {
      const now = await this.#files.settled(
        row.id,
        'move',
        (r) => r.path === to && r.status === 'ok',
      );
      moved.push(toTrackDto(now));
    }
    return { moved, failed };
  }

  #moveOne(id: number, folder: string, user: Actor): Promise<{ row: Track; to: string }> {
    return this.#files.exclusive(id, async () => {
      const row = await this.#files.row(id);
      const from = await this.#files.file(row);
      const to = joinLibrary(folder, basename(row.path));
      if (to === row.path) return { row, to };
      await moveFile(from, insideMusic(this.#files.musicDir, to), false);
      await this.#audit.record({
        user,
        action: 'track.move',
        target: to,
        details: { trackId: id, from: row.path, to },
      });
      this.#log.info({ trackId: id, from: row.path, to }, 'track moved');
      return { row, to };
    });
  }
}
