import type { ScheduleSpan, ScheduleTiming } from './types.ts';
import {
  civilDate,
  fromLocal,
  localDayNumber,
  parseDate,
  parseTime,
  weekdayOfDay,
} from './zoned-time.ts';

const MINUTES_PER_DAY = 1440;

/** An entry's times as numbers: minutes since midnight, day numbers (null: open). */
export interface EntryWindow {
  readonly start: number;
  /** Minutes after the start day's midnight: above 1440 when the span crosses midnight. */
  readonly end: number;
  readonly firstDay: number | null;
  readonly lastDay: number | null;
}

/**
 * An entry's times as numbers. End before start crosses midnight; end equal to start is a
 * whole day (24 hours of wall time). Throws on malformed times (the api validates first).
 */
export function entryWindow(entry: ScheduleTiming): EntryWindow {
  let window = windows.get(entry);
  if (!window) {
    window = parseWindow(entry);
    windows.set(entry, window);
  }
  return window;
}

// Entries are read-only and expanded again at every plan: parse each one once.
const windows = new WeakMap<ScheduleTiming, EntryWindow>();

function parseWindow(entry: ScheduleTiming): EntryWindow {
  const start = parseTime(entry.startTime);
  const end = parseTime(entry.endTime);
  if (start === null || end === null) {
    throw new RangeError(
      `schedule ${entry.id}: times must be HH:MM (${entry.startTime}-${entry.endTime})`,
    );
  }
  const firstDay = entry.startDate === null ? null : parseDate(entry.startDate);
  const lastDay = entry.endDate === null ? null : parseDate(entry.endDate);
  if (
    (entry.startDate !== null && firstDay === null) ||
    (entry.endDate !== null && lastDay === null)
  ) {
    throw new RangeError(`schedule ${entry.id}: dates must be YYYY-MM-DD`);
  }
  return { start, end: end > start ? end : end + MINUTES_PER_DAY, firstDay, lastDay };
}

/** True when the entry has a span starting on local day number `day`. */
export function startsOn(entry: ScheduleTiming, window: EntryWindow, day: number): boolean {
  if ((entry.days & (1 << (weekdayOfDay(day) - 1))) === 0) return false;
  if (window.firstDay !== null && day < window.firstDay) return false;
  return window.lastDay === null || day <= window.lastDay;
}

/** The instant of `minutes` after the local midnight of day number `day`. */
export function localInstant(day: number, minutes: number, timeZone: string): number {
  const date = civilDate(day + Math.floor(minutes / MINUTES_PER_DAY));
  const rest = minutes % MINUTES_PER_DAY;
  return fromLocal({ ...date, hour: Math.floor(rest / 60), minute: rest % 60 }, timeZone);
}

/**
 * Every span of the entries that shares time with [from, to), sorted by start (then entry id).
 * A span belongs to the day it starts on (days and date ranges apply to that day); wall times
 * in a daylight-saving gap start at the end of the gap and doubled ones at their first
 * occurrence, so a span wholly inside a gap is empty and left out.
 */
export function expandSchedules<E extends ScheduleTiming>(
  entries: readonly E[],
  from: number,
  to: number,
  timeZone: string,
): ScheduleSpan<E>[] {
  const spans: ScheduleSpan<E>[] = [];
  if (to <= from) return spans;
  // A span can start the day before `from` and still run into it.
  const firstDay = localDayNumber(from, timeZone) - 1;
  const lastDay = localDayNumber(to, timeZone);
  for (const entry of entries) {
    const window = entryWindow(entry);
    for (let day = firstDay; day <= lastDay; day++) {
      if (!startsOn(entry, window, day)) continue;
      const start = localInstant(day, window.start, timeZone);
      const end = localInstant(day, window.end, timeZone);
      if (end > start && end > from && start < to) spans.push({ entry, start, end });
    }
  }
  return spans.sort((a, b) => a.start - b.start || a.entry.id - b.entry.id);
}
