import { CommandFailedError, LogThrottle, RadioError } from '@radio/core';
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { ApiError } from '../errors.ts';

/** body-parser's error types, by what the client did wrong. */
const BODY_ERRORS: Record<string, () => ApiError> = {
  'entity.too.large': () => new ApiError('API_PAYLOAD_TOO_LARGE'),
  'entity.parse.failed': () => new ApiError('API_INVALID_JSON'),
  'encoding.unsupported': () =>
    new ApiError('API_UNSUPPORTED_MEDIA_TYPE', 'unsupported content encoding'),
  'charset.unsupported': () => new ApiError('API_UNSUPPORTED_MEDIA_TYPE', 'send the body as UTF-8'),
  'request.aborted': () => new ApiError('API_VALIDATION', 'the request body was cut short'),
  'request.size.invalid': () =>
    new ApiError('API_VALIDATION', 'the body does not match Content-Length'),
};

/** The scheduler's codes whose status the naming rule below would not get right. */
const COMMAND_STATUS: Record<string, number> = {
  SCHEDULER_PATH_OUTSIDE_LIBRARY: 400,
  SCHEDULER_UNKNOWN_VARIABLE: 400,
  SCHEDULER_TRACK_INVALID: 409,
  SCHEDULER_NOTHING_ON_AIR: 409,
  SCHEDULER_NOT_STARTED: 503,
  SCHEDULER_STOPPED: 503,
};

/**
 * The status of a command the scheduler refused, from its code: the scheduler names its
 * errors like we do (`SCHEDULER_TRACK_NOT_FOUND`), so the ending says what went wrong.
 */
function commandStatus(code: string): number {
  const known = COMMAND_STATUS[code];
  if (known !== undefined) return known;
  if (code.endsWith('_NOT_FOUND')) return 404;
  if (/_(INVALID|BAD|MALFORMED)(_|$)/.test(code)) return 400;
  if (/_(CONFLICT|BUSY|RUNNING|EXISTS|FULL|EMPTY)(_|$)/.test(code)) return 409;
  return 502;
}

/** Filesystem refusals that mean a folder is not writable for the api's user. */
const NOT_WRITABLE = new Set(['EACCES', 'EPERM', 'EROFS']);

export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof CommandFailedError) {
    if (error.code === 'INTERNAL') {
      return new ApiError('API_SCHEDULER_ERROR', `the scheduler failed: ${error.message}`, {
        cause: error,
      });
    }
    return new ApiError(error.code, error.message, {
      status: commandStatus(error.code),
      cause: error,
    });
  }
  if (error instanceof RadioError) {
    switch (error.code) {
      case 'BUS_TIMEOUT':
        return new ApiError(
          'API_SCHEDULER_UNAVAILABLE',
          `the scheduler did not answer in time: ${error.message}`,
          {
            cause: error,
            headers: { 'Retry-After': '5' },
          },
        );
      case 'BUS_UNAVAILABLE':
      case 'BUS_CLOSED':
        return new ApiError('API_BUS_UNAVAILABLE', `cannot reach the scheduler: ${error.message}`, {
          cause: error,
          headers: { 'Retry-After': '5' },
        });
      case 'BUS_INVALID_MESSAGE':
        return new ApiError('API_SCHEDULER_ERROR', error.message, { cause: error });
    }
  }
  const errno = (error as NodeJS.ErrnoException | null)?.code;
  if (errno !== undefined && NOT_WRITABLE.has(errno)) {
    // A music folder mounted read-only or owned by another user: the admin can fix it, so
    // say so rather than answer an opaque 500.
    return new ApiError(
      'API_STORAGE_NOT_WRITABLE',
      `the api may not write the music folder or DATA_DIR (${errno}): make them writable for its user (uid ${process.getuid?.() ?? '?'})`,
      { cause: error },
    );
  }
  const type = (error as { type?: unknown } | null)?.type;
  if (typeof type === 'string' && BODY_ERRORS[type]) return BODY_ERRORS[type]();
  const status = (error as { status?: unknown } | null)?.status;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    // Thrown by express or its parsers for a malformed request, e.g. a bad %-escape in the path.
    return new ApiError('API_VALIDATION', 'the request is malformed', { cause: error });
  }
  return new ApiError('API_INTERNAL', undefined, { cause: error });
}

/**
 * Refusals that may be a stranger probing the station (guessing passwords or the setup code, a
 * rebinding page, another site's form): the operator sees them at warn, once per client, code
 * and minute, with how many were held back since.
 */
const WATCHED = new Set([
  'API_INVALID_CREDENTIALS',
  'API_SETUP_CODE_INVALID',
  'API_RATE_LIMITED',
  'API_UNKNOWN_HOST',
  'API_CROSS_ORIGIN',
  'API_TOO_MANY_STREAMS',
]);

/** The one place an error becomes a response: `{"error":{"code","message"}}`, no stack. */
export function errorHandler(refusals = new LogThrottle()): ErrorRequestHandler {
  return (error, req, res, _next) => {
    const apiError = toApiError(error);
    const { code: refused, message: reason } = apiError;
    const log = req.log;
    const held = WATCHED.has(refused) ? refusals.take(`${refused} ${req.ip}`) : null;
    if (apiError.status >= 500) log.error({ err: error, code: refused }, 'request failed');
    else if (held !== null) {
      log.warn({ code: refused, reason, client: req.ip, host: req.host, held }, 'request refused');
    } else log.debug({ code: refused, reason }, 'request refused');

    if (res.headersSent) {
      // Too late for an error body (an event stream, a half-sent image): end it.
      res.end();
      return;
    }
    for (const [name, value] of Object.entries(apiError.headers)) res.setHeader(name, value);
    const { code, message, details } = apiError;
    res.status(apiError.status).json({ error: { code, message, ...(details && { details }) } });
  };
}

export function notFoundHandler(): RequestHandler {
  return (req, _res, next) =>
    next(new ApiError('API_NOT_FOUND', `no route ${req.method} ${req.path}`));
}
