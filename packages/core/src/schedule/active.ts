import type { ScheduleSpan, ScheduleTiming } from './types.ts';

/**
 * The span in force at `t` among those containing it ([start, end)): the highest priority;
 * on a tie the one that started first, then the lowest entry id. Null when none contains it.
 */
export function activeSpan<E extends ScheduleTiming>(
  spans: readonly ScheduleSpan<E>[],
  t: number,
): ScheduleSpan<E> | null {
  let best: ScheduleSpan<E> | null = null;
  for (const span of spans) {
    if (span.start > t || span.end <= t) continue;
    if (best === null || wins(span, best)) best = span;
  }
  return best;
}

function wins<E extends ScheduleTiming>(a: ScheduleSpan<E>, b: ScheduleSpan<E>): boolean {
  if (a.entry.priority !== b.entry.priority) return a.entry.priority > b.entry.priority;
  if (a.start !== b.start) return a.start < b.start;
  return a.entry.id < b.entry.id;
}

/** The first span start or end after `t` (when what is in force may change), or null. */
export function nextBoundary(
  spans: readonly ScheduleSpan<ScheduleTiming>[],
  t: number,
): number | null {
  let next: number | null = null;
  for (const span of spans) {
    if (span.start > t && (next === null || span.start < next)) next = span.start;
    if (span.end > t && (next === null || span.end < next)) next = span.end;
  }
  return next;
}
