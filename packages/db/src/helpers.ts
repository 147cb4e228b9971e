import { type RawBuilder, type SqlBool, sql } from 'kysely';
import type { Flag, Timestamp, Track } from './schema.ts';

/** Now, in the timestamp format every `*_at` column uses (see schema.ts). */
export function nowIso(): Timestamp {
  return new Date().toISOString();
}

export function toFlag(value: boolean): Flag {
  return value ? 1 : 0;
}

export function fromFlag(value: Flag | number): boolean {
  return value !== 0;
}

/** Escapes `%`, `_` and `\` so `text` matches literally inside a LIKE pattern (escape `\`). */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}

/**
 * `column` contains `text`, ignoring case, with the same result on SQLite and PostgreSQL
 * (SQLite's LIKE ignores ASCII case and PostgreSQL's does not, so both sides are lowered).
 * SQLite's lower() folds ASCII letters only. A leading-wildcard LIKE cannot use an index;
 * it scans, which stays fast at library sizes (tens of thousands of rows).
 */
export function containsIgnoreCase(column: string, text: string): RawBuilder<SqlBool> {
  const pattern = `%${escapeLike(text.toLowerCase())}%`;
  return sql<SqlBool>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`;
}

/**
 * The fields of a `tracks` row that every reader shows, in camelCase, the duration a number
 * (PostgreSQL's numeric arrives as a string).
 */
export function trackTags(row: Track) {
  return {
    id: row.id,
    path: row.path,
    title: row.title,
    artist: row.artist,
    album: row.album,
    genre: row.genre,
    year: row.year,
    trackNo: row.track_no,
    duration: row.duration === null ? null : Number(row.duration),
    format: row.format,
  };
}

export type TrackTags = ReturnType<typeof trackTags>;

/** A nullable numeric column as a number (PostgreSQL's double arrives as a number, numeric as text). */
function numberOrNull(value: number | null): number | null {
  return value === null ? null : Number(value);
}

/**
 * The measured columns of a row nothing has been measured for (a new or changed file): the
 * analysis, and the audio hash the upload's duplicate check fills in when it first needs it.
 */
export const ANALYSIS_PENDING = {
  audio_hash: null,
  analysis_status: 'pending',
  loudness: null,
  loudness_range: null,
  true_peak: null,
  cue_in: null,
  cue_out: null,
  fade_point: null,
  analysis_error: null,
  analyzed_at: null,
} as const satisfies Partial<Track>;

/** What the background analysis measured about a `tracks` row, in camelCase. */
export function trackAnalysis(row: Track) {
  return {
    status: row.analysis_status,
    loudness: numberOrNull(row.loudness),
    loudnessRange: numberOrNull(row.loudness_range),
    truePeak: numberOrNull(row.true_peak),
    cueIn: numberOrNull(row.cue_in),
    cueOut: numberOrNull(row.cue_out),
    fadePoint: numberOrNull(row.fade_point),
    replayGain: numberOrNull(row.replay_gain),
    error: row.analysis_error,
    analyzedAt: row.analyzed_at,
  };
}

export type TrackAnalysis = ReturnType<typeof trackAnalysis>;
