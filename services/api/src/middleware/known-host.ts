import type { RequestHandler } from 'express';
import { ApiError } from '../errors.ts';
import type { StationOrigins } from '../http/station-origins.ts';
import { SAFE_METHODS } from './same-origin.ts';

/**
 * Refuses a change without a session (login, registration, the first admin's setup) sent to a
 * host name the station does not answer to: that is how a DNS-rebinding page reaches a
 * station on a LAN. A logged-in request passes under any name, since a browser only sends the
 * session cookie to the name that set it. Runs after the session's user is loaded.
 */
export function strangersOnKnownHosts(origins: StationOrigins): RequestHandler {
  return (req, _res, next) => {
    if (SAFE_METHODS.has(req.method) || req.user !== null || origins.answersTo(req.host)) {
      return next();
    }
    const host = (req.host ?? '').slice(0, 200);
    next(
      new ApiError(
        'API_UNKNOWN_HOST',
        `this station does not answer to "${host}" before login: set PUBLIC_URL to the address it is reached at, or add that origin to ALLOWED_ORIGINS`,
      ),
    );
  };
}
