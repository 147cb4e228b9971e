import type { PlaylistPlayResult } from '@radio/core';
import { toFlag } from '@radio/db';
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
  type ProgrammingValues,
  type ReorderBody,
  type UpdatePlaylistBody,
} from '../dtos/playlists.dto.ts';
import type { AuthUser } from '../dtos/users.dto.ts';
import { ApiError } from '../errors.ts';
import type { AuditRepository } from '../repositories/audit.repository.ts';
import type {
  PlaylistRow,
  PlaylistsRepository,
  ProgrammingColumns,
} from '../repositories/playlists.repository.ts';
import type { TracksRepository } from '../repositories/tracks.repository.ts';
import {
  DEFAULT_PROGRAMMING,
  programmingOf,
  programmingPatchOf,
  resolveProgramming,
} from './playlist-programming.ts';
import type { ProgrammingChanges } from './programming-changes.ts';

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
    ...programmingOf(row),
  };
}

function columnsOf(values: ProgrammingValues): ProgrammingColumns {
  return {
    on_air: toFlag(values.onAir),
    kind: values.kind,
    play_order: values.order,
    weight: values.weight,
    jingle: toFlag(values.jingle),
    interval: values.interval,
    play_at: values.playAt,
    start_mode: values.startMode,
  };
}

/**
 * Playlists. Anyone logged in sees their own and the public ones; only the owner or an admin
 * changes one. A private playlist of someone else answers 404, not 403, so its existence
 * does not leak. How a playlist takes part in programming (on air, kind, order …) only an admin
 * changes; any change to a playlist on air reaches the scheduler (`schedule.reload`).
 */
export class PlaylistsService {
  readonly #playlists: PlaylistsRepository;
  readonly #tracks: TracksRepository;
  readonly #scheduler: SchedulerClient;
  readonly #changes: ProgrammingChanges;
  readonly #audit: AuditRepository;

  constructor(
    playlists: PlaylistsRepository,
    tracks: TracksRepository,
    scheduler: SchedulerClient,
    changes: ProgrammingChanges,
    audit: AuditRepository,
  ) {
    this.#playlists = playlists;
    this.#tracks = tracks;
    this.#scheduler = scheduler;
    this.#changes = changes;
    this.#audit = audit;
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
    const programming = this.#programming(user, DEFAULT_PROGRAMMING, body);
    const id = await this.#playlists.create({
      ownerId: user.id,
      name: body.name,
      description: body.description ?? null,
      isPublic: body.isPublic,
      programming: programming ? columnsOf(programming) : undefined,
    });
    if (programming) await this.#programmed(user, id, DEFAULT_PROGRAMMING, programming);
    return this.#detail(id);
  }

  async get(user: AuthUser, id: number): Promise<PlaylistDetailDto> {
    await this.#visible(user, id);
    return this.#detail(id);
  }

  async update(user: AuthUser, id: number, body: UpdatePlaylistBody): Promise<PlaylistDetailDto> {
    const row = await this.#editable(user, id);
    const old = programmingOf(row);
    const programming = this.#programming(user, old, body);
    await this.#playlists.update(id, {
      ...body,
      programming: programming ? columnsOf(programming) : undefined,
    });
    if (programming) await this.#programmed(user, id, old, programming);
    else this.#onAirChanged(row);
    return this.#detail(id);
  }

  async delete(user: AuthUser, id: number): Promise<void> {
    const row = await this.#editable(user, id);
    await this.#playlists.delete(id);
    this.#onAirChanged(row);
  }

  async addTracks(user: AuthUser, id: number, body: AddTracksBody): Promise<PlaylistDetailDto> {
    const row = await this.#editable(user, id);
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
    this.#onAirChanged(row);
    return this.#detail(id);
  }

  async removeItem(user: AuthUser, id: number, itemId: number): Promise<void> {
    const row = await this.#editable(user, id);
    if (!(await this.#playlists.removeItem(id, itemId)))
      throw new ApiError('API_PLAYLIST_ITEM_NOT_FOUND');
    this.#onAirChanged(row);
  }

  async reorder(user: AuthUser, id: number, body: ReorderBody): Promise<PlaylistDetailDto> {
    const row = await this.#editable(user, id);
    if (!(await this.#playlists.reorder(id, body.itemIds))) {
      throw new ApiError(
        'API_VALIDATION',
        'body.itemIds: list every item id of the playlist exactly once',
      );
    }
    this.#onAirChanged(row);
    return this.#detail(id);
  }

  /** Sends a playlist to the scheduler (dj or admin; checked by the route). */
  async play(user: AuthUser, id: number, body: PlayPlaylistBody): Promise<PlaylistPlayResult> {
    const playlist = await this.#visible(user, id);
    if (playlist.item_count === 0) throw new ApiError('API_CONFLICT', 'the playlist is empty');
    return this.#scheduler.request('playlist.play', { playlistId: id, mode: body.mode });
  }

  /** The programming the body asks for (admins only), checked; null when it gives none. */
  #programming(
    user: AuthUser,
    current: ProgrammingValues,
    body: CreatePlaylistBody | UpdatePlaylistBody,
  ): ProgrammingValues | null {
    const patch = programmingPatchOf(body);
    if (patch === null) return null;
    if (user.role !== 'admin') {
      throw new ApiError(
        'API_FORBIDDEN',
        `only an admin can change how a playlist is programmed (${Object.keys(patch).join(', ')})`,
      );
    }
    return resolveProgramming(current, patch);
  }

  async #programmed(
    user: AuthUser,
    id: number,
    old: ProgrammingValues,
    next: ProgrammingValues,
  ): Promise<void> {
    await this.#audit.record({
      user: { id: user.id, username: user.username },
      action: 'playlist.programming',
      target: `playlist ${id}`,
      details: { playlistId: id, old, new: next },
    });
    if (old.onAir || next.onAir) this.#changes.reload('playlist');
  }

  /** A playlist on air changed (its name, items, or it is gone): the plan may change. */
  #onAirChanged(row: PlaylistRow): void {
    if (row.on_air !== 0) this.#changes.reload('playlist');
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
