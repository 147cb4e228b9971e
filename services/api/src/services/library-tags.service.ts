import type { Logger } from '@radio/core';
import type { Track } from '@radio/db';
import { parseFile } from 'music-metadata';
import type { BulkFailure, TagEdit } from '../dtos/library.dto.ts';
import { toTrackDto } from '../dtos/mappers.ts';
import type { TrackDto } from '../dtos/tracks.dto.ts';
import { ApiError } from '../errors.ts';
import type { CoverType, TagChanges } from '../library/tag-changes.ts';
import { writeCover, writeTags } from '../library/tag-writer.ts';
import type { TrackFiles } from '../library/track-files.ts';
import type { AuditRepository } from '../repositories/audit.repository.ts';

export interface Actor {
  id: number;
  username: string;
}

/** Largest cover picture accepted. */
export const MAX_COVER_BYTES = 10 * 1024 * 1024;

/** What a failed item of a bulk change reports. */
export function failureOf(id: number, error: unknown): BulkFailure {
  if (error instanceof ApiError) return { id, error: { code: error.code, message: error.message } };
  return { id, error: { code: 'API_INTERNAL', message: 'internal error' } };
}

/** The edit as the writer takes it: an empty text clears its tag like null. */
function changesOf(edit: TagEdit): TagChanges {
  const changes: TagChanges = {};
  for (const [key, value] of Object.entries(edit) as [keyof TagChanges, unknown][]) {
    if (value === undefined) continue;
    (changes as Record<string, unknown>)[key] = value === '' ? null : value;
  }
  return changes;
}

/** The file's own values of the tags about to change, for the audit log. */
async function currentTags(
  file: string,
  keys: readonly string[],
): Promise<Record<string, unknown>> {
  try {
    const { common } = await parseFile(file, { duration: false, skipCovers: true });
    const all: Record<string, unknown> = {
      title: common.title ?? null,
      artist: common.artist ?? null,
      album: common.album ?? null,
      albumArtist: common.albumartist ?? null,
      genre: common.genre?.[0] ?? null,
      year: common.year ?? null,
      trackNumber: common.track?.no ?? null,
    };
    return Object.fromEntries(keys.map((key) => [key, all[key] ?? null]));
  } catch {
    return {};
  }
}

function coverTypeOf(data: Buffer, contentType: string | undefined): CoverType {
  const type = contentType?.split(';')[0]?.trim().toLowerCase();
  const png = data
    .subarray(0, 8)
    .equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  const jpeg = data.length > 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff;
  if (type === 'image/png' && png) return 'image/png';
  if ((type === 'image/jpeg' || type === 'image/jpg') && jpeg) return 'image/jpeg';
  throw new ApiError(
    'API_FORMAT_UNSUPPORTED',
    'send the cover as an image/jpeg or image/png body (the bytes must be that image)',
  );
}

/**
 * Tags and cover pictures written into the files themselves (see library/tag-writer.ts), so
 * the library stays right if the station is rebuilt from the folder. Each change answers once
 * the scheduler's index shows the new file.
 */
export class LibraryTagsService {
  readonly #files: TrackFiles;
  readonly #audit: AuditRepository;
  readonly #log: Logger;

  constructor(files: TrackFiles, audit: AuditRepository, logger: Logger) {
    this.#files = files;
    this.#audit = audit;
    this.#log = logger;
  }

  async edit(id: number, edit: TagEdit, user: Actor): Promise<TrackDto> {
    const changes = changesOf(edit);
    const row = await this.#write(id, changes, user);
    return toTrackDto(await this.#settled(row));
  }

  /** Every file first, then the waits for the index, which then overlap. */
  async editMany(
    ids: readonly number[],
    edit: TagEdit,
    user: Actor,
  ): Promise<{ updated: TrackDto[]; failed: BulkFailure[] }> {
    const changes = changesOf(edit);
    const written: Track[] = [];
    const failed: BulkFailure[] = [];
    for (const id of new Set(ids)) {
      try {
        written.push(await this.#write(id, changes, user));
      } catch (error) {
        if (!(error instanceof ApiError))
          this.#log.error({ err: error, trackId: id }, 'tag edit failed');
        failed.push(failureOf(id, error));
      }
    }
    const updated: TrackDto[] = [];
    for (const row of written) updated.push(toTrackDto(await this.#settled(row)));
    return { updated, failed };
  }

  async setCover(
    id: number,
    data: Buffer,
    contentType: string | undefined,
    user: Actor,
  ): Promise<TrackDto> {
    // An unknown track is a 404 whatever the body is.
    await this.#files.row(id);
    if (data.length === 0) throw new ApiError('API_VALIDATION', 'send the picture as the body');
    const type = coverTypeOf(data, contentType);
    return this.#cover(id, { data, type }, user);
  }

  removeCover(id: number, user: Actor): Promise<TrackDto> {
    return this.#cover(id, null, user);
  }

  async #cover(
    id: number,
    image: { data: Buffer; type: CoverType } | null,
    user: Actor,
  ): Promise<TrackDto> {
    const row = await this.#files.exclusive(id, async () => {
      const row = await this.#files.row(id);
      const file = await this.#files.file(row);
      await writeCover(file, image, { ffmpegPath: this.#files.ffmpegPath, logger: this.#log });
      await this.#audit.record({
        user,
        action: 'track.cover',
        target: row.path,
        details: {
          trackId: id,
          old: { hasCover: Number(row.has_cover) === 1 },
          new: image ? { type: image.type, bytes: image.data.length } : { hasCover: false },
        },
      });
      return row;
    });
    return toTrackDto(await this.#settled(row));
  }

  /** Writes the tags of one track's file and logs it; the row as it was before. */
  #write(id: number, changes: TagChanges, user: Actor): Promise<Track> {
    return this.#files.exclusive(id, async () => {
      const row = await this.#files.row(id);
      const file = await this.#files.file(row);
      const old = await currentTags(file, Object.keys(changes));
      await writeTags(file, changes, { ffmpegPath: this.#files.ffmpegPath, logger: this.#log });
      await this.#audit.record({
        user,
        action: 'track.tags',
        target: row.path,
        details: { trackId: id, old, new: changes },
      });
      this.#log.info({ trackId: id, path: row.path, changes }, 'tags written');
      return row;
    });
  }

  #settled(row: Track): Promise<Track> {
    return this.#files.settled(row.id, 'tags', (now) => this.#files.matchesDisk(now));
  }
}
