/** The planner's timeline and listener requests as they travel on the bus. */
import { z } from 'zod';
import { count, epochMs, id, seconds } from './primitives.ts';

/** Where a planned entry comes from. `queue`: pushed by hand (control port, API, new file). */
export const timelineSourceSchema = z.enum([
  'queue',
  'request',
  'rotation',
  'scheduled',
  'jingle',
  'live',
]);
export type TimelineSource = z.infer<typeof timelineSourceSchema>;

/** One entry of the scheduler's plan: a track (or a DJ's show slot), when, from where, why. */
export const timelineEntrySchema = z.object({
  /** Expected start, and the expected start of what follows it. */
  at: epochMs,
  end: epochMs,
  source: timelineSourceSchema,
  /** Null for a live slot. */
  track: z
    .object({
      id,
      title: z.string(),
      artist: z.string().nullable(),
      album: z.string().nullable(),
      duration: seconds.nullable(),
    })
    .nullable(),
  playlist: z.object({ id, name: z.string() }).nullable(),
  /** A live slot's DJ. */
  dj: z.object({ id, name: z.string().min(1) }).nullable(),
  scheduleId: id.nullable(),
  /** The listener request it answers. */
  songRequestId: id.nullable(),
  /** The scheduler's queue id once the entry is committed to play next; null further ahead. */
  requestId: z.string().min(1).nullable(),
  /** The track in progress is faded out at `at` (a scheduled `interrupt`). */
  interrupts: z.boolean(),
  jingle: z.boolean(),
  /** In words, for people: "every 4 songs: Jingles", "request by ana", "artist rule relaxed". */
  reason: z.string(),
});
export type TimelineEntry = z.infer<typeof timelineEntrySchema>;

export const timelineSchema = z.object({
  /** Counts up on every re-plan; the same revision is the same plan. */
  revision: count,
  /** When this plan was made. */
  plannedAt: epochMs,
  /** What made the plan change: `track` (one started as planned), `skip`, `queue`, `request`, `library`, `schedule`, `live`, `start`. */
  cause: z.string().min(1),
  entries: z.array(timelineEntrySchema),
});
export type Timeline = z.infer<typeof timelineSchema>;

export const songRequestStatusSchema = z.enum(['pending', 'played', 'removed']);
export type SongRequestStatus = z.infer<typeof songRequestStatusSchema>;

/** A listener request's state as the requester sees it. */
export const songRequestUpdateSchema = z.object({
  id,
  userId: id,
  trackId: id,
  status: songRequestStatusSchema,
  /** Where the plan has it (pending), or null when it is not in the plan yet. */
  plannedAt: epochMs.nullable(),
  playedAt: epochMs.nullable(),
  reason: z.string().nullable(),
});
export type SongRequestUpdate = z.infer<typeof songRequestUpdateSchema>;
