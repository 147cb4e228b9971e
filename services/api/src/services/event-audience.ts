import type { EventMessage, EventPayloads, Timeline } from '@radio/core';
import type { AuthUser } from '../dtos/users.dto.ts';

/** Who an event stream belongs to: what it may be told depends on it. */
export interface Viewer {
  id: number;
  /** Admins and DJs: they see every request and who made it. */
  staff: boolean;
}

export function viewerOf(user: AuthUser | null): Viewer | null {
  return user === null ? null : { id: user.id, staff: user.role === 'admin' || user.role === 'dj' };
}

/** The plan's first entries an event carries to browsers. */
const TIMELINE_ENTRIES = 10;

/** The SSE names of the bus events relayed under another name. */
export const RENAMED_EVENTS = {
  'schedule.timeline': 'timeline',
  'requests.updated': 'request',
} as const;

/**
 * The plan as a viewer may see it: the first entries, and for listeners no requester's name
 * (the planner's reason for a request names who asked).
 */
export function timelineFor(timeline: Timeline, staff: boolean): Timeline {
  const entries = timeline.entries.slice(0, TIMELINE_ENTRIES);
  if (staff) return { ...timeline, entries };
  return {
    ...timeline,
    entries: entries.map((entry) =>
      entry.source === 'request' || entry.songRequestId !== null
        ? { ...entry, reason: 'listener request' }
        : entry,
    ),
  };
}

/** The request updates a viewer may see: their own, or all of them for staff; null: none. */
export function requestsFor(
  payload: EventPayloads['requests.updated'],
  viewer: Viewer | null,
): EventPayloads['requests.updated'] | null {
  if (viewer === null) return null;
  const requests = viewer.staff
    ? payload.requests
    : payload.requests.filter((update) => update.userId === viewer.id);
  return requests.length > 0 ? { requests } : null;
}

export function frame(event: string, data: unknown, id?: string): string {
  const idLine = id === undefined ? '' : `id: ${id}\n`;
  return `${idLine}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

/**
 * The text of one bus event for each viewer (null: not theirs to see). Most events read the
 * same for everyone and are serialized once; the timeline once per audience.
 */
export function framesOf(event: EventMessage): (viewer: Viewer | null) => string | null {
  if (event.type === 'requests.updated') {
    const payload = event.payload as EventPayloads['requests.updated'];
    return (viewer) => {
      const visible = requestsFor(payload, viewer);
      return visible && frame(RENAMED_EVENTS['requests.updated'], visible, event.id);
    };
  }
  if (event.type === 'schedule.timeline') {
    const payload = event.payload as Timeline;
    const texts = new Map<boolean, string>();
    return (viewer) => {
      const staff = viewer?.staff ?? false;
      let text = texts.get(staff);
      if (text === undefined) {
        text = frame(RENAMED_EVENTS['schedule.timeline'], timelineFor(payload, staff), event.id);
        texts.set(staff, text);
      }
      return text;
    };
  }
  const text = frame(event.type, event.payload, event.id);
  return () => text;
}
