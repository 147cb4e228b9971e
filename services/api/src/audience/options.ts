import type { PrivacyMode } from './listener-privacy.ts';

/** Listener sessions: how addresses are kept, how long sessions are. */
export interface AudienceOptions {
  /** LISTENER_PRIVACY. Default `hashed`. */
  privacy?: PrivacyMode | undefined;
  /** LISTENER_RETENTION_DAYS: sessions older than this keep only their sums. Default 400. */
  retentionDays?: number | undefined;
  /** How often the sums are brought up to date and old sessions removed (ms). Default 1 hour. */
  rollupIntervalMs?: number | undefined;
}

export interface ResolvedAudienceOptions {
  privacy: PrivacyMode;
  retentionDays: number;
  rollupIntervalMs: number;
}

export function resolveAudienceOptions(options: AudienceOptions = {}): ResolvedAudienceOptions {
  const privacy = options.privacy ?? 'hashed';
  if (privacy !== 'hashed' && privacy !== 'full' && privacy !== 'none') {
    throw new TypeError(`createApi: audience.privacy must be hashed, full or none, got ${privacy}`);
  }
  const retentionDays = options.retentionDays ?? 400;
  if (!Number.isInteger(retentionDays) || retentionDays < 1 || retentionDays > 3650) {
    throw new TypeError(`createApi: audience.retentionDays must be 1-3650, got ${retentionDays}`);
  }
  const rollupIntervalMs = options.rollupIntervalMs ?? 60 * 60 * 1000;
  if (!Number.isFinite(rollupIntervalMs) || rollupIntervalMs <= 0) {
    throw new TypeError('createApi: audience.rollupIntervalMs must be a positive number');
  }
  return { privacy, retentionDays, rollupIntervalMs };
}
