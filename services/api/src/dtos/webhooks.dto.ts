import { z } from 'zod';
import { WEBHOOK_EVENTS } from '../webhooks/events.ts';
import { id, idText, intQuery, timestamp } from './common.dto.ts';

export const webhookEventSchema = z.enum(WEBHOOK_EVENTS);
export const webhookFormatSchema = z
  .enum(['generic', 'discord'])
  .describe('generic: {event, timestamp, data}; discord: a Discord webhook message');

const name = z.string().trim().min(1, 'give the webhook a name').max(100, 'at most 100 characters');
const url = z
  .string()
  .trim()
  .max(2000, 'at most 2000 characters')
  .refine((text) => URL.canParse(text) && /^https?:$/.test(new URL(text).protocol), {
    message: 'expected an http or https URL',
  });
const events = z
  .array(webhookEventSchema)
  .min(1, 'choose at least one event')
  .refine((list) => new Set(list).size === list.length, { message: 'an event is listed twice' });
const secret = z
  .string()
  .min(16, 'at least 16 characters')
  .max(200, 'at most 200 characters')
  .describe('HMAC-SHA256 key of X-Radio-Signature');

export const webhookSchema = z.object({
  id,
  name: z.string(),
  url: z.string(),
  events: z.array(webhookEventSchema),
  format: webhookFormatSchema,
  enabled: z.boolean(),
  createdAt: timestamp,
  updatedAt: timestamp,
});
export type WebhookDto = z.infer<typeof webhookSchema>;

/** Create and update answers: the secret is shown when it was just made or changed, never again. */
export const webhookWithSecretSchema = webhookSchema.extend({
  secret: secret.optional().describe('present only right after it was set or generated'),
});
export type WebhookWithSecretDto = z.infer<typeof webhookWithSecretSchema>;

export const webhookList = z.object({ items: z.array(webhookSchema) });

export const createWebhookBody = z.strictObject({
  name,
  url,
  events,
  format: webhookFormatSchema.default('generic'),
  enabled: z.boolean().default(true),
  secret: secret.optional().describe('generated (and shown once) when not given'),
});
export type CreateWebhookBody = z.output<typeof createWebhookBody>;

export const updateWebhookBody = z
  .strictObject({
    name: name.optional(),
    url: url.optional(),
    events: events.optional(),
    format: webhookFormatSchema.optional(),
    enabled: z.boolean().optional(),
    secret: secret.optional(),
    rotateSecret: z.literal(true).optional().describe('generate a new secret (shown once)'),
  })
  .refine((body) => Object.values(body).some((value) => value !== undefined), {
    message: 'give at least one field to change',
  })
  .refine((body) => !(body.secret && body.rotateSecret), {
    message: 'give a secret or rotateSecret, not both',
  });
export type UpdateWebhookBody = z.output<typeof updateWebhookBody>;

export const webhookIdParams = z.object({ id: idText });

export const deliveryStatusSchema = z.enum(['pending', 'delivered', 'failed', 'retrying']);

export const deliverySchema = z.object({
  id,
  webhookId: id,
  event: z.string(),
  status: deliveryStatusSchema,
  attempts: z.number().int().nonnegative(),
  statusCode: z.number().int().nullable().describe("the receiver's last HTTP status"),
  error: z.string().nullable().describe('why the last attempt failed'),
  latencyMs: z.number().int().nullable().describe('of the last attempt'),
  nextAttemptAt: timestamp.nullable().describe('when it is tried again; null once settled'),
  createdAt: timestamp,
  deliveredAt: timestamp.nullable(),
});
export type DeliveryDto = z.infer<typeof deliverySchema>;

export const deliveryList = z.object({ items: z.array(deliverySchema) });

export const deliveriesQuery = z.object({
  limit: intQuery(1, 200, 50, 'how many of the latest deliveries'),
});
