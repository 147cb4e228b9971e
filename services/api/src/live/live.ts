import type { Bus, Logger } from '@radio/core';
import type { DbHandle } from '@radio/db';
import type { RequestHandler } from 'express';
import type { SchedulerClient } from '../clients/scheduler-client.ts';
import type { UsersRepository } from '../repositories/users.repository.ts';
import { DjAccountsRepository } from './dj-accounts.repository.ts';
import { DjAccountsService } from './dj-accounts.service.ts';
import { GoLiveSockets } from './go-live-socket.ts';
import { LiveStatusService } from './live-status.service.ts';
import { RecordingsRepository } from './recordings.repository.ts';
import { RecordingsService } from './recordings.service.ts';

export interface LiveOptions {
  basePath: string;
  liveUrl: string;
  dataDir: string;
  allowedOrigins: readonly string[];
  scryptCost: number;
}

/** Live shows in the api: DJ accounts, the live input's state, recordings, going live. */
export interface Live {
  accounts: DjAccountsService;
  status: LiveStatusService;
  recordings: RecordingsService;
  /** The go-live WebSocket, behind the given session handlers (cookie, store, user). */
  sockets(auth: readonly RequestHandler[]): GoLiveSockets;
}

export function createLive(
  options: LiveOptions,
  deps: {
    db: DbHandle;
    bus: Bus;
    users: UsersRepository;
    scheduler: SchedulerClient;
    logger: Logger;
  },
): Live {
  const accounts = new DjAccountsRepository(deps.db);
  return {
    accounts: new DjAccountsService(accounts, deps.users, options.scryptCost),
    status: new LiveStatusService(deps.bus, deps.scheduler, options.liveUrl, deps.logger),
    recordings: new RecordingsService(
      new RecordingsRepository(deps.db),
      options.dataDir,
      deps.logger,
    ),
    sockets: (auth) =>
      new GoLiveSockets({
        basePath: options.basePath,
        liveUrl: options.liveUrl,
        allowedOrigins: options.allowedOrigins,
        auth,
        accounts,
        logger: deps.logger,
      }),
  };
}
