import {
  createUserBody,
  updateUserBody,
  userIdParams,
  userListQuery,
  userPage,
  userSchema,
} from '../dtos/users.dto.ts';
import type { ApiRouter } from '../routing.ts';
import type { UsersService } from '../services/users.service.ts';

export function usersController(routes: ApiRouter, users: UsersService): void {
  routes.get(
    '/users',
    {
      tag: 'users',
      summary: 'List accounts',
      access: 'admin',
      query: userListQuery,
      response: userPage,
    },
    ({ query }) => users.list(query),
  );

  routes.post(
    '/users',
    {
      tag: 'users',
      summary: 'Create an account',
      access: 'admin',
      body: createUserBody,
      status: 201,
      response: userSchema,
      errors: [409],
    },
    ({ body }) => users.create(body),
  );

  routes.get(
    '/users/:id',
    {
      tag: 'users',
      summary: 'One account',
      access: 'admin',
      params: userIdParams,
      response: userSchema,
      errors: [404],
    },
    ({ params }) => users.get(params.id),
  );

  routes.patch(
    '/users/:id',
    {
      tag: 'users',
      summary: 'Change role, disable, rename or reset the password',
      description: 'The last active admin cannot be demoted or disabled (409 API_LAST_ADMIN).',
      access: 'admin',
      params: userIdParams,
      body: updateUserBody,
      response: userSchema,
      errors: [404, 409],
    },
    ({ params, body }) => users.update(params.id, body),
  );

  routes.delete(
    '/users/:id',
    {
      tag: 'users',
      summary: 'Delete an account',
      description: 'Its playlists go with it. The last active admin cannot be deleted.',
      access: 'admin',
      params: userIdParams,
      status: 204,
      errors: [404, 409],
    },
    async ({ params }) => {
      await users.delete(params.id);
      return undefined;
    },
  );
}
