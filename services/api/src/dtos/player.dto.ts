import {
  AMPLIFY_MAX,
  AMPLIFY_MIN,
  nowPlayingSchema,
  playbackStateSchema,
  playerStatusSchema,
  playoutFallbackSchema,
  queueItemSchema,
  queuePushResultSchema,
  queueSnapshotSchema,
} from '@radio/core';
import { z } from 'zod';
import { id, pageOf, paginationQuery, timestamp } from './common.dto.ts';

export const playerSchema = z.object({
  state: playbackStateSchema,
  nowPlaying: nowPlayingSchema.nullable(),
  position: z.number().nullable().describe('seconds into the current track; null when stopped'),
  amplify: z.number(),
  fallback: playoutFallbackSchema
    .nullable()
    .optional()
    .describe('set while the mounts carry the fallback instead of music, saying why'),
  queue: z.array(queueItemSchema),
});
export type PlayerDto = z.infer<typeof playerSchema>;

export { playerStatusSchema, queuePushResultSchema, queueSnapshotSchema };

export const playBody = z
  .strictObject({ trackId: id.optional(), playlistId: id.optional() })
  .refine((body) => body.trackId === undefined || body.playlistId === undefined, {
    message: 'give trackId or playlistId, not both',
  });
export type PlayBody = z.output<typeof playBody>;

export const queueBody = z
  .strictObject({
    trackId: id.optional(),
    uri: z
      .string()
      .trim()
      .min(1)
      .max(2000)
      .optional()
      .describe('a file or URL the scheduler can play'),
  })
  .refine((body) => (body.trackId === undefined) !== (body.uri === undefined), {
    message: 'give exactly one of trackId and uri',
  });
export type QueueBody = z.output<typeof queueBody>;

export const amplifyBody = z.strictObject({
  value: z.number().min(AMPLIFY_MIN).max(AMPLIFY_MAX).describe('linear gain, 1 = unchanged'),
});
export type AmplifyBody = z.output<typeof amplifyBody>;

export const amplifySchema = z.object({ amplify: z.number() });

export const historyQuery = z.object({ ...paginationQuery });
export type HistoryQuery = z.output<typeof historyQuery>;

export const historyEntrySchema = z.object({
  id,
  trackId: id.nullable(),
  title: z.string(),
  artist: z.string().nullable(),
  startedAt: timestamp,
  endedAt: timestamp.nullable(),
  source: z.enum(['request', 'rotation', 'playlist', 'new']),
  requestId: z.string().nullable(),
});
export type HistoryEntryDto = z.infer<typeof historyEntrySchema>;

export const historyPage = pageOf(historyEntrySchema);
