import type { DbHandle } from '@radio/db';
import { PlayReports } from './play-reports.ts';
import { ReportsRepository } from './reports.repository.ts';
import { ReportsService } from './reports.service.ts';
import { SumsRepository } from './sums.repository.ts';

/** The audience reports: listeners over time and per play of the log. */
export interface Reports {
  listeners: ReportsService;
  plays: PlayReports;
}

export function createReports(db: DbHandle, now: () => number = Date.now): Reports {
  const repository = new ReportsRepository(db, now);
  const sums = new SumsRepository(db);
  return {
    listeners: new ReportsService(repository, sums, { now }),
    plays: new PlayReports(repository, sums, now),
  };
}
