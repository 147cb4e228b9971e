import type { RequestHandler } from 'express';
import type { Role } from '../dtos/users.dto.ts';
import { ApiError } from '../errors.ts';

/** Who may call a route: anyone, any logged-in user, a dj (or admin), an admin. */
export type Access = 'public' | 'session' | 'dj' | 'admin';

const ROLES: Record<Exclude<Access, 'public' | 'session'>, readonly Role[]> = {
  dj: ['dj', 'admin'],
  admin: ['admin'],
};

export function requireAccess(access: Access): RequestHandler {
  if (access === 'public') return (_req, _res, next) => next();
  return (req, _res, next) => {
    const user = req.user;
    if (user === null) return next(new ApiError('API_UNAUTHENTICATED'));
    if (access === 'session') return next();
    if (!ROLES[access].includes(user.role)) {
      return next(
        new ApiError(
          'API_FORBIDDEN',
          `this needs the role ${ROLES[access].join(' or ')}; you are ${user.role}`,
        ),
      );
    }
    next();
  };
}
