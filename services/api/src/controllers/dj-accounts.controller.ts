import {
  createDjAccountBody,
  djAccountList,
  djAccountSchema,
  djAccountWithPasswordSchema,
  djUserParams,
  myDjAccountSchema,
  updateDjAccountBody,
} from '../dtos/live.dto.ts';
import type { Live } from '../live/live.ts';
import type { ApiRouter } from '../routing.ts';

const tag = 'live';

/** Broadcast credentials: admins manage everyone's, a DJ reads its own and renews its password. */
export function djAccountsController(routes: ApiRouter, live: Live): void {
  const { accounts } = live;

  routes.get(
    '/dj-accounts',
    {
      tag,
      summary: "DJs' broadcast credentials (without passwords)",
      access: 'admin',
      response: djAccountList,
    },
    async () => ({ items: await accounts.list() }),
  );

  routes.post(
    '/dj-accounts',
    {
      tag,
      summary: 'Give a DJ broadcast credentials',
      description:
        'For a user with the dj (or admin) role (409 API_DJ_ROLE_REQUIRED otherwise). The ' +
        'broadcast password is generated and shown in this answer only; it is separate from ' +
        "the user's login password.",
      access: 'admin',
      body: createDjAccountBody,
      status: 201,
      response: djAccountWithPasswordSchema,
      errors: [404, 409],
    },
    ({ body }) => accounts.create(body),
  );

  routes.patch(
    '/dj-accounts/:userId',
    {
      tag,
      summary: "Change a DJ's broadcast user name, display name, enabled or recording",
      description:
        'A disabled DJ is refused by the live input (403) and cannot go live from the browser.',
      access: 'admin',
      params: djUserParams,
      body: updateDjAccountBody,
      response: djAccountSchema,
      errors: [404, 409],
    },
    ({ params, body }) => accounts.update(params.userId, body),
  );

  routes.post(
    '/dj-accounts/:userId/password',
    {
      tag,
      summary: 'Generate a new broadcast password for a DJ (shown once)',
      access: 'admin',
      params: djUserParams,
      response: djAccountWithPasswordSchema,
      errors: [404],
    },
    ({ params }) => accounts.regenerate(params.userId),
  );

  routes.delete(
    '/dj-accounts/:userId',
    {
      tag,
      summary: "Remove a DJ's broadcast credentials",
      access: 'admin',
      params: djUserParams,
      status: 204,
      errors: [404],
    },
    async ({ params }) => {
      await accounts.delete(params.userId);
      return undefined;
    },
  );

  routes.get(
    '/dj/me',
    {
      tag,
      summary: 'My broadcast credentials and the live input to connect to',
      description: '`account` is null until an admin gives you broadcast credentials.',
      access: 'dj',
      response: myDjAccountSchema,
    },
    async ({ user }) => ({
      account: await accounts.mine(user.id),
      connection: live.status.connection(),
    }),
  );

  routes.post(
    '/dj/me/password',
    {
      tag,
      summary: 'Generate a new broadcast password for myself (shown once)',
      description: 'The old password stops working at once; a show on air goes on.',
      access: 'dj',
      response: djAccountWithPasswordSchema,
      errors: [404],
    },
    ({ user }) => accounts.regenerate(user.id),
  );
}
