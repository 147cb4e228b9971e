import type { RequestHandler } from 'express';
import { ApiError } from '../errors.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Refuses state-changing requests a browser sends on behalf of another site (CSRF), on top of
 * the SameSite=Lax cookie. Browsers send `Origin` on such requests, and `Sec-Fetch-Site`
 * too; programs (curl, scripts) send neither and are let through: they carry no victim's cookie.
 */
export function sameOriginOnly(allowedOrigins: readonly string[]): RequestHandler {
  const allowed = new Set(allowedOrigins.map((origin) => origin.replace(/\/+$/, '').toLowerCase()));
  return (req, _res, next) => {
    if (SAFE_METHODS.has(req.method)) return next();
    const origin = req.get('origin');
    if (origin !== undefined) {
      const own = `${req.protocol}://${req.host}`.toLowerCase();
      const theirs = origin.toLowerCase();
      if (theirs === own || allowed.has(theirs)) return next();
      return next(
        new ApiError('API_CROSS_ORIGIN', `requests from ${origin} may not change anything here`),
      );
    }
    const site = req.get('sec-fetch-site');
    if (site !== undefined && site !== 'same-origin' && site !== 'none') {
      return next(new ApiError('API_CROSS_ORIGIN'));
    }
    next();
  };
}
