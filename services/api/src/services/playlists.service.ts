import type { PlaylistPlayResult } from '@radio/core';
import type { SchedulerClient } from '../clients/scheduler-client.ts';
import type { Page } from '../dtos/common.dto.ts';
import { toTrackDto } from '../dtos/mappers.ts';
import {
  type AddTracksBody,
  type CreatePlaylistBody,
  MAX_PLAYLIST_ITEMS,
  type PlaylistDetailDto,
  type PlaylistDto,
  type PlaylistListQuery,
  type PlayPlaylistBody,
  type ReorderBody,
  type UpdatePlaylistBody,
} from '../dtos/playlists.dto.ts';
import type { AuthUser } from '../dtos/users.dto.ts';
import { ApiError } from '../errors.ts';
import type { PlaylistRow, PlaylistsRepository } from '../repositories/playlists.repository.ts';
import type { TracksRepository } from '../repositories/tracks.repository.ts';

function toPlaylistDto(row: PlaylistRow): PlaylistDto {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    isPublic: row.is_public !== 0,
    owner: { id: row.owner_id, username: row.owner_username },
    itemCount: row.item_count,
    duration: row.duration,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/**
 * Playlists. Anyone logged in sees their own and the public ones; only the owner or an admin
 * changes one. A private playlist of someone else answers 404, not 403, so its existence
 * does not leak.
 */
export class PlaylistsService {
  readonly #playlists: PlaylistsRepository;
  readonly #tracks: TracksRepository;
  readonly #scheduler: SchedulerClient;

  constructor(
    playlists: PlaylistsRepository,
    tracks: TracksRepository,
    scheduler: SchedulerClient,
  ) {
    this.#playlists = playlists;
    this.#tracks = tracks;
    this.#scheduler = scheduler;
  }

  async list(user: AuthUser, query: PlaylistListQuery): Promise<Page<PlaylistDto>> {
    const { rows, total } = await this.#playlists.list({
      viewerId: user.id,
      scope: query.scope,
      q: query.q,
      offset: (query.page - 1) * query.limit,
      limit: query.limit,
    });
    return { items: rows.map(toPlaylistDto), total, page: query.page, limit: query.limit };
  }

  async create(user: AuthUser, body: CreatePlaylistBody): Promise<PlaylistDetailDto> {
    const id = await this.#playlists.create({
      ownerId: user.id,
      name: body.name,
      description: body.description ?? null,
      isPublic: body.isPublic,
    });
    return this.#detail(id);
  }

  async get(user: AuthUser, id: number): Promise<PlaylistDetailDto> {
    await this.#visible(user, id);
    return this.#detail(id);
  }

  async update(user: AuthUser, id: number, body: UpdatePlaylistBody): Promise<PlaylistDetailDto> {
    await this.#editable(user, id);
    await this.#playlists.update(id, body);
    return this.#detail(id);
  }

  async delete(user: AuthUser, id: number): Promise<void> {
    await this.#editable(user, id);
    await this.#playlists.delete(id);
  }

  async addTracks(user: AuthUser, id: number, body: AddTracksBody): Promise<PlaylistDetailDto> {
    await this.#editable(user, id);
    const trackIds = body.trackIds ?? (body.trackId === undefined ? [] : [body.trackId]);
    const existing = await this.#tracks.existingIds(trackIds);
    const missing = trackIds.filter((trackId) => !existing.has(trackId));
    if (missing.length > 0) {
      throw new ApiError(
        'API_TRACK_NOT_FOUND',
        `no such track: ${[...new Set(missing)].slice(0, 10).join(', ')}`,
      );
    }
    const added = await this.#playlists.addItems(id, trackIds, body.position, MAX_PLAYLIST_ITEMS);
    if (added === null) {
      throw new ApiError('API_CONFLICT', `a playlist holds at most ${MAX_PLAYLIST_ITEMS} items`);
    }
    return this.#detail(id);
  }

  async removeItem(user: AuthUser, id: number, itemId: number): Promise<void> {
    await this.#editable(user, id);
    if (!(await this.#playlists.removeItem(id, itemId)))
      throw new ApiError('API_PLAYLIST_ITEM_NOT_FOUND');
  }

  async reorder(user: AuthUser, id: number, body: ReorderBody): Promise<PlaylistDetailDto> {
    await this.#editable(user, id);
    if (!(await this.#playlists.reorder(id, body.itemIds))) {
      throw new ApiError(
        'API_VALIDATION',
        'body.itemIds: list every item id of the playlist exactly once',
      );
    }
    return this.#detail(id);
  }

  /** Sends a playlist to the scheduler (dj or admin; checked by the route). */
  async play(user: AuthUser, id: number, body: PlayPlaylistBody): Promise<PlaylistPlayResult> {
    const playlist = await this.#visible(user, id);
    if (playlist.item_count === 0) throw new ApiError('API_CONFLICT', 'the playlist is empty');
    return this.#scheduler.request('playlist.play', { playlistId: id, mode: body.mode });
  }

  /** The playlist when the user may see it; 404 otherwise. */
  async #visible(user: AuthUser, id: number): Promise<PlaylistRow> {
    const row = await this.#playlists.findById(id);
    if (!row || (row.owner_id !== user.id && row.is_public === 0 && user.role !== 'admin')) {
      throw new ApiError('API_PLAYLIST_NOT_FOUND');
    }
    return row;
  }

  async #editable(user: AuthUser, id: number): Promise<PlaylistRow> {
    const row = await this.#visible(user, id);
    if (row.owner_id !== user.id && user.role !== 'admin') {
      throw new ApiError('API_FORBIDDEN', 'only the owner of a playlist or an admin can change it');
    }
    return row;
  }

  async #detail(id: number): Promise<PlaylistDetailDto> {
    const [row, items] = await Promise.all([
      this.#playlists.findById(id),
      this.#playlists.items(id),
    ]);
    if (!row) throw new ApiError('API_PLAYLIST_NOT_FOUND');
    return {
      ...toPlaylistDto(row),
      items: items.map(({ item, track }) => ({
        id: item.id,
        position: item.position,
        addedAt: item.added_at,
        track: toTrackDto(track),
      })),
    };
  }
}
