import {
  PROGRAMMING_FIELDS,
  type ProgrammingPatch,
  type ProgrammingValues,
} from '../dtos/playlists.dto.ts';
import { ApiError } from '../errors.ts';
import type { PlaylistRow } from '../repositories/playlists.repository.ts';

/** The kinds that take an interval, and its range. */
const INTERVALS: Partial<Record<ProgrammingValues['kind'], [number, number, string]>> = {
  every_n_songs: [1, 100, 'songs between its tracks'],
  every_n_minutes: [1, 1440, 'minutes between its tracks'],
  hourly_at: [0, 59, 'the minute of the hour'],
};

/** A new playlist's programming: personal, shuffled rotation. */
export const DEFAULT_PROGRAMMING: ProgrammingValues = {
  onAir: false,
  kind: 'rotation',
  order: 'shuffle',
  weight: 1,
  jingle: false,
  interval: null,
  playAt: null,
  startMode: 'after_track',
};

export function programmingOf(row: PlaylistRow): ProgrammingValues {
  return {
    onAir: row.on_air !== 0,
    kind: row.kind,
    order: row.play_order,
    weight: row.weight,
    jingle: row.jingle !== 0,
    interval: row.interval,
    playAt: row.play_at,
    startMode: row.start_mode,
  };
}

/** The programming fields a body gives, or null when it gives none. */
export function programmingPatchOf(body: ProgrammingPatch): ProgrammingPatch | null {
  const given = PROGRAMMING_FIELDS.filter((field) => body[field] !== undefined);
  if (given.length === 0) return null;
  return Object.fromEntries(given.map((field) => [field, body[field]])) as ProgrammingPatch;
}

function invalid(message: string): ApiError {
  return new ApiError('API_VALIDATION', message);
}

/**
 * The playlist's programming after the patch, checked as a whole: an interval in its kind's
 * range where the kind takes one (none elsewhere), and a time for `once_at` (none elsewhere).
 * A field the new kind does not use is cleared when the patch does not give it.
 */
export function resolveProgramming(
  current: ProgrammingValues,
  patch: ProgrammingPatch,
): ProgrammingValues {
  const next: ProgrammingValues = { ...current, ...patch };
  const range = INTERVALS[next.kind];
  if (range) {
    const [min, max, what] = range;
    if (next.interval === null || next.interval < min || next.interval > max) {
      throw invalid(`body.interval: a ${next.kind} playlist needs ${what}, ${min}-${max}`);
    }
  } else if (patch.interval !== undefined && patch.interval !== null) {
    throw invalid(
      'body.interval: only every_n_songs, every_n_minutes and hourly_at playlists take one',
    );
  } else {
    next.interval = null;
  }
  if (next.kind === 'once_at') {
    if (next.playAt === null) throw invalid('body.playAt: a once_at playlist needs the time');
    next.playAt = new Date(next.playAt).toISOString();
  } else if (patch.playAt !== undefined && patch.playAt !== null) {
    throw invalid('body.playAt: only once_at playlists take a time');
  } else {
    next.playAt = null;
  }
  return next;
}
