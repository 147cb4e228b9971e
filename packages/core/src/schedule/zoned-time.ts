/*
 * Wall time in an IANA zone through Intl alone. A zone's offset only changes at transitions, so
 * offsets are memoised by the minute (transitions fall on whole minutes) and a formatter is
 * kept per zone: the planner asks for thousands of offsets per plan.
 *
 * Daylight saving: a wall time that does not exist (Europe/Berlin, 29 March 2026, 02:00-03:00)
 * maps to the first instant after the gap (03:00 CEST), so a span that starts in the missing
 * hour starts at 03:00. A wall time that happens twice (25 October 2026, 02:00-03:00) maps to
 * its first occurrence (CEST).
 */

const MINUTE = 60_000;
const DAY = 86_400_000;
const MEMO_LIMIT = 50_000;

/** A calendar date and a wall time, as numbers (month 1-12). */
export interface LocalDateTime {
  readonly year: number;
  readonly month: number;
  readonly day: number;
  readonly hour: number;
  readonly minute: number;
}

/** A calendar date (no zone): days since 1970-01-01 make the arithmetic exact. */
export interface CivilDate {
  readonly year: number;
  readonly month: number;
  readonly day: number;
}

interface ZoneMemo {
  readonly format: Intl.DateTimeFormat;
  readonly offsets: Map<number, number>;
}

const zones = new Map<string, ZoneMemo>();

function zone(timeZone: string): ZoneMemo {
  let memo = zones.get(timeZone);
  if (!memo) {
    // Throws a RangeError naming the zone when it is not a valid IANA name.
    const format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    memo = { format, offsets: new Map() };
    zones.set(timeZone, memo);
  }
  return memo;
}

/** True when Intl knows the zone. */
export function isValidTimeZone(timeZone: string): boolean {
  try {
    zone(timeZone);
    return true;
  } catch {
    return false;
  }
}

/** The zone's offset from UTC at instant `ms`, in ms (Berlin in summer: +7,200,000). */
export function zoneOffset(ms: number, timeZone: string): number {
  const memo = zone(timeZone);
  const key = Math.floor(ms / MINUTE);
  const known = memo.offsets.get(key);
  if (known !== undefined) return known;
  const at = key * MINUTE;
  const parts: Record<string, number> = {};
  for (const part of memo.format.formatToParts(new Date(at))) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  const wall = Date.UTC(
    parts.year ?? 1970,
    (parts.month ?? 1) - 1,
    parts.day ?? 1,
    parts.hour ?? 0,
    parts.minute ?? 0,
    parts.second ?? 0,
  );
  const offset = wall - at;
  if (memo.offsets.size >= MEMO_LIMIT) memo.offsets.clear();
  memo.offsets.set(key, offset);
  return offset;
}

/** The wall date and time at instant `ms` in the zone. */
export function toLocal(ms: number, timeZone: string): LocalDateTime {
  const wall = new Date(ms + zoneOffset(ms, timeZone));
  return {
    year: wall.getUTCFullYear(),
    month: wall.getUTCMonth() + 1,
    day: wall.getUTCDate(),
    hour: wall.getUTCHours(),
    minute: wall.getUTCMinutes(),
  };
}

/**
 * The instant of a wall time in the zone. In a gap: the first instant after it; twice: the
 * first occurrence (see the file comment).
 */
export function fromLocal(local: LocalDateTime, timeZone: string): number {
  const wall = Date.UTC(local.year, local.month - 1, local.day, local.hour, local.minute);
  // The offsets a day either side bracket any transition near this wall time.
  const before = zoneOffset(wall - DAY, timeZone);
  const after = zoneOffset(wall + DAY, timeZone);
  const early = wall - Math.max(before, after);
  const late = wall - Math.min(before, after);
  if (zoneOffset(early, timeZone) === wall - early) return early;
  if (zoneOffset(late, timeZone) === wall - late) return late;
  return transitionBetween(early, late, timeZone);
}

/** The first minute at or after `low` whose offset differs from the offset at `low`. */
function transitionBetween(low: number, high: number, timeZone: string): number {
  const start = zoneOffset(low, timeZone);
  let lo = Math.floor(low / MINUTE);
  let hi = Math.ceil(high / MINUTE);
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (zoneOffset(mid * MINUTE, timeZone) === start) lo = mid;
    else hi = mid;
  }
  return hi * MINUTE;
}

/** Days since 1970-01-01 of a calendar date. */
export function dayNumber(date: CivilDate): number {
  return Math.floor(Date.UTC(date.year, date.month - 1, date.day) / DAY);
}

/** The calendar date of a day number. */
export function civilDate(days: number): CivilDate {
  const date = new Date(days * DAY);
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
}

/** ISO weekday of a day number: 1 Monday … 7 Sunday (1970-01-01 was a Thursday). */
export function weekdayOfDay(days: number): number {
  return ((((days + 3) % 7) + 7) % 7) + 1;
}

/** ISO weekday (1 Monday … 7 Sunday) of instant `ms` in the zone. */
export function weekdayAt(ms: number, timeZone: string): number {
  return weekdayOfDay(Math.floor((ms + zoneOffset(ms, timeZone)) / DAY));
}

/** The local day number (days since 1970-01-01 of the wall date) of instant `ms`. */
export function localDayNumber(ms: number, timeZone: string): number {
  return Math.floor((ms + zoneOffset(ms, timeZone)) / DAY);
}

/** Parses 'YYYY-MM-DD' to a day number; null when malformed. */
export function parseDate(text: string): number | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return null;
  const date = { year: Number(match[1]), month: Number(match[2]), day: Number(match[3]) };
  const days = dayNumber(date);
  const back = civilDate(days);
  return back.month === date.month && back.day === date.day ? days : null;
}

/** Parses 'HH:MM' (00:00-23:59) to minutes since midnight; null when malformed. */
export function parseTime(text: string): number | null {
  const match = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(text);
  return match ? Number(match[1]) * 60 + Number(match[2]) : null;
}
