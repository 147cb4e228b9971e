import type { AmplifyResult, PlayerStatus, QueuePushResult, QueueSnapshot } from '@radio/core';
import type { SchedulerClient } from '../clients/scheduler-client.ts';
import type { Page } from '../dtos/common.dto.ts';
import { toHistoryDto } from '../dtos/mappers.ts';
import type {
  HistoryEntryDto,
  HistoryQuery,
  PlayBody,
  PlayerDto,
  QueueBody,
} from '../dtos/player.dto.ts';
import type { AuthUser } from '../dtos/users.dto.ts';
import { ApiError } from '../errors.ts';
import type { HistoryRepository } from '../repositories/history.repository.ts';
import type { PlaylistsRepository } from '../repositories/playlists.repository.ts';
import type { TracksRepository } from '../repositories/tracks.repository.ts';

/**
 * Player control: every call is a command to the scheduler over the bus and answers with the
 * scheduler's own result. Ids are checked here first, so a typo is a clear 404 rather than
 * whatever the scheduler makes of it.
 */
export class PlayerService {
  readonly #scheduler: SchedulerClient;
  readonly #tracks: TracksRepository;
  readonly #playlists: PlaylistsRepository;
  readonly #history: HistoryRepository;

  constructor(
    scheduler: SchedulerClient,
    tracks: TracksRepository,
    playlists: PlaylistsRepository,
    history: HistoryRepository,
  ) {
    this.#scheduler = scheduler;
    this.#tracks = tracks;
    this.#playlists = playlists;
    this.#history = history;
  }

  async get(): Promise<PlayerDto> {
    const [status, queue] = await Promise.all([
      this.#scheduler.request('player.status', {}),
      this.#scheduler.request('queue.list', {}),
    ]);
    return { ...status, queue: queue.items };
  }

  async play(user: AuthUser, body: PlayBody): Promise<PlayerStatus> {
    if (body.trackId !== undefined) await this.#requireTrack(body.trackId);
    if (body.playlistId !== undefined) {
      const playlist = await this.#playlists.findById(body.playlistId);
      if (
        !playlist ||
        (playlist.owner_id !== user.id && playlist.is_public === 0 && user.role !== 'admin')
      ) {
        throw new ApiError('API_PLAYLIST_NOT_FOUND');
      }
    }
    const payload = {
      ...(body.trackId !== undefined && { trackId: body.trackId }),
      ...(body.playlistId !== undefined && { playlistId: body.playlistId }),
    };
    return this.#scheduler.request('player.play', payload);
  }

  pause(): Promise<PlayerStatus> {
    return this.#scheduler.request('player.pause', {});
  }

  resume(): Promise<PlayerStatus> {
    return this.#scheduler.request('player.resume', {});
  }

  stop(): Promise<PlayerStatus> {
    return this.#scheduler.request('player.stop', {});
  }

  skip(): Promise<PlayerStatus> {
    return this.#scheduler.request('player.skip', {});
  }

  async enqueue(body: QueueBody): Promise<QueuePushResult> {
    if (body.trackId !== undefined) {
      await this.#requireTrack(body.trackId);
      return this.#scheduler.request('queue.push', { trackId: body.trackId });
    }
    return this.#scheduler.request('queue.push', { uri: body.uri as string });
  }

  queue(): Promise<QueueSnapshot> {
    return this.#scheduler.request('queue.list', {});
  }

  setAmplify(value: number): Promise<AmplifyResult> {
    return this.#scheduler.request('amplify.set', { value });
  }

  async history(query: HistoryQuery): Promise<Page<HistoryEntryDto>> {
    const { rows, total } = await this.#history.list((query.page - 1) * query.limit, query.limit);
    return { items: rows.map(toHistoryDto), total, page: query.page, limit: query.limit };
  }

  async #requireTrack(id: number): Promise<void> {
    const track = await this.#tracks.findById(id);
    if (!track) throw new ApiError('API_TRACK_NOT_FOUND');
    if (track.status !== 'ok') {
      throw new ApiError('API_CONFLICT', `this track cannot be played: it is ${track.status}`);
    }
  }
}
