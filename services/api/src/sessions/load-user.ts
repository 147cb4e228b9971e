import { credentialOf } from '@radio/core';
import type { RequestHandler } from 'express';
import { toUserDto } from '../dtos/mappers.ts';
import type { UserCache } from './user-cache.ts';

/**
 * Sets `req.user` from the session. The account is checked on every request, so a disabled or
 * deleted account, or a changed password, ends its sessions at once (see UserCache).
 */
export function loadUser(users: UserCache): RequestHandler {
  return async (req, _res, next) => {
    req.user = null;
    const userId = req.session?.userId;
    if (userId === undefined) return next();
    const row = await users.get(userId);
    const valid =
      row !== undefined &&
      row.disabled === 0 &&
      credentialOf(row.password_hash) === req.session.credential;
    if (!valid) {
      delete req.session.userId;
      delete req.session.credential;
      return next();
    }
    req.user = toUserDto(row);
    next();
  };
}
