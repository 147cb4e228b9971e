import type {
  SongRequest,
  SongRequestStatus,
  SongRequestUpdate,
  TimelineSource,
} from './api/types.ts';
import { formatHm, wallClock } from './pages/schedule/calendar.ts';

/*
 * Words and times for programming: a listener request's state, the timeline's sources. Pure,
 * so the wording is tested without a browser.
 */

/** `HH:MM` of an instant on the wall clock of `timeZone` (the browser's by default). */
export function clockOf(ms: number, timeZone?: string): string {
  const zone = timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
  return formatHm(wallClock(new Date(ms).toISOString(), zone).minutes);
}

/** A request as the page shows it: the api's answer, overtaken by any newer live event. */
export interface RequestView {
  id: number;
  status: SongRequestStatus;
  plannedAt: number | null;
  playedAt: number | null;
  reason: string | null;
}

const parsed = (iso: string | null): number | null => (iso === null ? null : Date.parse(iso));

export function requestView(request: SongRequest, update?: SongRequestUpdate): RequestView {
  if (update) {
    return {
      id: request.id,
      status: update.status,
      plannedAt: update.plannedAt,
      playedAt: update.playedAt,
      reason: update.reason,
    };
  }
  return {
    id: request.id,
    status: request.status,
    plannedAt: parsed(request.plannedAt),
    playedAt: parsed(request.playedAt),
    reason: request.reason,
  };
}

/** "Pending", "Planned at about 14:05", "Played at 14:06", "Removed: …". */
export function requestStatusText(view: RequestView, timeZone?: string): string {
  switch (view.status) {
    case 'pending':
      return view.plannedAt === null
        ? 'Pending'
        : `Planned at about ${clockOf(view.plannedAt, timeZone)}`;
    case 'played':
      return view.playedAt === null ? 'Played' : `Played at ${clockOf(view.playedAt, timeZone)}`;
    case 'removed':
      return view.reason ? `Removed: ${view.reason}` : 'Removed';
  }
}

export const SOURCE_LABELS: Record<TimelineSource, string> = {
  queue: 'Queue',
  request: 'Request',
  rotation: 'Rotation',
  scheduled: 'Scheduled',
  jingle: 'Jingle',
  live: 'Live',
};

/** "Artist - Title", the title alone, or the DJ's slot. */
export function entryLine(entry: {
  track: { title: string; artist: string | null } | null;
  dj?: { name: string } | null;
}): string {
  if (entry.track) {
    return entry.track.artist ? `${entry.track.artist} - ${entry.track.title}` : entry.track.title;
  }
  return entry.dj ? `Live: ${entry.dj.name}` : 'Live show';
}

export type PlaylistKind =
  | 'rotation'
  | 'every_n_songs'
  | 'every_n_minutes'
  | 'hourly_at'
  | 'once_at';

export const KIND_LABELS: Record<PlaylistKind, string> = {
  rotation: 'Rotation',
  every_n_songs: 'Every N songs',
  every_n_minutes: 'Every N minutes',
  hourly_at: 'Every hour at a minute',
  once_at: 'Once, at a time',
};

/** What `interval` means for a kind, and its range; null for the kinds without one. */
export function intervalField(
  kind: PlaylistKind,
): { label: string; min: number; max: number } | null {
  switch (kind) {
    case 'every_n_songs':
      return { label: 'After every how many songs (1-100)', min: 1, max: 100 };
    case 'every_n_minutes':
      return { label: 'Every how many minutes (1-1440)', min: 1, max: 1440 };
    case 'hourly_at':
      return { label: 'Minute of the hour (0-59)', min: 0, max: 59 };
    default:
      return null;
  }
}

/** A kind and its interval in words: "every 4 songs", "hourly at :00". */
export function describeKind(kind: PlaylistKind, interval: number | null): string {
  switch (kind) {
    case 'every_n_songs':
      return `one track after every ${interval ?? '?'} songs`;
    case 'every_n_minutes':
      return `one track every ${interval ?? '?'} minutes`;
    case 'hourly_at':
      return `one track every hour at :${String(interval ?? 0).padStart(2, '0')}`;
    case 'once_at':
      return 'one track, once, at its time';
    default:
      return 'rotation';
  }
}

/** An instant as a `datetime-local` input shows it (the browser's wall clock), and back. */
export function toLocalInput(iso: string | null): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const local = new Date(date.getTime() - date.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 16);
}

export function fromLocalInput(value: string): string | null {
  if (!value) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

const DAY_NAMES = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

/** "Mon–Fri 06:00–10:00", "Sat, Sun 20:00–02:00", from 1 = Monday day numbers. */
export function describeDays(days: readonly number[]): string {
  const sorted = [...new Set(days)].sort((a, b) => a - b);
  const runs: string[] = [];
  let i = 0;
  while (i < sorted.length) {
    let j = i;
    while (j + 1 < sorted.length && (sorted[j + 1] as number) === (sorted[j] as number) + 1) j += 1;
    const first = DAY_NAMES[(sorted[i] as number) - 1];
    const last = DAY_NAMES[(sorted[j] as number) - 1];
    if (j - i >= 2) runs.push(`${first}–${last}`);
    else for (let k = i; k <= j; k += 1) runs.push(DAY_NAMES[(sorted[k] as number) - 1] as string);
    i = j + 1;
  }
  return sorted.length === 7 ? 'Every day' : runs.join(', ');
}
