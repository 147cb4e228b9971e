import type { FirstAdmin } from '../auth/first-admin.ts';
import {
  loginBody,
  registerBody,
  setupBody,
  updateMeBody,
  userResponse,
} from '../dtos/auth.dto.ts';
import { toUserDto } from '../dtos/mappers.ts';
import type { ApiRouter } from '../routing.ts';
import type { AuthService } from '../services/auth.service.ts';
import {
  endSession,
  refreshCredential,
  type SessionSettings,
  startSession,
} from '../sessions/session.ts';

export function authController(
  routes: ApiRouter,
  services: { auth: AuthService; firstAdmin: FirstAdmin },
  session: SessionSettings,
): void {
  const { auth, firstAdmin } = services;
  routes.post(
    '/auth/setup',
    {
      tag: 'auth',
      summary: 'Create the first admin with the setup code, and log in',
      description:
        'Only while the station has no admin (auth-status says setupRequired). The code is ' +
        'SETUP_CODE, or the one the api prints at start. 403 API_SETUP_CODE_INVALID for a wrong ' +
        'code (wrong codes are limited per client: 429), 409 API_SETUP_DONE once there is an admin.',
      access: 'public',
      body: setupBody,
      status: 201,
      response: userResponse,
      errors: [403, 409, 429],
    },
    async ({ body, req }) => {
      const user = await firstAdmin.complete(body, req.ip ?? 'unknown');
      await startSession(req, user);
      return { user: toUserDto(user) };
    },
  );

  routes.post(
    '/auth/register',
    {
      tag: 'auth',
      summary: 'Create an account and log in',
      description:
        'Only while registration is open. Every account made here is a listener; the first admin comes from POST /auth/setup.',
      access: 'public',
      body: registerBody,
      status: 201,
      response: userResponse,
      errors: [403, 409, 429],
    },
    async ({ body, req }) => {
      const user = await auth.register(body, req.ip ?? 'unknown');
      await startSession(req, user);
      return { user: toUserDto(user) };
    },
  );

  routes.post(
    '/auth/login',
    {
      tag: 'auth',
      summary: 'Log in',
      description:
        'Sets the session cookie (a new session id). Failed logins are limited per client address and per account.',
      access: 'public',
      body: loginBody,
      response: userResponse,
      errors: [401, 403, 429],
    },
    async ({ body, req }) => {
      const user = await auth.login(body, req.ip ?? 'unknown');
      await startSession(req, user);
      return { user: toUserDto(user) };
    },
  );

  routes.post(
    '/auth/logout',
    {
      tag: 'auth',
      summary: 'Log out',
      description: 'Deletes the session.',
      access: 'session',
      status: 204,
    },
    async ({ req, res }) => {
      await endSession(req, res, session);
      return undefined;
    },
  );

  routes.get(
    '/auth/me',
    { tag: 'auth', summary: 'The logged-in user', access: 'session', response: userResponse },
    async ({ user }) => ({ user }),
  );

  routes.patch(
    '/auth/me',
    {
      tag: 'auth',
      summary: 'Change my user name or password',
      description: 'A new password needs the current one; other sessions of the account end.',
      access: 'session',
      body: updateMeBody,
      response: userResponse,
      errors: [403, 409, 429],
    },
    async ({ user, body, req }) => {
      const result = await auth.updateMe(user, body);
      if (result.passwordChanged) await refreshCredential(req, result.user.password_hash);
      return { user: toUserDto(result.user) };
    },
  );
}
