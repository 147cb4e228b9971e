import type { Bus, Logger } from '@radio/core';
import type { DbHandle } from '@radio/db';
import type { PlayCounter } from '../reports/play-reports.ts';
import { AudienceRepository } from './audience.repository.ts';
import { CountryLookup } from './country-lookup.ts';
import { ListenerPrivacy } from './listener-privacy.ts';
import type { ResolvedAudienceOptions } from './options.ts';
import { AudienceRollup } from './rollup.ts';
import { SessionIngest } from './session-ingest.ts';

/** Listener sessions in the api: stored from the stream servers' batches, summed, expired. */
export interface Audience {
  ingest: SessionIngest;
  rollup: AudienceRollup;
  /** Answers the stream servers' batches and runs the hourly job; returns how to stop. */
  start(): () => Promise<void>;
}

export function createAudience(
  options: ResolvedAudienceOptions & { dataDir: string },
  deps: { db: DbHandle; bus: Bus; logger: Logger; plays: PlayCounter },
): Audience {
  const repo = new AudienceRepository(deps.db);
  const ingest = new SessionIngest(
    repo,
    new CountryLookup(),
    new ListenerPrivacy(options.privacy, options.dataDir),
    deps.logger,
  );
  const rollup = new AudienceRollup(
    repo,
    deps.plays,
    { retentionDays: options.retentionDays, intervalMs: options.rollupIntervalMs },
    deps.logger,
  );
  return {
    ingest,
    rollup,
    start() {
      const stopIngest = ingest.start(deps.bus);
      rollup.start();
      return async () => {
        stopIngest();
        await rollup.stop();
      };
    },
  };
}
