import {
  createRequestBody,
  requestIdParams,
  requestListQuery,
  requestListSchema,
  requestSchema,
  requestSettingsSchema,
  updateRequestSettingsBody,
} from '../dtos/requests.dto.ts';
import type { ApiRouter } from '../routing.ts';
import type { RequestsService } from '../services/requests.service.ts';

export function requestsController(routes: ApiRouter, requests: RequestsService): void {
  routes.post(
    '/requests',
    {
      tag: 'requests',
      summary: 'Request a library track',
      description:
        'Refusals say which rule refused and its figure: 403 REQUESTS_DISABLED; 409 ' +
        'REQUEST_ALREADY_REQUESTED, REQUEST_RECENTLY_PLAYED (the threshold), ' +
        'REQUEST_TRACK_SEPARATION, REQUEST_ARTIST_SEPARATION (with the time it could play); 429 ' +
        'REQUEST_TOO_MANY_PENDING, REQUEST_HOURLY_LIMIT (with Retry-After).',
      access: 'session',
      body: createRequestBody,
      status: 201,
      response: requestSchema,
      errors: [403, 404, 409, 429],
      headers: [
        {
          name: 'Retry-After',
          in: 'response',
          description: 'with 429 REQUEST_HOURLY_LIMIT: seconds until a request may be made',
        },
      ],
    },
    ({ user, body }) => requests.create(user, body),
  );

  routes.get(
    '/requests/mine',
    {
      tag: 'requests',
      summary: 'My latest 50 requests, newest first',
      access: 'session',
      response: requestListSchema,
    },
    ({ user }) => requests.mine(user),
  );

  routes.get(
    '/requests',
    {
      tag: 'requests',
      summary: "Listeners' requests (dj or admin)",
      description:
        'Pending ones oldest first (the order they play in), the others newest first; at most 200.',
      access: 'dj',
      query: requestListQuery,
      response: requestListSchema,
    },
    ({ query }) => requests.list(query),
  );

  routes.delete(
    '/requests/:id',
    {
      tag: 'requests',
      summary: 'Remove a pending request (admin; the requester their own)',
      access: 'session',
      params: requestIdParams,
      status: 204,
      errors: [404, 409],
    },
    async ({ user, params }) => {
      await requests.remove(user, params.id);
      return undefined;
    },
  );

  routes.get(
    '/settings/requests',
    {
      tag: 'requests',
      summary: "The station's request settings",
      access: 'public',
      response: requestSettingsSchema,
    },
    () => requests.settings(),
  );

  routes.put(
    '/settings/requests',
    {
      tag: 'requests',
      summary: 'Change the request settings (admin)',
      description: 'Settings left out keep their value.',
      access: 'admin',
      body: updateRequestSettingsBody,
      response: requestSettingsSchema,
    },
    ({ user, body }) => requests.updateSettings(user, body),
  );
}
