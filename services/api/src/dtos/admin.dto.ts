import { libraryAnalysisSchema, libraryScanSchema } from '@radio/core';
import { z } from 'zod';
import { healthSchema } from './status.dto.ts';

export const scanStartedSchema = z.object({ scanId: z.string() });

export const librarySizeSchema = z.object({
  total: z.number().int(),
  ok: z.number().int(),
  invalid: z.number().int(),
  missing: z.number().int(),
  duration: z.number().describe('seconds, ok tracks'),
  size: z.number().describe('bytes, ok tracks'),
});
export type LibrarySizeDto = z.infer<typeof librarySizeSchema>;

export const scanStatusSchema = z.object({
  scan: libraryScanSchema.nullable().describe('the running or last scan; null when unknown'),
  analysis: libraryAnalysisSchema
    .nullable()
    .describe('the background loudness and cue analysis; null when unknown'),
  library: librarySizeSchema,
});
export type ScanStatusDto = z.infer<typeof scanStatusSchema>;

export const systemSchema = z.object({
  versions: z.object({ api: z.string(), node: z.string(), platform: z.string() }),
  uptime: z.object({ process: z.number(), api: z.number() }),
  memory: z.object({
    rss: z.number(),
    heapUsed: z.number(),
    heapTotal: z.number(),
    external: z.number(),
  }),
  health: healthSchema,
  library: librarySizeSchema,
  db: z.object({ dialect: z.string(), target: z.string(), ok: z.boolean(), latencyMs: z.number() }),
  redis: z.object({
    used: z.boolean(),
    ok: z.boolean().nullable(),
    latencyMs: z.number().nullable(),
    error: z.string().nullable(),
  }),
  sessions: z.object({ store: z.enum(['redis', 'db']) }),
  sse: z.object({ clients: z.number().int() }),
});
export type SystemDto = z.infer<typeof systemSchema>;
