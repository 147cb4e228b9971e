import { componentLogger, type Logger } from '@radio/core';
import type { DbHandle } from '@radio/db';
import type { ResolvedApiOptions } from '../options.ts';
import type { AuditRepository } from '../repositories/audit.repository.ts';
import { LibraryRepository } from '../repositories/library.repository.ts';
import { LibraryAdmin } from './library-admin.ts';
import { TrackHashes } from './track-hashes.ts';
import { TusEndpoint } from './tus-endpoint.ts';
import { UploadFinisher } from './upload-finish.ts';

export { LibraryAdmin } from './library-admin.ts';
export { TusEndpoint } from './tus-endpoint.ts';

export interface Uploads {
  endpoint: TusEndpoint;
  admin: LibraryAdmin;
}

const DAY_MS = 24 * 60 * 60 * 1000;
/** A finished upload waits this long for the scheduler's index before answering without it. */
const INDEX_WAIT_MS = 5000;

/** The upload endpoint and the admin's storage and audit views, on the api's options. */
export function createUploads(
  options: ResolvedApiOptions,
  deps: { db: DbHandle; audit: AuditRepository; logger: Logger },
  path: string,
): Uploads {
  const logger = componentLogger(deps.logger, 'uploads');
  const media = { ffmpegPath: options.ffmpegPath, logger };
  const hashes = new TrackHashes(deps.db, options.musicDir, media, logger);
  const finisher = new UploadFinisher({
    musicDir: options.musicDir,
    hashes,
    audit: deps.audit,
    library: new LibraryRepository(deps.db),
    media,
    indexWaitMs: INDEX_WAIT_MS,
  });
  return {
    endpoint: new TusEndpoint({
      path,
      musicDir: options.musicDir,
      maxUploadBytes: options.maxUploadBytes,
      expirationMs: DAY_MS,
      finisher,
      logger,
    }),
    admin: new LibraryAdmin(deps.db, deps.audit, options.musicDir),
  };
}
