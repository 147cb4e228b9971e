import type { Timeline, TimelineEntry } from '@radio/core';
import { displayTitle } from '../library/library-track.ts';
import type { CommandRegistry } from './registry.ts';

/** How many entries `schedule.timeline` lists. */
export const CONTROL_TIMELINE_ENTRIES = 10;

/** `HH:MM:SS` of an epoch ms in the station's time zone. */
export function stationTime(at: number, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(new Date(at));
  const part = (type: string): string => parts.find((p) => p.type === type)?.value ?? '00';
  return `${part('hour')}:${part('minute')}:${part('second')}`;
}

/** One line: `HH:MM:SS  source  Artist - Title  (reason)`; a live slot names its DJ. */
export function timelineLine(entry: TimelineEntry, timeZone: string): string {
  const what = entry.track ? displayTitle(entry.track) : `Live: ${entry.dj?.name ?? entry.reason}`;
  return `${stationTime(entry.at, timeZone)}  ${entry.source}  ${what}  (${entry.reason})`;
}

/** `schedule.timeline`: the next entries of the plan, in station time. */
export function registerProgrammeCommands(
  registry: CommandRegistry,
  timeline: () => Timeline,
  timeZone: string,
): () => void {
  return registry.add(
    'schedule.timeline',
    'schedule.timeline',
    `The next ${CONTROL_TIMELINE_ENTRIES} planned entries, one per line: start (HH:MM:SS, ${timeZone}), source (queue, request, rotation, scheduled, jingle, live), Artist - Title, (why).`,
    () =>
      timeline()
        .entries.slice(0, CONTROL_TIMELINE_ENTRIES)
        .map((entry) => timelineLine(entry, timeZone)),
  );
}
