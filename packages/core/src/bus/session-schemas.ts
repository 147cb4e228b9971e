/** Finished listener sessions, from the stream server to the api that stores them. */
import { z } from 'zod';
import { count, epochMs, mountName } from './primitives.ts';

/** One finished listener connection, as the stream server saw it (no database there). */
export const listenerSessionSchema = z.object({
  /** Unique per session (a UUID): a batch sent again is stored once. */
  key: z.string().min(1).max(64),
  mount: mountName,
  transport: z.enum(['icecast', 'hls']),
  startedAt: epochMs,
  endedAt: epochMs,
  bytes: count,
  userAgent: z.string().max(512).nullable(),
  /** The listener's address (X-Forwarded-For from a trusted proxy, else the peer). */
  ip: z.string().max(64).nullable(),
});
export type ListenerSessionRecord = z.infer<typeof listenerSessionSchema>;
