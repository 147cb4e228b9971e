import type { Bus, Logger } from '@radio/core';
import type { DbHandle } from '@radio/db';
import type { SchedulerClient } from '../clients/scheduler-client.ts';
import type { ProgrammingOptions } from '../options.ts';
import type { AuditRepository } from '../repositories/audit.repository.ts';
import type { PlaylistsRepository } from '../repositories/playlists.repository.ts';
import { RequestsRepository } from '../repositories/requests.repository.ts';
import { SchedulesRepository } from '../repositories/schedules.repository.ts';
import type { TracksRepository } from '../repositories/tracks.repository.ts';
import type { UsersRepository } from '../repositories/users.repository.ts';
import { ProgrammingChanges } from './programming-changes.ts';
import { RequestsService } from './requests.service.ts';
import { SchedulesService } from './schedules.service.ts';
import { TimelineService } from './timeline.service.ts';

/** Programming in the api: schedules, listener requests and their settings, the timeline. */
export interface Programming {
  changes: ProgrammingChanges;
  schedules: SchedulesService;
  requests: RequestsService;
  timeline: TimelineService;
}

export function createProgramming(
  options: ProgrammingOptions,
  deps: {
    db: DbHandle;
    bus: Bus;
    scheduler: SchedulerClient;
    playlists: PlaylistsRepository;
    tracks: TracksRepository;
    users: UsersRepository;
    audit: AuditRepository;
    logger: Logger;
  },
): Programming {
  const changes = new ProgrammingChanges(deps.scheduler, deps.bus, deps.logger);
  return {
    changes,
    schedules: new SchedulesService({
      schedules: new SchedulesRepository(deps.db),
      playlists: deps.playlists,
      users: deps.users,
      audit: deps.audit,
      changes,
      timeZone: options.timeZone,
    }),
    requests: new RequestsService({
      requests: new RequestsRepository(deps.db),
      tracks: deps.tracks,
      audit: deps.audit,
      changes,
      ...options,
    }),
    timeline: new TimelineService(deps.scheduler, deps.bus, deps.logger, options.timeZone),
  };
}
