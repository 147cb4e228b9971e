import { type DetailedError, Upload } from 'tus-js-client';
import type { ResponseOf } from './paths.ts';
import { API_BASE } from './paths.ts';

/*
 * One file sent to the api's tus endpoint with tus-js-client: resumable after a dropped
 * connection (it retries on its own) and after a reload (the file's fingerprint finds the
 * unfinished upload in localStorage), in chunks well inside the servers' request timeouts.
 */

export type UploadResult = ResponseOf<'patch', '/uploads/{id}'>;

export interface UploadEvents {
  onProgress(sent: number, total: number): void;
  onResult(result: UploadResult): void;
  /** The api refused the file (its code and words); sending it again would not help. */
  onRefused(status: number, code: string, message: string): void;
  /** The upload gave up after its retries (network gone, server failing). */
  onFailed(message: string): void;
}

export interface RunningUpload {
  /** Stops sending and drops what the server has received. */
  cancel(): Promise<void>;
  /** Stops sending; the server keeps what it has, to resume from later. */
  pause(): Promise<void>;
}

const ENDPOINT = `${API_BASE}/uploads`;
/** Each PATCH carries at most this much: far inside Node's 5-minute request timeout. */
const CHUNK_BYTES = 50 * 1024 * 1024;
const RETRY_DELAYS = [0, 1000, 3000, 5000, 10_000, 20_000];

interface ErrorBody {
  error?: { code?: string; message?: string };
}

function errorOf(error: Error | DetailedError): { status: number; code: string; message: string } {
  const response = 'originalResponse' in error ? error.originalResponse : null;
  const status = response?.getStatus() ?? 0;
  let body: ErrorBody = {};
  try {
    body = JSON.parse(response?.getBody() || '{}') as ErrorBody;
  } catch {
    body = {};
  }
  return {
    status,
    code: body.error?.code ?? (status === 0 ? 'WEB_NETWORK' : `HTTP_${status}`),
    message: body.error?.message ?? (status === 0 ? 'the connection was lost' : error.message),
  };
}

/**
 * Retried: a lost connection, a server error (not a full disk), an offset conflict or a lock
 * (tus asks HEAD and goes on). Never retried: a refusal, which would only happen again.
 */
function shouldRetry(error: DetailedError): boolean {
  const { status, code } = errorOf(error);
  if (status === 0 || status === 423) return true;
  if (status === 409) return code === 'UPLOAD_OFFSET_CONFLICT';
  return status >= 500 && status !== 507;
}

/** Starts (or resumes) sending `file` into `folder` ('' for the top of the music folder). */
export async function startUpload(
  file: File,
  folder: string,
  events: UploadEvents,
): Promise<RunningUpload> {
  const upload = new Upload(file, {
    endpoint: ENDPOINT,
    metadata: { filename: file.name, folder },
    chunkSize: CHUNK_BYTES,
    retryDelays: RETRY_DELAYS,
    storeFingerprintForResuming: true,
    removeFingerprintOnSuccess: true,
    onShouldRetry: (error) => shouldRetry(error),
    onProgress: (sent, total) => events.onProgress(sent, total),
    onSuccess: ({ lastResponse }) => {
      try {
        events.onResult(JSON.parse(lastResponse.getBody()) as UploadResult);
      } catch {
        events.onFailed('the station answered something unexpected');
      }
    },
    onError: (error) => {
      const { status, code, message } = errorOf(error);
      if (status >= 400 && status < 500) events.onRefused(status, code, message);
      else if (status === 507) events.onRefused(status, code, message);
      else events.onFailed(message);
    },
  });
  // The same file (name, type, size, date) begun before a reload continues where it stopped.
  const previous = await upload.findPreviousUploads();
  const latest = previous.sort((a, b) => b.creationTime.localeCompare(a.creationTime))[0];
  if (latest) upload.resumeFromPreviousUpload(latest);
  upload.start();
  return { cancel: () => upload.abort(true), pause: () => upload.abort(false) };
}
