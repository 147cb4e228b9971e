import { z } from 'zod';
import { pageOf, paginationQuery, timestamp } from './common.dto.ts';
import { trackSchema } from './tracks.dto.ts';

export const uploadResultSchema = z
  .object({
    status: z
      .enum(['added', 'duplicate'])
      .describe('added: the file is in the music folder; duplicate: the library has this audio'),
    path: z
      .string()
      .describe(
        'where the file went (added) or would have gone (duplicate), relative to MUSIC_DIR',
      ),
    track: trackSchema
      .nullable()
      .describe('the new track once the scheduler has indexed it; null if it has not yet'),
    duplicateOf: trackSchema.optional().describe('the track that has the same audio'),
  })
  .describe('The answer to the PATCH (or POST) that completes an upload');
export type UploadResultDto = z.infer<typeof uploadResultSchema>;

export const storageSchema = z.object({
  music: z
    .object({
      totalBytes: z.number(),
      freeBytes: z.number().describe('available to the api (not counting root-reserved blocks)'),
      usedBytes: z.number(),
    })
    .describe('the filesystem that holds MUSIC_DIR'),
  trash: z.object({ files: z.number().int(), bytes: z.number() }),
  uploads: z
    .object({ files: z.number().int(), bytes: z.number() })
    .describe('unfinished uploads kept for resuming (removed a day after they began)'),
});
export type StorageDto = z.infer<typeof storageSchema>;

export const auditEntrySchema = z.object({
  id: z.number().int(),
  at: timestamp,
  userId: z.number().int().nullable(),
  username: z.string().nullable(),
  action: z.string().describe('track.upload, track.tags, track.move, track.delete …'),
  target: z.string().nullable(),
  details: z.record(z.string(), z.unknown()).nullable(),
});
export type AuditEntryDto = z.infer<typeof auditEntrySchema>;

export const auditQuery = z.object({
  ...paginationQuery,
  action: z
    .string()
    .regex(/^[a-z]+\.[a-z]+$/, 'an action such as track.upload')
    .optional()
    .describe('only this action'),
});

export const auditPageSchema = pageOf(auditEntrySchema);
