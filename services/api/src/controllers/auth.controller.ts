import { loginBody, registerBody, updateMeBody, userResponse } from '../dtos/auth.dto.ts';
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
  auth: AuthService,
  session: SessionSettings,
): void {
  routes.post(
    '/auth/register',
    {
      tag: 'auth',
      summary: 'Create an account and log in',
      description:
        'Only while registration is open. The first account of the station becomes its admin; later ones are listeners.',
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
        'Sets the session cookie (a new session id). Rate-limited per IP and per account.',
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
