import { nowPlayingSchema, playoutFallbackSchema } from '@radio/core';
import { z } from 'zod';

export const checkSchema = z.object({
  ok: z.boolean(),
  latencyMs: z.number().nullable(),
  error: z.string().nullable(),
});
export type CheckDto = z.infer<typeof checkSchema>;

export const healthSchema = z.object({
  db: checkSchema.extend({ dialect: z.string() }),
  bus: checkSchema.extend({ kind: z.string() }),
  stream: checkSchema,
  scheduler: checkSchema,
});
export type HealthDto = z.infer<typeof healthSchema>;

/** Why the station plays the fallback instead of music, where status is reported. */
export const fallbackOnAirSchema = playoutFallbackSchema
  .nullable()
  .describe(
    'set while the mounts carry the fallback (FALLBACK_FILE or the station-ID tone) instead of ' +
      'music, saying why; null while music plays or when unknown',
  );

export const statusSchema = z.object({
  service: z.literal('api'),
  version: z.string(),
  uptime: z.number().describe('seconds since the api started'),
  status: z.enum(['ok', 'degraded']).describe('degraded when any check fails'),
  health: healthSchema,
  fallback: fallbackOnAirSchema,
});
export type StatusDto = z.infer<typeof statusSchema>;

export const mountStatusSchema = z.object({
  mount: z.string(),
  format: z.enum(['mp3', 'aac']),
  bitrate: z.number().describe('kbit/s'),
  quality: z.enum(['high', 'low']),
  url: z.string().describe('the public URL listeners use'),
  listeners: z.number().int().nullable().describe('null when unknown'),
  peak: z.number().int().nullable(),
  sourceConnected: z.boolean().nullable().describe('null when unknown'),
});
export type MountStatusDto = z.infer<typeof mountStatusSchema>;

export const streamingStatusSchema = z.object({
  mounts: z.array(mountStatusSchema),
  hlsUrl: z
    .string()
    .describe('HLS master playlist of the AAC mounts (for phones, Safari and CDNs)'),
  totalListeners: z.number().int().nullable(),
  nowPlaying: nowPlayingSchema.nullable(),
  fallback: fallbackOnAirSchema,
});
export type StreamingStatusDto = z.infer<typeof streamingStatusSchema>;
