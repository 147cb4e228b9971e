import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import type { Logger } from '@radio/core';
import { MemoryLocker, Server, type ServerOptions, type Upload } from '@tus/server';
import express, { type Request, type RequestHandler, type Router } from 'express';
import { ApiError } from '../errors.ts';
import { toApiError } from '../middleware/error-handler.ts';
import { requireAccess } from '../middleware/require-role.ts';
import { errorBody, type UploadErrorCode, uploadError } from './upload-errors.ts';
import type { UploadFinisher } from './upload-finish.ts';
import { parseUploadMetadata, uploadTarget } from './upload-names.ts';
import { type TusError, UPLOAD_ID, UPLOADS_FOLDER, UploadStore } from './upload-store.ts';

export interface TusEndpointOptions {
  /** Where the endpoint is mounted: `/api/radio/uploads`. */
  path: string;
  musicDir: string;
  maxUploadBytes: number;
  /** Unfinished uploads older than this are removed (tus's expiration). */
  expirationMs: number;
  finisher: UploadFinisher;
  logger: Logger;
}

type TusRequest = Parameters<NonNullable<ServerOptions['onUploadFinish']>>[0];

const JSON_TYPE = 'application/json; charset=utf-8';
const HOUR_MS = 60 * 60 * 1000;
const MB = 1024 * 1024;

/** tus 1.0 only: a request without the header is not a tus client's. */
function checkProtocol(req: Request): void {
  if (req.get('tus-resumable') === undefined) {
    throw new ApiError('API_VALIDATION', 'send Tus-Resumable: 1.0.0 (this is a tus 1.0 endpoint)');
  }
}

/** The express request behind tus's web Request (srvx keeps it). */
function expressRequest(req: TusRequest): Request {
  const node = (req as { runtime?: { node?: { req?: IncomingMessage } } }).runtime?.node?.req;
  if (!node) throw new Error('the tus request has no Node request behind it');
  return node as Request;
}

function tusError(error: ApiError): TusError {
  return { status_code: error.status, body: errorBody(error) };
}

/** tus's own plain-text refusals, in the api's error shape. */
function codeForStatus(status: number): UploadErrorCode {
  const byStatus: Partial<Record<number, UploadErrorCode>> = {
    404: 'UPLOAD_NOT_FOUND',
    409: 'UPLOAD_OFFSET_CONFLICT',
    410: 'UPLOAD_GONE',
    413: 'UPLOAD_TOO_LARGE',
    507: 'UPLOAD_DISK_FULL',
  };
  return byStatus[status] ?? (status >= 500 ? 'UPLOAD_FAILED' : 'UPLOAD_BAD_REQUEST');
}

/**
 * tus answers errors with a plain-text type; ours carry JSON. Error answers are retyped as
 * they are written (srvx writes the head with an array of raw header pairs).
 */
function answerErrorsAsJson(res: ServerResponse): void {
  const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse;
  res.writeHead = ((status: number, ...rest: unknown[]) => {
    if (status >= 400) {
      for (const part of rest) {
        if (!Array.isArray(part)) continue;
        for (let i = 0; i < part.length - 1; i += 2) {
          if (String(part[i]).toLowerCase() === 'content-type') part[i + 1] = JSON_TYPE;
        }
      }
    }
    return writeHead(status, ...rest);
  }) as ServerResponse['writeHead'];
}

/**
 * The tus 1.0 endpoint (@tus/server on a FileStore in MUSIC_DIR/.uploads): admins and DJs
 * create an upload with its filename and folder, send its bytes in one or more PATCHes
 * (resumable after a dropped connection), and the PATCH that completes it is answered with
 * the UploadResult. Requests are checked before tus reads a byte: the session and role,
 * the name (400), the extension (415), the declared length (413, 422 when empty).
 */
export class TusEndpoint {
  readonly store: UploadStore;
  readonly #server: Server;
  readonly #options: TusEndpointOptions;
  #cleanup: NodeJS.Timeout | null = null;

  constructor(options: TusEndpointOptions) {
    this.#options = options;
    this.store = new UploadStore(join(options.musicDir, UPLOADS_FOLDER), options.expirationMs);
    this.#server = new Server({
      path: options.path,
      datastore: this.store,
      maxSize: options.maxUploadBytes,
      // The browser reaches the api through the web server's proxy: a relative Location
      // resolves against the URL the browser used, whatever host the api thinks it has.
      relativeLocation: true,
      namingFunction: () => randomBytes(16).toString('hex'),
      // One api process writes the music folder: its locks can live in memory.
      locker: new MemoryLocker(),
      onUploadCreate: async (req, upload) => this.#created(req, upload),
      onUploadFinish: async (req, upload) => this.#finished(req, upload),
      onResponseError: async (req, error) => this.#answerError(req, error),
    });
  }

  /**
   * The tus routes for the api's router (mounted before the JSON parser), each behind `auth`
   * (the session and its user), the role check and this endpoint's own checks.
   */
  router(auth: readonly RequestHandler[]): Router {
    const router = express.Router();
    const gate = [...auth, requireAccess('dj')];
    const toTus: RequestHandler = (req, res, next) => {
      // tus matches its path against the whole URL (express cut the mount point off), and
      // takes an upload's id from the URL's end, query included: it gets the path alone, so
      // it acts on the upload this router checked.
      req.url = req.originalUrl.split(/[?#]/, 1)[0] as string;
      answerErrorsAsJson(res);
      this.#server.handle(req, res).catch(next);
    };
    const checkCreation: RequestHandler = async (req, _res, next) => {
      this.#checkCreation(req);
      const unwritable = await this.store.ready;
      if (unwritable) throw unwritable;
      next();
    };
    const checkUpload: RequestHandler = async (req, _res, next) => {
      await this.#checkUpload(req);
      next();
    };
    const base = this.#options.path.slice(this.#options.path.lastIndexOf('/'));
    router.options(base, ...gate, toTus);
    router.post(base, ...gate, checkCreation, toTus);
    router.head(`${base}/:id`, ...gate, checkUpload, toTus);
    router.patch(`${base}/:id`, ...gate, checkUpload, toTus);
    router.delete(`${base}/:id`, ...gate, checkUpload, toTus);
    return router;
  }

  /** Removes unfinished uploads past their expiry now, then every hour. */
  start(): void {
    const sweep = (): void => {
      this.#server.cleanUpExpiredUploads().then(
        (removed) => {
          if (removed > 0) this.#options.logger.info({ removed }, 'expired uploads removed');
        },
        (error: unknown) =>
          this.#options.logger.warn({ err: error }, 'cannot remove expired uploads'),
      );
    };
    void this.store.ready.then((error) => {
      if (error) {
        this.#options.logger.warn(
          { err: error },
          'the music folder is not writable for the api: uploads answer 503 until it is',
        );
      }
    });
    sweep();
    this.#cleanup = setInterval(sweep, HOUR_MS);
    this.#cleanup.unref();
  }

  stop(): void {
    if (this.#cleanup) clearInterval(this.#cleanup);
    this.#cleanup = null;
  }

  /** The creation's headers, checked so that a refusal costs the client no upload. */
  #checkCreation(req: Request): void {
    checkProtocol(req);
    const length = req.get('upload-length');
    if (length === undefined && req.get('upload-defer-length') !== '1') {
      throw new ApiError('API_VALIDATION', 'send Upload-Length (or Upload-Defer-Length: 1)');
    }
    if (length !== undefined) {
      if (!/^\d{1,15}$/.test(length)) {
        throw uploadError('UPLOAD_BAD_REQUEST', 'Upload-Length must be a whole number of bytes');
      }
      const bytes = Number(length);
      if (bytes === 0) throw uploadError('UPLOAD_EMPTY_FILE', 'the file is empty');
      if (bytes > this.#options.maxUploadBytes) {
        throw uploadError(
          'UPLOAD_TOO_LARGE',
          `the file is ${(bytes / MB).toFixed(1)} MB; this station takes up to ${this.#options.maxUploadBytes / MB} MB (MAX_UPLOAD_MB)`,
        );
      }
    }
    const metadata = parseUploadMetadata(req.get('upload-metadata'));
    if (metadata === null) {
      throw uploadError('UPLOAD_BAD_REQUEST', 'Upload-Metadata is not valid tus metadata');
    }
    uploadTarget(metadata);
  }

  /** The upload remembers who made it and its checked name. */
  async #created(req: TusRequest, upload: Upload): Promise<{ metadata: Upload['metadata'] }> {
    const user = expressRequest(req).user;
    const target = uploadTarget(upload.metadata ?? {});
    return {
      metadata: {
        filename: target.name,
        folder: target.folder,
        userId: String(user?.id ?? ''),
      },
    };
  }

  /** An upload exists; a DJ resumes, reads or cancels only their own, an admin any. */
  async #checkUpload(req: Request): Promise<void> {
    if (/[?#]/.test(req.originalUrl)) {
      throw uploadError('UPLOAD_BAD_REQUEST', 'an upload is named by its path alone: no query');
    }
    const id = String(req.params.id);
    if (!/^[0-9a-f]{1,64}$/.test(id)) throw new ApiError('API_VALIDATION', 'not an upload id');
    const upload = UPLOAD_ID.test(id) ? await this.store.getUpload(id).catch(() => null) : null;
    if (upload === null)
      throw uploadError('UPLOAD_NOT_FOUND', 'no such upload (finished, cancelled or expired)');
    const user = req.user;
    if (user?.role !== 'admin' && upload.metadata?.userId !== String(user?.id)) {
      throw uploadError('UPLOAD_NOT_YOURS', 'this upload was started by another user');
    }
    checkProtocol(req);
  }

  async #finished(
    req: TusRequest,
    upload: Upload,
  ): Promise<{ status_code: number; headers: Record<string, string>; body: string }> {
    const request = expressRequest(req);
    const log = request.log;
    const headers = { 'Content-Type': JSON_TYPE, 'Cache-Control': 'no-store' };
    try {
      const user = request.user;
      if (!user) throw uploadError('UPLOAD_NOT_YOURS', 'log in first');
      const target = uploadTarget(upload.metadata ?? {});
      const result = await this.#options.finisher.finish(
        this.store.pathOf(upload.id),
        target,
        { id: user.id, username: user.username },
        log,
      );
      return { status_code: 200, headers, body: JSON.stringify(result) };
    } catch (error) {
      const apiError = toApiError(error);
      if (apiError.status >= 500) log.error({ err: error }, 'upload failed');
      else log.info({ code: apiError.code, reason: apiError.message }, 'upload refused');
      return { status_code: apiError.status, headers, body: errorBody(apiError) };
    } finally {
      // Added (linked into place), duplicate or refused: the upload's own copy goes.
      await this.store.discard(upload.id);
    }
  }

  /** Any error tus answers, in the api's JSON shape; an upload over a limit is dropped. */
  async #answerError(req: TusRequest, error: Error | TusError): Promise<TusError> {
    const status = 'status_code' in error ? error.status_code : 500;
    const body = 'body' in error && typeof error.body === 'string' ? error.body : '';
    if (status >= 500 && status !== 507) {
      this.#options.logger.error({ err: error, url: req.url }, 'upload request failed');
    }
    const id = new URL(req.url).pathname.split('/').pop() ?? '';
    if ((status === 413 || status === 507) && req.method === 'PATCH' && UPLOAD_ID.test(id)) {
      // Over the limit or out of space: it cannot complete; its bytes go now, not in a day.
      await this.store.discard(id);
    }
    if (body.startsWith('{')) return { status_code: status, body };
    const code = codeForStatus(status);
    const message =
      status === 413
        ? `the upload is larger than it declared or than this station takes (${this.#options.maxUploadBytes / MB} MB, MAX_UPLOAD_MB)`
        : body.trim() || (error as Error).message || 'the upload failed';
    return tusError(uploadError(code, message));
  }
}
