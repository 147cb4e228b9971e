import { isAbsolute, relative, resolve } from 'node:path';
import { parseFile } from 'music-metadata';
import type { Page } from '../dtos/common.dto.ts';
import { toTrackDto } from '../dtos/mappers.ts';
import type {
  AlbumDto,
  AlbumListQuery,
  ArtistDto,
  ArtistListQuery,
  TrackDto,
  TrackListQuery,
} from '../dtos/tracks.dto.ts';
import { ApiError } from '../errors.ts';
import type { TracksRepository } from '../repositories/tracks.repository.ts';
import type { TrackIndex } from '../search/track-index.ts';

export type CoverResult =
  | { notModified: true; etag: string }
  | { notModified: false; etag: string; data: Uint8Array; contentType: string };

export class TracksService {
  readonly #tracks: TracksRepository;
  readonly #index: TrackIndex;
  readonly #musicDir: string;

  constructor(tracks: TracksRepository, index: TrackIndex, musicDir: string) {
    this.#tracks = tracks;
    this.#index = index;
    this.#musicDir = resolve(musicDir);
  }

  async list(query: TrackListQuery): Promise<Page<TrackDto>> {
    return (await this.#index.snapshot()).search(query);
  }

  /** `list` as JSON text: the hot path of GET /tracks (see TrackSnapshot.searchJson). */
  async listJson(query: TrackListQuery): Promise<string> {
    return (await this.#index.snapshot()).searchJson(query);
  }

  async artists(query: ArtistListQuery): Promise<Page<ArtistDto>> {
    return (await this.#index.snapshot()).artists(query);
  }

  async albums(query: AlbumListQuery): Promise<Page<AlbumDto>> {
    return (await this.#index.snapshot()).albums(query);
  }

  /** From the database, not the index: a single row is cheap and always current. */
  async get(id: number): Promise<TrackDto> {
    const row = await this.#tracks.findById(id);
    if (!row) throw new ApiError('API_TRACK_NOT_FOUND');
    return toTrackDto(row);
  }

  /**
   * The embedded picture of a track (the front cover when there are several). The ETag
   * follows the file's size and mtime, so a browser's revalidation costs no file read.
   */
  async cover(id: number, ifNoneMatch: string | undefined): Promise<CoverResult> {
    const row = await this.#tracks.findById(id);
    if (!row) throw new ApiError('API_TRACK_NOT_FOUND');
    const etag = `"cover-${row.id}-${row.mtime}-${row.size}"`;
    if (ifNoneMatch?.split(/\s*,\s*/).includes(etag)) {
      return { notModified: true, etag };
    }
    const file = resolve(this.#musicDir, row.path);
    const inside = relative(this.#musicDir, file);
    // The path comes from the scanner, but a row must never lead outside the music folder.
    if (inside === '' || inside.startsWith('..') || isAbsolute(inside)) {
      throw new ApiError('API_COVER_NOT_FOUND');
    }
    let pictures:
      | Array<{ format: string; data: Uint8Array; type?: string | undefined }>
      | undefined;
    try {
      const metadata = await parseFile(file, {
        duration: false,
        skipCovers: false,
        skipPostHeaders: true,
      });
      pictures = metadata.common.picture;
    } catch {
      throw new ApiError('API_COVER_NOT_FOUND', 'the file of this track cannot be read');
    }
    const picture = pictures?.find((p) => p.type?.toLowerCase().includes('front')) ?? pictures?.[0];
    if (!picture) throw new ApiError('API_COVER_NOT_FOUND');
    const format = picture.format.toLowerCase();
    const named = format.includes('/') ? format : `image/${format}`;
    // Tags say anything; only a plain image type is passed on to the browser.
    const contentType =
      /^image\/[a-z0-9.+-]+$/.test(named) && !named.includes('svg')
        ? named
        : 'application/octet-stream';
    return { notModified: false, etag, data: picture.data, contentType };
  }
}
