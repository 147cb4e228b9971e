import { z } from 'zod';
import { id, idText, timestamp } from './common.dto.ts';

export const requestStatus = z.enum(['pending', 'played', 'removed']);

export const requestSchema = z.object({
  id,
  track: z.object({
    id,
    title: z.string(),
    artist: z.string().nullable(),
    album: z.string().nullable(),
    duration: z.number().nullable().describe('seconds'),
  }),
  user: z.object({ id, name: z.string() }),
  status: requestStatus,
  requestedAt: timestamp,
  notBefore: timestamp.describe('the earliest it may play (the station minimum delay)'),
  plannedAt: timestamp.nullable().describe("where the scheduler's plan has it, while pending"),
  playedAt: timestamp.nullable(),
  reason: z.string().nullable().describe('why it was removed'),
});
export type RequestDto = z.infer<typeof requestSchema>;

export const requestListSchema = z.object({ requests: z.array(requestSchema) });

export const createRequestBody = z.strictObject({ trackId: id });
export type CreateRequestBody = z.output<typeof createRequestBody>;

export const requestListQuery = z.object({
  status: requestStatus.optional().describe('only requests in this state; all when omitted'),
});
export type RequestListQuery = z.output<typeof requestListQuery>;

export const requestIdParams = z.object({ id: idText });

const settingsFields = {
  enabled: z.boolean().describe('whether listeners may request tracks'),
  minDelayMinutes: z
    .number()
    .int()
    .min(0)
    .max(1440)
    .describe('a request plays no sooner than this after it is made'),
  maxPendingPerUser: z.number().int().min(1).max(100).describe('pending requests a user may have'),
  maxPerHourPerUser: z.number().int().min(1).max(100).describe('requests a user may make an hour'),
  thresholdMinutes: z
    .number()
    .int()
    .min(0)
    .max(10_080)
    .describe('a track played or requested within this many minutes cannot be requested'),
};

export const requestSettingsSchema = z.object(settingsFields);
export type RequestSettings = z.infer<typeof requestSettingsSchema>;

export const DEFAULT_REQUEST_SETTINGS: RequestSettings = {
  enabled: true,
  minDelayMinutes: 0,
  maxPendingPerUser: 3,
  maxPerHourPerUser: 5,
  thresholdMinutes: 60,
};

export const updateRequestSettingsBody = z
  .strictObject({
    enabled: settingsFields.enabled.optional(),
    minDelayMinutes: settingsFields.minDelayMinutes.optional(),
    maxPendingPerUser: settingsFields.maxPendingPerUser.optional(),
    maxPerHourPerUser: settingsFields.maxPerHourPerUser.optional(),
    thresholdMinutes: settingsFields.thresholdMinutes.optional(),
  })
  .refine((body) => Object.values(body).some((value) => value !== undefined), {
    message: 'give at least one setting to change',
  });
export type UpdateRequestSettingsBody = z.output<typeof updateRequestSettingsBody>;
