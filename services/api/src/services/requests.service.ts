import type { SongRequestUpdate } from '@radio/core';
import {
  type CreateRequestBody,
  DEFAULT_REQUEST_SETTINGS,
  type RequestDto,
  type RequestListQuery,
  type RequestSettings,
  requestSettingsSchema,
  type UpdateRequestSettingsBody,
} from '../dtos/requests.dto.ts';
import type { AuthUser } from '../dtos/users.dto.ts';
import { ApiError } from '../errors.ts';
import type { AuditRepository } from '../repositories/audit.repository.ts';
import type { RequestRow, RequestsRepository } from '../repositories/requests.repository.ts';
import type { TracksRepository } from '../repositories/tracks.repository.ts';
import type { ProgrammingChanges } from './programming-changes.ts';
import { checkRequest } from './request-rules.ts';

const MINE_LIMIT = 50;
const LIST_LIMIT = 200;

export interface RequestsServiceDeps {
  requests: RequestsRepository;
  tracks: TracksRepository;
  audit: AuditRepository;
  changes: ProgrammingChanges;
  artistSeparationMinutes: number;
  trackSeparationMinutes: number;
  timeZone: string;
  /** The clock; Date.now unless a test sets it. */
  now?: () => number;
}

function toRequestDto(row: RequestRow): RequestDto {
  return {
    id: row.id,
    track: {
      id: row.track_id,
      title: row.title,
      artist: row.artist,
      album: row.album,
      duration: row.duration,
    },
    user: { id: row.user_id, name: row.username },
    status: row.status,
    requestedAt: row.requested_at,
    notBefore: row.not_before,
    plannedAt: row.planned_at,
    playedAt: row.played_at,
    reason: row.reason,
  };
}

function toUpdate(row: RequestRow): SongRequestUpdate {
  const ms = (value: string | null) => (value === null ? null : Date.parse(value));
  return {
    id: row.id,
    userId: row.user_id,
    trackId: row.track_id,
    status: row.status,
    plannedAt: ms(row.planned_at),
    playedAt: ms(row.played_at),
    reason: row.reason,
  };
}

/**
 * Listener requests: the rules a new one must pass (request-rules.ts), the lists, withdrawing
 * and removing, and the station's request settings. Every change reaches the scheduler
 * (`schedule.reload`) and the requester (`requests.updated`).
 */
export class RequestsService {
  readonly #deps: RequestsServiceDeps;
  readonly #now: () => number;

  constructor(deps: RequestsServiceDeps) {
    this.#deps = deps;
    this.#now = deps.now ?? Date.now;
  }

  async create(user: AuthUser, body: CreateRequestBody): Promise<RequestDto> {
    const { requests, tracks, changes } = this.#deps;
    const settings = await this.settings();
    if (!settings.enabled) {
      throw new ApiError('REQUESTS_DISABLED', 'requests are turned off on this station');
    }
    const track = await tracks.findById(body.trackId);
    if (!track) throw new ApiError('API_TRACK_NOT_FOUND');
    if (track.status !== 'ok') {
      throw new ApiError('API_CONFLICT', `this track cannot be played: it is ${track.status}`);
    }
    const now = this.#now();
    const notBefore = await checkRequest(user.id, track, {
      requests,
      settings,
      artistSeparationMinutes: this.#deps.artistSeparationMinutes,
      trackSeparationMinutes: this.#deps.trackSeparationMinutes,
      timeZone: this.#deps.timeZone,
      now,
    });
    const id = await requests.create({
      userId: user.id,
      trackId: track.id,
      requestedAt: new Date(now).toISOString(),
      notBefore: new Date(notBefore).toISOString(),
    });
    const row = await this.#row(id);
    await changes.requestsUpdated([toUpdate(row)]);
    changes.reload('request');
    return toRequestDto(row);
  }

  async mine(user: AuthUser): Promise<{ requests: RequestDto[] }> {
    const rows = await this.#deps.requests.listForUser(user.id, MINE_LIMIT);
    return { requests: rows.map(toRequestDto) };
  }

  async list(query: RequestListQuery): Promise<{ requests: RequestDto[] }> {
    const rows = await this.#deps.requests.list(query.status, LIST_LIMIT);
    return { requests: rows.map(toRequestDto) };
  }

  /** An admin removes any pending request; its owner withdraws their own. */
  async remove(user: AuthUser, id: number): Promise<void> {
    const { requests, changes, audit } = this.#deps;
    const row = await requests.findById(id);
    // Someone else's request answers 404 to a listener: whether it exists is not theirs to know.
    if (!row || (row.user_id !== user.id && user.role !== 'admin')) {
      throw new ApiError('API_REQUEST_NOT_FOUND');
    }
    const byOwner = row.user_id === user.id;
    const reason = byOwner ? 'withdrawn by the listener' : 'removed by an admin';
    if (row.status !== 'pending' || !(await requests.remove(id, reason))) {
      throw new ApiError(
        'API_CONFLICT',
        `only a pending request can be removed; this one is ${row.status === 'pending' ? 'played or removed' : row.status}`,
      );
    }
    if (!byOwner) {
      await audit.record({
        user: { id: user.id, username: user.username },
        action: 'request.remove',
        target: `request ${id}`,
        details: { requestId: id, trackId: row.track_id, requester: row.username },
      });
    }
    await changes.requestsUpdated([toUpdate(await this.#row(id))]);
    changes.reload('request');
  }

  /**
   * A track went to the trash: its pending requests will never play, so they are removed with
   * the reason their listeners see (and the plan drops them). Returns how many.
   */
  async trackDeleted(trackId: number): Promise<number> {
    const { requests, changes } = this.#deps;
    const removed: number[] = [];
    for (const id of await requests.pendingIdsForTrack(trackId)) {
      if (await requests.remove(id, 'the track was deleted from the library')) removed.push(id);
    }
    if (removed.length === 0) return 0;
    await changes.requestsUpdated(
      await Promise.all(removed.map(async (id) => toUpdate(await this.#row(id)))),
    );
    changes.reload('request');
    return removed.length;
  }

  /** The stored settings over the defaults; a value stored by an older version is replaced. */
  async settings(): Promise<RequestSettings> {
    const stored = await this.#deps.requests.settings();
    const merged = { ...DEFAULT_REQUEST_SETTINGS, ...(stored as Partial<RequestSettings>) };
    const parsed = requestSettingsSchema.safeParse(merged);
    return parsed.success ? parsed.data : DEFAULT_REQUEST_SETTINGS;
  }

  async updateSettings(user: AuthUser, body: UpdateRequestSettingsBody): Promise<RequestSettings> {
    const old = await this.settings();
    const changed = Object.fromEntries(
      Object.entries(body).filter(([, value]) => value !== undefined),
    ) as Partial<RequestSettings>;
    const next: RequestSettings = { ...old, ...changed };
    await this.#deps.requests.saveSettings(next);
    await this.#deps.audit.record({
      user: { id: user.id, username: user.username },
      action: 'requests.settings',
      target: null,
      details: { old, new: next },
    });
    this.#deps.changes.reload('request-settings');
    return next;
  }

  async #row(id: number): Promise<RequestRow> {
    const row = await this.#deps.requests.findById(id);
    if (!row) throw new ApiError('API_REQUEST_NOT_FOUND');
    return row;
  }
}
