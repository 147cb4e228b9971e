import { type ScheduleSpan, toLocal, zoneOffset } from '@radio/core';
import type { Derived } from './derived.ts';
import type { WorkState } from './state.ts';
import type { PlanPlaylist, PlanScheduleEntry } from './types.ts';

const MINUTE = 60_000;
const HOUR = 3_600_000;
/** A once_at the station missed (down, or a full queue) still plays within this hour. */
export const ONCE_AT_GRACE_MS = HOUR;
/**
 * An hourly_at still plays this long after its minute; later (the station started at :45, or
 * a long hand queue) it waits for the next hour rather than play nearer the next mark.
 */
export const HOURLY_GRACE_MS = 30 * MINUTE;

/**
 * The latest instant at or before `t` at minute `minute` of a local hour. Whole local hours
 * are 60 minutes apart except where a zone shifts by a part of an hour.
 */
export function hourMark(t: number, minute: number, timeZone: string): number {
  const local = t + zoneOffset(t, timeZone);
  const intoHour = (((local % HOUR) + HOUR) % HOUR) - minute * MINUTE;
  return t - intoHour - (intoHour < 0 ? HOUR : 0);
}

/** True when a rule playlist with schedule entries has one of its spans in force at `t`. */
function inItsSpans(
  derived: Derived,
  ruleSpans: readonly ScheduleSpan<PlanScheduleEntry>[],
  playlist: PlanPlaylist,
  t: number,
): boolean {
  if (!derived.ruleEntries.has(playlist.id)) return true;
  return ruleSpans.some((s) => s.entry.playlistId === playlist.id && s.start <= t && t < s.end);
}

/** True when the rule wants the slot starting at `t`. */
export function isDue(
  playlist: PlanPlaylist,
  state: WorkState,
  t: number,
  timeZone: string,
): boolean {
  const last = state.lastPlayed[playlist.id] ?? Number.NEGATIVE_INFINITY;
  const interval = playlist.interval ?? 0;
  switch (playlist.kind) {
    case 'every_n_songs':
      return state.songCount - (state.songMark[playlist.id] ?? 0) >= Math.max(1, interval);
    case 'every_n_minutes':
      return t - last >= Math.max(1, interval) * MINUTE;
    case 'hourly_at': {
      const mark = hourMark(t, interval, timeZone);
      return last < mark && t - mark < HOURLY_GRACE_MS;
    }
    case 'once_at':
      return (
        playlist.playAt !== null &&
        playlist.playAt <= t &&
        t < playlist.playAt + ONCE_AT_GRACE_MS &&
        last < playlist.playAt
      );
    default:
      return false;
  }
}

/** The first rule (in rule order) due at `t`, or null. */
export function dueRule(
  derived: Derived,
  ruleSpans: readonly ScheduleSpan<PlanScheduleEntry>[],
  state: WorkState,
  t: number,
  timeZone: string,
): PlanPlaylist | null {
  for (const rule of derived.rules) {
    if (isDue(rule, state, t, timeZone) && inItsSpans(derived, ruleSpans, rule, t)) return rule;
  }
  return null;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** Why a rule played, in words: "every 4 songs: Jingles". */
export function ruleReason(playlist: PlanPlaylist, timeZone: string): string {
  const n = playlist.interval ?? 0;
  switch (playlist.kind) {
    case 'every_n_songs':
      return `every ${n} song${n === 1 ? '' : 's'}: ${playlist.name}`;
    case 'every_n_minutes':
      return `every ${n} minute${n === 1 ? '' : 's'}: ${playlist.name}`;
    case 'hourly_at':
      return `hourly at :${pad(n)}: ${playlist.name}`;
    default: {
      const at = toLocal(playlist.playAt ?? 0, timeZone);
      return `once at ${pad(at.hour)}:${pad(at.minute)}: ${playlist.name}`;
    }
  }
}

/** A time the track in progress is to be faded out for something that starts then. */
export type InterruptEvent =
  | { readonly at: number; readonly kind: 'span'; readonly span: ScheduleSpan<PlanScheduleEntry> }
  | { readonly at: number; readonly kind: 'rule'; readonly playlist: PlanPlaylist };

/**
 * The interrupt times in [from, to), sorted: starts of scheduled spans and the minutes of
 * `interrupt` rules (hourly_at marks, a once_at's time). Whether each still applies is
 * decided when the walk reaches it.
 */
export function interruptEvents(
  derived: Derived,
  scheduledSpans: readonly ScheduleSpan<PlanScheduleEntry>[],
  from: number,
  to: number,
  timeZone: string,
): InterruptEvent[] {
  const events: InterruptEvent[] = [];
  for (const span of scheduledSpans) {
    if (span.entry.startMode === 'interrupt' && span.start >= from && span.start < to) {
      events.push({ at: span.start, kind: 'span', span });
    }
  }
  for (const playlist of derived.rules) {
    if (playlist.startMode !== 'interrupt') continue;
    if (playlist.kind === 'once_at' && playlist.playAt !== null) {
      if (playlist.playAt >= from && playlist.playAt < to) {
        events.push({ at: playlist.playAt, kind: 'rule', playlist });
      }
    } else if (playlist.kind === 'hourly_at') {
      let at = hourMark(from, playlist.interval ?? 0, timeZone);
      if (at < from) at += HOUR;
      for (; at < to; at += HOUR) events.push({ at, kind: 'rule', playlist });
    }
  }
  // At the same instant a span's start goes before a rule's: the show starts on time and the
  // rule, still due, takes the next slot.
  return events.sort((a, b) => a.at - b.at || (a.kind === b.kind ? 0 : a.kind === 'span' ? -1 : 1));
}

/** True when a rule interrupt still applies at its time: due, and inside its spans. */
export function ruleEventApplies(
  derived: Derived,
  ruleSpans: readonly ScheduleSpan<PlanScheduleEntry>[],
  state: WorkState,
  playlist: PlanPlaylist,
  at: number,
  timeZone: string,
): boolean {
  return isDue(playlist, state, at, timeZone) && inItsSpans(derived, ruleSpans, playlist, at);
}
