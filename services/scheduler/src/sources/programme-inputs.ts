import type { TimelineEntry, TrackSource } from '@radio/core';
import type { LibraryTrack } from '../library/library-track.ts';
import { type PlanSettings, slotMs } from '../playout/deck.ts';
import type { PlanFrom, PlannedEntry } from '../programming/planner-api.ts';
import type { PlanPlaylist, PlanQueued, PlanRequest, PlanTrack } from '../programming/types.ts';
import type {
  ProgrammePlaylistRow,
  ProgrammeRequestRow,
} from '../repositories/programme-repository.ts';
import type { ProgrammeMark, QueueEntry } from './queue-entry.ts';

/** A library track as the planner sees it, timed by the same plan the player plays it by. */
export function toPlanTrack(track: LibraryTrack, settings: PlanSettings): PlanTrack {
  return {
    id: track.id,
    title: track.title,
    artist: track.artist,
    album: track.album,
    duration: track.duration,
    slotMs: slotMs(track, settings),
  };
}

/** An on-air playlist with only its playable tracks. */
export function toPlanPlaylist(
  row: ProgrammePlaylistRow,
  playable: ReadonlyMap<number, unknown>,
): PlanPlaylist {
  return {
    id: row.id,
    name: row.name,
    kind: row.kind,
    order: row.order,
    weight: row.weight,
    jingle: row.jingle,
    interval: row.interval,
    playAt: row.playAt,
    startMode: row.startMode,
    trackIds: row.trackIds.filter((id) => playable.has(id)),
  };
}

export function toPlanRequest(row: ProgrammeRequestRow): PlanRequest {
  return { id: row.id, userName: row.userName, trackId: row.trackId, notBefore: row.notBefore };
}

/** A hand-queued entry (it plays first, as queued). */
export function toPlanQueued(entry: QueueEntry): PlanQueued {
  const kind = entry.kind === 'rotation' ? 'playlist' : entry.kind;
  return { requestId: entry.requestId, trackId: entry.track.id, kind };
}

/** Where a planned entry plays from, in play-history terms. */
export function historySource(entry: PlannedEntry): TrackSource {
  switch (entry.source) {
    case 'request':
      return 'request';
    case 'rotation':
      return entry.playlistId === null ? 'rotation' : 'playlist';
    default:
      return 'playlist';
  }
}

export function toMark(entry: PlannedEntry): ProgrammeMark {
  return {
    source: entry.source,
    playlistId: entry.playlistId,
    jingle: entry.jingle,
    songRequestId: entry.songRequestId,
    interruptAt: entry.interrupts ? entry.at : null,
  };
}

/** What a timeline entry needs beyond the planned one: names by id, and queue ids. */
export interface TimelineLookup {
  track(
    id: number,
  ): Pick<LibraryTrack, 'id' | 'title' | 'artist' | 'album' | 'duration'> | undefined;
  playlistName(id: number): string | undefined;
  /** The scheduler's request id of an entry committed to play (null further ahead). */
  requestId(entry: PlannedEntry, index: number): string | null;
}

/** A planned entry as the bus carries it. */
export function toTimelineEntry(
  entry: PlannedEntry,
  index: number,
  lookup: TimelineLookup,
): TimelineEntry {
  const track = entry.trackId === null ? undefined : lookup.track(entry.trackId);
  const playlistName =
    entry.playlistId === null ? undefined : lookup.playlistName(entry.playlistId);
  return {
    at: Math.round(entry.at),
    end: Math.round(Math.max(entry.end, entry.at)),
    source: entry.source,
    track: track
      ? {
          id: track.id,
          title: track.title,
          artist: track.artist,
          album: track.album,
          duration: track.duration,
        }
      : null,
    playlist:
      entry.playlistId !== null && playlistName !== undefined
        ? { id: entry.playlistId, name: playlistName }
        : null,
    dj: entry.dj,
    scheduleId: entry.scheduleId,
    songRequestId: entry.songRequestId,
    requestId: lookup.requestId(entry, index),
    interrupts: entry.interrupts,
    jingle: entry.jingle,
    reason: entry.reason,
  };
}

/** A track that went on air without being planned (queued and played at once). */
export function unplannedEntry(
  entry: QueueEntry,
  startedAt: number,
  track: PlanTrack | undefined,
): PlannedEntry {
  return {
    at: startedAt,
    end: startedAt + (track?.slotMs.crossfaded ?? 0),
    source: 'queue',
    trackId: entry.track.id,
    playlistId: null,
    scheduleId: null,
    songRequestId: null,
    requestId: entry.requestId,
    dj: null,
    interrupts: false,
    jingle: false,
    reason: 'queued by hand',
    step: { order: null, weighted: null, rule: null },
  };
}

/** Where the plan has a pending request now (epoch ms, to the second), or null: not in it. */
export interface RequestPlanned {
  readonly id: number;
  readonly plannedAt: number | null;
}

/** The pending requests with where the plan has them (to the second), and those that moved. */
export function plannedRequests(
  requests: readonly ProgrammeRequestRow[],
  entries: readonly PlannedEntry[],
): { requests: ProgrammeRequestRow[]; changes: RequestPlanned[] } {
  const at = new Map<number, number>();
  for (const entry of entries) {
    if (entry.songRequestId !== null && !at.has(entry.songRequestId)) {
      at.set(entry.songRequestId, Math.round(entry.at / 1000) * 1000);
    }
  }
  const changes: RequestPlanned[] = [];
  const updated = requests.map((request) => {
    const plannedAt = at.get(request.id) ?? null;
    if (plannedAt === request.plannedAt) return request;
    changes.push({ id: request.id, plannedAt });
    return { ...request, plannedAt };
  });
  return { requests: updated, changes };
}

type Anchor = NonNullable<PlanFrom['onAir']>;

/**
 * Where a plan goes on from: the track heard now, or the last entry committed to play and not
 * heard yet. One decoded ahead starts when the track heard now hands over to it; one taken,
 * at its planned time.
 */
export function anchorAfter(
  heard: (Anchor & { slotMs: PlanTrack['slotMs'] }) | null,
  committed: readonly { readonly entry: PlannedEntry; readonly taken: boolean }[],
  tracks: ReadonlyMap<number, PlanTrack>,
): PlanFrom['onAir'] {
  const last = committed.at(-1);
  if (!last) return heard;
  const { entry } = last;
  const track = entry.trackId === null ? undefined : tracks.get(entry.trackId);
  let startedAt = entry.at;
  if (heard && !entry.interrupts && !committed.some((c) => c.taken)) {
    const joined = heard.jingle || entry.jingle;
    startedAt = heard.startedAt + (joined ? heard.slotMs.joined : heard.slotMs.crossfaded);
  }
  const from = {
    trackId: entry.trackId,
    startedAt,
    jingle: entry.jingle,
    interruptAt: entry.interrupts ? entry.at : null,
  };
  return track ? { ...from, slotMs: track.slotMs } : from;
}
