import type { Request, RequestHandler } from 'express';
import { ApiError } from '../errors.ts';
import type { StationOrigins } from '../http/station-origins.ts';

export const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The request's own origin as the trusted proxies give it (X-Forwarded-Proto and -Host). */
function ownOrigin(req: Request): string | null {
  return req.host === undefined ? null : `${req.protocol}://${req.host}`;
}

/**
 * Refuses state-changing requests a browser sends on behalf of another site (CSRF), on top of
 * the SameSite=Lax cookie. Browsers send `Origin` on such requests, and `Sec-Fetch-Site`
 * too; programs (curl, scripts) send neither and are let through: they carry no victim's cookie.
 */
export function sameOriginOnly(origins: StationOrigins): RequestHandler {
  return (req, _res, next) => {
    if (SAFE_METHODS.has(req.method)) return next();
    const origin = req.get('origin');
    if (origin !== undefined) {
      if (origins.allowsOrigin(origin, ownOrigin(req))) return next();
      return next(
        new ApiError(
          'API_CROSS_ORIGIN',
          `requests from ${origin.slice(0, 200)} may not change anything here (see PUBLIC_URL and ALLOWED_ORIGINS)`,
        ),
      );
    }
    const site = req.get('sec-fetch-site');
    if (site !== undefined && site !== 'same-origin' && site !== 'none') {
      return next(new ApiError('API_CROSS_ORIGIN'));
    }
    next();
  };
}
