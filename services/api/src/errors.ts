import { RadioError } from '@radio/core';

/**
 * Every error the api answers with on purpose: a stable code, its HTTP status and the default
 * message. The error handler (middleware/error-handler.ts) is the one place that turns an error
 * into a response (`{"error":{"code","message"}}`); tests compare the code, never the words.
 */
export const API_ERRORS = {
  API_VALIDATION: { status: 400, message: 'the request is not valid' },
  API_INVALID_JSON: { status: 400, message: 'the request body is not valid JSON' },
  API_MALFORMED_REQUEST: { status: 400, message: 'the request is not valid HTTP' },
  API_UNAUTHENTICATED: { status: 401, message: 'log in first' },
  API_INVALID_CREDENTIALS: { status: 401, message: 'wrong user name or password' },
  API_WRONG_PASSWORD: { status: 403, message: 'the current password is wrong' },
  API_FORBIDDEN: { status: 403, message: 'your role does not allow this' },
  API_CROSS_ORIGIN: {
    status: 403,
    message: 'state-changing requests from another origin are refused',
  },
  API_UNKNOWN_HOST: {
    status: 403,
    message:
      'this station does not answer to that host name; set PUBLIC_URL (or add the origin to ALLOWED_ORIGINS) to use it',
  },
  API_SETUP_CODE_INVALID: { status: 403, message: 'the setup code is wrong' },
  API_ACCOUNT_DISABLED: { status: 403, message: 'this account is disabled' },
  API_DJ_DISABLED: { status: 403, message: 'this DJ account is disabled' },
  API_REGISTRATION_CLOSED: { status: 403, message: 'registration is closed on this station' },
  API_NOT_FOUND: { status: 404, message: 'no such route' },
  API_USER_NOT_FOUND: { status: 404, message: 'no such user' },
  API_TRACK_NOT_FOUND: { status: 404, message: 'no such track' },
  API_COVER_NOT_FOUND: { status: 404, message: 'this track has no cover art' },
  API_PLAYLIST_NOT_FOUND: { status: 404, message: 'no such playlist' },
  API_PLAYLIST_ITEM_NOT_FOUND: { status: 404, message: 'no such item in this playlist' },
  API_TRASH_NOT_FOUND: { status: 404, message: 'no such entry in the trash' },
  API_DJ_ACCOUNT_NOT_FOUND: { status: 404, message: 'this user has no broadcast credentials' },
  API_RECORDING_NOT_FOUND: { status: 404, message: 'no such recording' },
  API_SCHEDULE_NOT_FOUND: { status: 404, message: 'no such schedule entry' },
  API_REQUEST_NOT_FOUND: { status: 404, message: 'no such request' },
  SCHEDULE_OVERLAP: {
    status: 409,
    message: 'this overlaps another schedule entry of the same priority',
  },
  REQUESTS_DISABLED: { status: 403, message: 'requests are turned off on this station' },
  REQUEST_RECENTLY_PLAYED: { status: 409, message: 'this track played too recently' },
  REQUEST_ALREADY_REQUESTED: { status: 409, message: 'this track was requested already' },
  REQUEST_TRACK_SEPARATION: { status: 409, message: 'this track played too recently' },
  REQUEST_ARTIST_SEPARATION: { status: 409, message: 'this artist played too recently' },
  REQUEST_TOO_MANY_PENDING: { status: 429, message: 'you have too many pending requests' },
  REQUEST_HOURLY_LIMIT: { status: 429, message: 'you made too many requests this hour' },
  API_USERNAME_TAKEN: { status: 409, message: 'this user name is taken' },
  API_SETUP_DONE: { status: 409, message: 'the station has an admin already; log in instead' },
  API_BROADCAST_USERNAME_TAKEN: { status: 409, message: 'this broadcast user name is taken' },
  API_DJ_ACCOUNT_EXISTS: { status: 409, message: 'this user has broadcast credentials already' },
  API_DJ_ROLE_REQUIRED: { status: 409, message: 'give the user the dj role first' },
  API_RECORDING_IN_PROGRESS: { status: 409, message: 'the show is still on air' },
  API_LAST_ADMIN: { status: 409, message: 'the station needs at least one active admin' },
  API_CONFLICT: { status: 409, message: 'the request conflicts with the current state' },
  API_FILE_MISSING: { status: 409, message: "the track's file is not in the music folder" },
  API_PATH_TAKEN: { status: 409, message: 'a file or folder of that name exists already' },
  API_PAYLOAD_TOO_LARGE: { status: 413, message: 'the request body is too large' },
  API_UNSUPPORTED_MEDIA_TYPE: { status: 415, message: 'send the request body as application/json' },
  API_FORMAT_UNSUPPORTED: {
    status: 415,
    message: 'this file or image format is not supported here',
  },
  API_TAG_WRITE_FAILED: { status: 422, message: 'the tags could not be written to the file' },
  API_UPGRADE_REQUIRED: { status: 426, message: 'open this address as a WebSocket' },
  API_HEADERS_TOO_LARGE: { status: 431, message: 'the request headers (or the URL) are too large' },
  API_RATE_LIMITED: { status: 429, message: 'too many attempts; try again later' },
  API_TOO_MANY_STREAMS: {
    status: 429,
    message: 'too many event streams from your address; close one (another tab) first',
  },
  API_INTERNAL: { status: 500, message: 'internal error' },
  API_SCHEDULER_ERROR: { status: 502, message: 'the scheduler failed to carry out the command' },
  API_SCHEDULER_UNAVAILABLE: { status: 503, message: 'the scheduler did not answer' },
  API_BUS_UNAVAILABLE: { status: 503, message: 'the message bus is unavailable' },
  API_SESSIONS_UNAVAILABLE: { status: 503, message: 'the session store is unavailable' },
  API_STORAGE_NOT_WRITABLE: {
    status: 503,
    message: 'the api may not write its files there (a read-only mount, or another owner)',
  },
  API_TOO_MANY_LISTENERS: { status: 503, message: 'too many live event clients' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ApiErrorCode = keyof typeof API_ERRORS;

export interface ApiErrorOptions extends ErrorOptions {
  /** Response headers that go with the error (`Retry-After`). */
  headers?: Record<string, string>;
  /** Facts a client acts on, sent as `error.details` (the other entry of an overlap). */
  details?: Record<string, unknown>;
}

/**
 * An error to answer with. `code` is one of API_ERRORS, except for commands the scheduler
 * refused: their code is the scheduler's own (`SCHEDULER_TRACK_NOT_FOUND`), passed through so
 * clients see the real reason.
 */
export class ApiError extends RadioError {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly details: Record<string, unknown> | undefined;

  constructor(code: ApiErrorCode, message?: string, options?: ApiErrorOptions);
  constructor(code: string, message: string, options: ApiErrorOptions & { status: number });
  constructor(code: string, message?: string, options: ApiErrorOptions & { status?: number } = {}) {
    const known = (API_ERRORS as Record<string, { status: number; message: string }>)[code];
    super(code, message ?? known?.message ?? code, options);
    this.status = options.status ?? known?.status ?? 500;
    this.headers = options.headers ?? {};
    this.details = options.details;
  }
}

/** `start` on an api that was started or closed before: a closed api is not reopened. */
export class ApiStateError extends RadioError {
  constructor(message: string) {
    super('API_NOT_RESTARTABLE', message);
  }
}
