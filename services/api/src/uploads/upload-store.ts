import { mkdir, open, unlink } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
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
  /** The folder's creation: null once it exists, else why it cannot be made. */
  readonly ready: Promise<NodeJS.ErrnoException | null>;

  constructor(directory: string, expirationMs: number) {
    super({ directory, expirationPeriodInMilliseconds: expirationMs });
    // Not recursive: on a read-only mount a recursive mkdir reports ENOENT, not EROFS.
    this.ready = mkdir(directory).then(
      () => null,
      (error: NodeJS.ErrnoException) => (error.code === 'EEXIST' ? null : error),
    );
  }

  pathOf(id: string): string {
    if (!UPLOAD_ID.test(id)) throw new Error(`not an upload id: ${id}`);
    return join(this.directory, id);
  }

  /**
   * Appends the body at `offset`. A full disk does not cut the request: the rest of the body
   * is read and dropped, so the client (a browser's XHR included) gets the 507 instead of a
   * reset connection; tus then drops the upload (see the endpoint's error answer).
   */
  override async write(
    readable: IncomingMessage | Readable,
    id: string,
    offset: number,
  ): Promise<number> {
    const file = await open(this.pathOf(id), 'r+');
    let position = offset;
    let full = false;
    try {
      for await (const chunk of readable as AsyncIterable<Buffer>) {
        if (full) continue;
        try {
          await file.write(chunk, 0, chunk.length, position);
          position += chunk.length;
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
          full = true;
        }
      }
    } catch (error) {
      // A limit or an abort from tus passes through as tus sent it.
      if (typeof (error as Partial<TusError>).status_code === 'number') throw error;
      throw WRITE_FAILED;
    } finally {
      await file.close();
    }
    if (full) throw DISK_FULL;
    return position;
  }

  /** Drops an upload (its bytes and its info file); nothing to do if it is gone already. */
  async discard(id: string): Promise<void> {
    await unlink(this.pathOf(id)).catch(() => {});
    await this.configstore.delete(id).catch(() => {});
  }
}

/*
 * tus's FileStore makes its folder from its constructor and throws from the fs callback when
 * it cannot (a music folder read-only for the api), which would end the process. Its method is
 * private in the typings, so it is replaced here: UploadStore's constructor makes the folder
 * instead and keeps the failure for `ready`.
 */
Object.defineProperty(UploadStore.prototype, 'checkOrCreateDirectory', { value: () => {} });
