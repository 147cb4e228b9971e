import { credentialOf } from '@radio/core';
import type { Request, RequestHandler, Response } from 'express';
import session from 'express-session';
import { ApiError } from '../errors.ts';

export interface SessionSettings {
  secret: string | string[];
  store: session.Store;
  cookieName: string;
  cookiePath: string;
  maxAgeMs: number;
  /** 'auto': Secure when the request came over HTTPS (as a trusted proxy reports it). */
  secure: boolean | 'auto';
  sameSite: 'lax' | 'strict';
}

export function sessionMiddleware(settings: SessionSettings): RequestHandler {
  const handler = session({
    name: settings.cookieName,
    secret: settings.secret,
    store: settings.store,
    // Only sessions that hold something are stored and get a cookie: anonymous requests
    // cost no write.
    resave: false,
    saveUninitialized: false,
    // Every answer pushes the expiry forward: a session ends after maxAge of inactivity.
    rolling: true,
    cookie: {
      httpOnly: true,
      sameSite: settings.sameSite,
      secure: settings.secure,
      path: settings.cookiePath,
      maxAge: settings.maxAgeMs,
    },
  });
  // Only the store's own failures: an error from an earlier middleware passes by untouched.
  return (req, res, next) =>
    handler(req, res, (error?: unknown) => {
      if (error === undefined || error === null) return next();
      next(
        new ApiError('API_SESSIONS_UNAVAILABLE', undefined, {
          cause: error,
          headers: { 'Retry-After': '5' },
        }),
      );
    });
}

function promised(run: (done: (error?: unknown) => void) => void): Promise<void> {
  return new Promise((resolve, reject) => run((error) => (error ? reject(error) : resolve())));
}

/** Logs the user in: a new session id (no fixation), then the user and their credential. */
export async function startSession(
  req: Request,
  user: { id: number; password_hash: string },
): Promise<void> {
  await promised((done) => req.session.regenerate(done));
  req.session.userId = user.id;
  req.session.credential = credentialOf(user.password_hash);
  await promised((done) => req.session.save(done));
}

/** Keeps the current session valid after the user's own password change. */
export async function refreshCredential(req: Request, passwordHash: string): Promise<void> {
  req.session.credential = credentialOf(passwordHash);
  await promised((done) => req.session.save(done));
}

/** Logs out: the stored session is deleted and the cookie cleared. */
export async function endSession(
  req: Request,
  res: Response,
  settings: SessionSettings,
): Promise<void> {
  await promised((done) => req.session.destroy(done));
  res.clearCookie(settings.cookieName, {
    path: settings.cookiePath,
    httpOnly: true,
    sameSite: settings.sameSite,
    secure: settings.secure === 'auto' ? req.secure : settings.secure,
  });
}
