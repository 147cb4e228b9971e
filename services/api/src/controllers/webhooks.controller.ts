import {
  createWebhookBody,
  deliveriesQuery,
  deliveryList,
  deliverySchema,
  updateWebhookBody,
  webhookIdParams,
  webhookList,
  webhookSchema,
  webhookWithSecretSchema,
} from '../dtos/webhooks.dto.ts';
import type { ApiRouter } from '../routing.ts';
import type { WebhooksService } from '../webhooks/webhooks.service.ts';

const tag = 'webhooks';

export function webhooksController(routes: ApiRouter, webhooks: WebhooksService): void {
  routes.get(
    '/webhooks',
    { tag, summary: 'List webhooks', access: 'admin', response: webhookList },
    async () => ({ items: await webhooks.list() }),
  );

  routes.post(
    '/webhooks',
    {
      tag,
      summary: 'Add a webhook',
      description:
        'The secret is generated when not given and shown in this answer only. A URL that ' +
        "resolves to the station's own services is refused (400 API_WEBHOOK_URL_REFUSED).",
      access: 'admin',
      body: createWebhookBody,
      status: 201,
      response: webhookWithSecretSchema,
    },
    ({ body, user }) => webhooks.create(body, user.id),
  );

  routes.get(
    '/webhooks/:id',
    {
      tag,
      summary: 'One webhook',
      access: 'admin',
      params: webhookIdParams,
      response: webhookSchema,
      errors: [404],
    },
    ({ params }) => webhooks.get(params.id),
  );

  routes.patch(
    '/webhooks/:id',
    {
      tag,
      summary: 'Change, enable or disable a webhook, or give it a new secret',
      access: 'admin',
      params: webhookIdParams,
      body: updateWebhookBody,
      response: webhookWithSecretSchema,
      errors: [404],
    },
    ({ params, body }) => webhooks.update(params.id, body),
  );

  routes.delete(
    '/webhooks/:id',
    {
      tag,
      summary: 'Delete a webhook and its deliveries',
      access: 'admin',
      params: webhookIdParams,
      status: 204,
      errors: [404],
    },
    async ({ params }) => {
      await webhooks.delete(params.id);
      return undefined;
    },
  );

  routes.get(
    '/webhooks/:id/deliveries',
    {
      tag,
      summary: "A webhook's latest deliveries, newest first",
      access: 'admin',
      params: webhookIdParams,
      query: deliveriesQuery,
      response: deliveryList,
      errors: [404],
    },
    async ({ params, query }) => ({ items: await webhooks.deliveries(params.id, query.limit) }),
  );

  routes.post(
    '/webhooks/:id/test',
    {
      tag,
      summary: 'Send a test event now',
      description:
        'One attempt (never retried), within the delivery timeout; the answer is the ' +
        'delivery with its outcome.',
      access: 'admin',
      params: webhookIdParams,
      response: deliverySchema,
      errors: [404],
    },
    ({ params }) => webhooks.test(params.id),
  );
}
