import { RadioError } from '@radio/core';

/*
 * Every refusal the stream server sends, in one table (as Icecast's errors.c): a stable code,
 * the HTTP status and the message. Texts and body styles are Icecast 2.4.4's where Icecast has
 * the case, so clients that match on them keep working. `plain` bodies are text/plain (what
 * Icecast sends for authentication and source/listener refusals), `html` ones its small HTML
 * page.
 */
export const ERRORS = {
  STREAM_BAD_REQUEST: { status: 400, body: 'html', message: 'unknown request' },
  STREAM_HEADER_TOO_LARGE: { status: 431, body: 'html', message: 'Request header too large' },
  STREAM_NOT_FOUND: {
    status: 404,
    body: 'html',
    message: 'The file you requested could not be found',
  },
  STREAM_METHOD_NOT_ALLOWED: { status: 405, body: 'html', message: 'Method not allowed' },
  STREAM_AUTH_REQUIRED: { status: 401, body: 'plain', message: 'You need to authenticate\r\n' },
  STREAM_MOUNT_IN_USE: { status: 403, body: 'plain', message: 'Mountpoint in use' },
  STREAM_NO_CONTENT_TYPE: { status: 403, body: 'plain', message: 'No Content-type given' },
  STREAM_BAD_MOUNT: { status: 403, body: 'plain', message: 'Invalid mountpoint' },
  STREAM_SOURCE_LIMIT: { status: 403, body: 'plain', message: 'too many sources connected' },
  STREAM_MAX_LISTENERS: { status: 403, body: 'plain', message: 'max listeners reached' },
  STREAM_SERVER_FULL: { status: 403, body: 'plain', message: 'Icecast connection limit reached' },
  STREAM_SHUTTING_DOWN: { status: 503, body: 'plain', message: 'Server is shutting down' },
  STREAM_LOGIN_LIMITED: {
    status: 429,
    body: 'plain',
    message: 'too many failed logins; try again later',
  },
  STREAM_CLIENT_LIMIT: {
    status: 429,
    body: 'plain',
    message: 'too many connections from your address',
  },
  ADMIN_UNKNOWN_COMMAND: { status: 400, body: 'html', message: 'Unrecognised command' },
  ADMIN_UNKNOWN_REQUEST: { status: 400, body: 'html', message: 'Unknown admin request' },
  ADMIN_NO_SUCH_SOURCE: { status: 400, body: 'html', message: 'Source does not exist' },
  ADMIN_MISSING_PARAMETER: { status: 400, body: 'html', message: 'Missing parameter' },
  ADMIN_NO_SUCH_DESTINATION: { status: 400, body: 'html', message: 'No such destination' },
  ADMIN_SAME_MOUNT: { status: 400, body: 'html', message: 'supplied mountpoints are identical' },
  ADMIN_FORMAT_MISMATCH: {
    status: 400,
    body: 'html',
    message: 'destination has a different content type',
  },
  ADMIN_MOUNT_REQUEST_UNKNOWN: { status: 400, body: 'html', message: 'Mount request unknown' },
  ADMIN_CROSS_SITE: { status: 403, body: 'plain', message: 'Cross-site request refused' },
  STREAM_INTERNAL: { status: 500, body: 'html', message: 'Internal server error' },
} as const satisfies Record<string, { status: number; body: 'html' | 'plain'; message: string }>;

export type StreamErrorCode = keyof typeof ERRORS;

/** A refusal with its code from the table; `errorReply` turns it into the response. */
export class StreamError extends RadioError {
  readonly status: number;

  constructor(code: StreamErrorCode, message?: string) {
    super(code, message ?? ERRORS[code].message.trim());
    this.status = ERRORS[code].status;
  }
}

/** Options are checked up front; a bad one stops `createStreamServer` with this. */
export class StreamConfigError extends RadioError {
  constructor(message: string) {
    super('STREAM_INVALID_OPTIONS', message);
  }
}

/** `start` on a server that was started or closed before: a closed server is not reopened. */
export class StreamStateError extends RadioError {
  constructor(message: string) {
    super('STREAM_NOT_RESTARTABLE', message);
  }
}

export function isStreamErrorCode(code: string): code is StreamErrorCode {
  return Object.hasOwn(ERRORS, code);
}
