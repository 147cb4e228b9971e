import { type EntryWindow, entryWindow } from './expand.ts';
import type { ScheduleTiming } from './types.ts';
import { weekdayOfDay } from './zoned-time.ts';

const MINUTES_PER_DAY = 1440;

/**
 * The first of `others` (other ids, the same priority) that shares a minute of wall time with
 * some occurrence of `entry`, or null. Exact, from the weekly pattern: a span lasts at most a
 * day, so two spans can only meet when they start on the same day or on neighbouring days;
 * for each such pair of weekdays the times must intersect, and some start date must lie in
 * both date ranges (shifted by the day between them) and fall on that weekday. Times are
 * compared as wall time, which is what the week calendar shows.
 */
export function findOverlap<T extends ScheduleTiming>(
  entry: ScheduleTiming,
  others: readonly T[],
): T | null {
  const window = entryWindow(entry);
  for (const other of others) {
    if (other.id === entry.id || other.priority !== entry.priority) continue;
    if (overlaps(entry, window, other, entryWindow(other))) return other;
  }
  return null;
}

function overlaps(a: ScheduleTiming, aw: EntryWindow, b: ScheduleTiming, bw: EntryWindow): boolean {
  for (let weekday = 0; weekday < 7; weekday++) {
    if ((a.days & (1 << weekday)) === 0) continue;
    for (const shift of [-1, 0, 1]) {
      const other = (weekday + shift + 7) % 7;
      if ((b.days & (1 << other)) === 0) continue;
      const bStart = shift * MINUTES_PER_DAY + bw.start;
      const bEnd = shift * MINUTES_PER_DAY + bw.end;
      if (aw.start >= bEnd || bStart >= aw.end) continue;
      if (sharedStartDay(aw, bw, shift, weekday + 1)) return true;
    }
  }
  return false;
}

/**
 * True when some day d on ISO weekday `weekday` has d in a's date range and d + shift in b's.
 */
function sharedStartDay(aw: EntryWindow, bw: EntryWindow, shift: number, weekday: number): boolean {
  const low = maxOpen(aw.firstDay, bw.firstDay === null ? null : bw.firstDay - shift);
  const high = minOpen(aw.lastDay, bw.lastDay === null ? null : bw.lastDay - shift);
  if (low === null || high === null) return true;
  for (let day = low; day <= high && day < low + 7; day++) {
    if (weekdayOfDay(day) === weekday) return true;
  }
  return false;
}

/** The larger of two lower bounds (null: unbounded). */
function maxOpen(a: number | null, b: number | null): number | null {
  if (a === null) return b;
  return b === null ? a : Math.max(a, b);
}

/** The smaller of two upper bounds (null: unbounded). */
function minOpen(a: number | null, b: number | null): number | null {
  if (a === null) return b;
  return b === null ? a : Math.min(a, b);
}
