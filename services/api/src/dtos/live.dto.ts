import { liveKickTargetSchema, liveStateSchema } from '@radio/core';
import { z } from 'zod';
import { id, idText, pageOf, paginationQuery, timestamp } from './common.dto.ts';

// Source clients put the user name in URLs and config files: plain lower-case ASCII.
export const broadcastUsernameSchema = z
  .string()
  .trim()
  .toLowerCase()
  .min(2, 'at least 2 characters')
  .max(32, 'at most 32 characters')
  .regex(
    /^[a-z0-9][a-z0-9_.-]*$/,
    'letters, digits, "_", "." and "-", starting with a letter or digit',
  )
  .refine((name) => name !== 'source', {
    message: '"source" is the user name of clients that send username:password as the password',
  });

const displayName = z
  .string()
  .trim()
  .min(1, 'give a display name')
  .max(100, 'at most 100 characters');

export const djAccountSchema = z.object({
  userId: id,
  /** The login name of the user it belongs to. */
  username: z.string(),
  role: z.enum(['admin', 'dj', 'listener']),
  broadcastUsername: z.string(),
  displayName: z.string(),
  enabled: z.boolean(),
  recordShows: z.boolean(),
  createdAt: timestamp,
  updatedAt: timestamp,
});
export type DjAccountDto = z.infer<typeof djAccountSchema>;

/** Create and regenerate answers: the broadcast password is shown here once, never again. */
export const djAccountWithPasswordSchema = djAccountSchema.extend({
  password: z.string().describe('the broadcast password; shown in this answer only'),
});
export type DjAccountWithPasswordDto = z.infer<typeof djAccountWithPasswordSchema>;

export const djAccountList = z.object({ items: z.array(djAccountSchema) });

export const createDjAccountBody = z.strictObject({
  userId: id.describe('a user with the dj (or admin) role'),
  broadcastUsername: broadcastUsernameSchema
    .optional()
    .describe('default: the login name in lower case'),
  displayName: displayName.optional().describe('default: the login name'),
  enabled: z.boolean().default(true),
  recordShows: z.boolean().default(false),
});
export type CreateDjAccountBody = z.output<typeof createDjAccountBody>;

export const updateDjAccountBody = z
  .strictObject({
    broadcastUsername: broadcastUsernameSchema.optional(),
    displayName: displayName.optional(),
    enabled: z.boolean().optional(),
    recordShows: z.boolean().optional(),
  })
  .refine((body) => Object.values(body).some((value) => value !== undefined), {
    message: 'give at least one field to change',
  });
export type UpdateDjAccountBody = z.output<typeof updateDjAccountBody>;

export const djUserParams = z.object({ userId: idText });

/** What a source client needs besides the password. */
export const liveConnectionSchema = z.object({
  port: z.number().int().describe("the live input's port (LIVE_PORT; compose: LIVE_PUBLISH_PORT)"),
  mount: z.literal('/live'),
  formats: z.array(z.string()).describe('Content-Type values the live input accepts'),
});
export type LiveConnectionDto = z.infer<typeof liveConnectionSchema>;

export const myDjAccountSchema = z.object({
  account: djAccountSchema.nullable().describe('null: no broadcast credentials yet (ask an admin)'),
  connection: liveConnectionSchema,
});

export const liveStatusSchema = liveStateSchema;

export const liveKickBody = z.strictObject({
  target: liveKickTargetSchema.default('on_air').describe('on_air, waiting or all'),
});

export const liveKickResult = z.object({
  kicked: z.array(z.object({ id, name: z.string() })),
});

export const recordingSchema = z.object({
  id,
  userId: id.nullable(),
  djName: z.string(),
  startedAt: timestamp,
  endedAt: timestamp.nullable().describe('null while the show is on air'),
  /** Seconds; null while the show is on air. */
  duration: z.number().nonnegative().nullable(),
  peakListeners: z.number().int().nonnegative(),
  bytes: z.number().int().nonnegative().nullable(),
  error: z.string().nullable().describe('why the recording stopped early (the show went on)'),
});
export type RecordingDto = z.infer<typeof recordingSchema>;

export const recordingListQuery = z.object({ ...paginationQuery });
export type RecordingListQuery = z.output<typeof recordingListQuery>;
export const recordingPage = pageOf(recordingSchema);
export const recordingIdParams = z.object({ id: idText });
