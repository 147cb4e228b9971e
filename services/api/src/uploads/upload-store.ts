import { createWriteStream } from 'node:fs';
import { unlink } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { FileStore } from '@tus/file-store';
import { errorBody, uploadError } from './upload-errors.ts';

/**
 * Unfinished uploads live in a dot-folder of the music volume (MUSIC_DIR/.uploads): the
 * scheduler ignores dot-folders, and a finished upload reaches its folder by a link on the
 * same filesystem (atomic, no second copy of a 500 MB file, no doubled disk use), whereas
 * DATA_DIR may be another volume (it is in compose).
 */
export const UPLOADS_FOLDER = '.uploads';

/** The error object tus answers with (its handlers read status_code and body). */
export interface TusError {
  status_code: number;
  body: string;
}

const DISK_FULL: TusError = {
  status_code: 507,
  body: errorBody(
    uploadError(
      'UPLOAD_DISK_FULL',
      'no space left on the music volume: free some space (empty the trash?) and upload again',
    ),
  ),
};

const WRITE_FAILED: TusError = {
  status_code: 500,
  body: errorBody(uploadError('UPLOAD_FAILED', 'the upload could not be written')),
};

/** tus ids are the server's own random hex (see the endpoint's namingFunction). */
export const UPLOAD_ID = /^[0-9a-f]{32}$/;

/**
 * tus's FileStore, with a full disk told apart from other write failures (507, not 500) and
 * ids checked before they become paths.
 */
export class UploadStore extends FileStore {
  constructor(directory: string, expirationMs: number) {
    super({ directory, expirationPeriodInMilliseconds: expirationMs });
  }

  pathOf(id: string): string {
    if (!UPLOAD_ID.test(id)) throw new Error(`not an upload id: ${id}`);
    return join(this.directory, id);
  }

  override async write(
    readable: IncomingMessage | Readable,
    id: string,
    offset: number,
  ): Promise<number> {
    const target = this.pathOf(id);
    let received = 0;
    const count = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        received += chunk.length;
        done(null, chunk);
      },
    });
    try {
      // flags r+: the file exists from the creation; writes go on from the offset.
      await pipeline(readable, count, createWriteStream(target, { flags: 'r+', start: offset }));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOSPC') throw DISK_FULL;
      // A limit or an abort from tus passes through as tus sent it.
      if (typeof (error as Partial<TusError>).status_code === 'number') throw error;
      throw WRITE_FAILED;
    }
    return offset + received;
  }

  /** Drops an upload (its bytes and its info file); nothing to do if it is gone already. */
  async discard(id: string): Promise<void> {
    await unlink(this.pathOf(id)).catch(() => {});
    await this.configstore.delete(id).catch(() => {});
  }
}
