import express, { type Request, type RequestHandler } from 'express';
import { ApiError } from '../errors.ts';

/** A cover picture's bytes, which its route reads itself (PUT /tracks/:id/cover). */
function isCoverUpload(req: Request): boolean {
  return (
    req.method === 'PUT' &&
    /^\/tracks\/[^/]+\/cover$/.test(req.path) &&
    req.is(['image/jpeg', 'image/png']) !== false
  );
}

/**
 * Bodies are JSON only, but for a cover picture. A body of another type is refused with 415
 * instead of being ignored, which also keeps HTML forms (a classic CSRF vehicle) out. Requests
 * without a body pass.
 */
export function jsonBody(limit: string | number): RequestHandler[] {
  const requireJson: RequestHandler = (req, _res, next) => {
    const hasBody =
      req.get('transfer-encoding') !== undefined ||
      (req.get('content-length') !== undefined && req.get('content-length') !== '0');
    if (!hasBody || req.is('application/json') || isCoverUpload(req)) return next();
    next(
      new ApiError(
        'API_UNSUPPORTED_MEDIA_TYPE',
        `send the body as application/json, not ${req.get('content-type') ?? 'an untyped body'}`,
      ),
    );
  };
  return [requireJson, express.json({ limit, strict: true })];
}
