import type { PlayHistoryEntry, Track, User } from '@radio/db';
import { fromFlag, trackAnalysis, trackTags } from '@radio/db';
import type { HistoryEntryDto } from './player.dto.ts';
import type { TrackDto } from './tracks.dto.ts';
import type { UserDto } from './users.dto.ts';

/* Rows to the shapes the api answers with (camelCase, booleans, no secrets). */

export function toUserDto(row: User): UserDto {
  return {
    id: row.id,
    username: row.username,
    role: row.role,
    disabled: fromFlag(row.disabled),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    lastLoginAt: row.last_login_at,
  };
}

export function coverUrl(trackId: number): string {
  return `/api/radio/tracks/${trackId}/cover`;
}

export function toTrackDto(row: Track): TrackDto {
  const hasCover = fromFlag(row.has_cover);
  return {
    ...trackTags(row),
    bitrate: row.bitrate,
    sampleRate: row.sample_rate,
    channels: row.channels,
    hasCover,
    coverUrl: hasCover ? coverUrl(row.id) : null,
    size: Number(row.size),
    status: row.status,
    error: row.error,
    addedAt: row.added_at,
    updatedAt: row.updated_at,
    analysis: trackAnalysis(row),
  };
}

export function toHistoryDto(row: PlayHistoryEntry): HistoryEntryDto {
  return {
    id: row.id,
    trackId: row.track_id,
    title: row.title,
    artist: row.artist,
    startedAt: row.started_at,
    endedAt: row.ended_at,
    source: row.source,
    requestId: row.request_id,
  };
}
