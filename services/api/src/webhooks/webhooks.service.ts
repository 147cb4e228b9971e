import type { Logger } from '@radio/core';
import type { Webhook, WebhookDelivery, WebhookUpdate } from '@radio/db';
import type {
  CreateWebhookBody,
  DeliveryDto,
  UpdateWebhookBody,
  WebhookDto,
  WebhookWithSecretDto,
} from '../dtos/webhooks.dto.ts';
import { ApiError } from '../errors.ts';
import type { WebhookBody, WebhookEvent, WebhookEventName } from './events.ts';
import { type SecretBox, UnreadableSecretError } from './secret-box.ts';
import { generateSecret } from './signer.ts';
import { RefusedUrlError, type SsrfGuard } from './ssrf-guard.ts';
import type { WebhooksRepository } from './webhooks.repository.ts';
import type { DeliveryWorker } from './worker.ts';

function notFound(): ApiError {
  return new ApiError('API_WEBHOOK_NOT_FOUND', 'no such webhook', { status: 404 });
}

function toDto(row: Webhook): WebhookDto {
  return {
    id: row.id,
    name: row.name,
    url: row.url,
    events: JSON.parse(row.events) as WebhookEventName[],
    format: row.format,
    enabled: row.enabled === 1,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function deliveryDto(row: WebhookDelivery): DeliveryDto {
  return {
    id: row.id,
    webhookId: row.webhook_id,
    event: row.event,
    status: row.status,
    attempts: row.attempts,
    statusCode: row.last_status_code,
    error: row.last_error,
    latencyMs: row.latency_ms,
    nextAttemptAt: row.next_attempt_at,
    createdAt: row.created_at,
    deliveredAt: row.delivered_at,
  };
}

export interface WebhooksServiceOptions {
  /** Seals the secrets stored in the table. */
  box: SecretBox;
  keepDeliveries: number;
  /** How long a test send holds its delivery before the worker may take it (ms). */
  claimMs: number;
  logger: Logger;
}

/** The webhooks' routes, and the door the station's events come in through (`publish`). */
export class WebhooksService {
  readonly #repo: WebhooksRepository;
  readonly #guard: SsrfGuard;
  readonly #worker: DeliveryWorker;
  readonly #options: WebhooksServiceOptions;

  constructor(
    repo: WebhooksRepository,
    guard: SsrfGuard,
    worker: DeliveryWorker,
    options: WebhooksServiceOptions,
  ) {
    this.#repo = repo;
    this.#guard = guard;
    this.#worker = worker;
    this.#options = options;
  }

  async list(): Promise<WebhookDto[]> {
    return (await this.#repo.list()).map(toDto);
  }

  async get(id: number): Promise<WebhookDto> {
    const row = await this.#repo.find(id);
    if (!row) throw notFound();
    return toDto(row);
  }

  async create(body: CreateWebhookBody, userId: number): Promise<WebhookWithSecretDto> {
    await this.#checkUrl(body.url);
    const secret = body.secret ?? generateSecret();
    const row = await this.#repo.create({
      name: body.name,
      url: body.url,
      events: JSON.stringify(body.events),
      secret: this.#options.box.seal(secret),
      format: body.format,
      enabled: body.enabled ? 1 : 0,
      created_by: userId,
    });
    return { ...toDto(row), secret };
  }

  async update(id: number, body: UpdateWebhookBody): Promise<WebhookWithSecretDto> {
    if (body.url !== undefined) await this.#checkUrl(body.url);
    const secret = body.rotateSecret ? generateSecret() : body.secret;
    if (body.enabled === true && secret === undefined) await this.#checkReadable(id);
    const changes: WebhookUpdate = {
      name: body.name,
      url: body.url,
      events: body.events && JSON.stringify(body.events),
      format: body.format,
      enabled: body.enabled === undefined ? undefined : body.enabled ? 1 : 0,
      secret: secret === undefined ? undefined : this.#options.box.seal(secret),
    };
    const row = await this.#repo.update(id, changes);
    if (!row) throw notFound();
    return secret === undefined ? toDto(row) : { ...toDto(row), secret };
  }

  async delete(id: number): Promise<void> {
    if (!(await this.#repo.delete(id))) throw notFound();
  }

  async deliveries(id: number, limit: number): Promise<DeliveryDto[]> {
    if (!(await this.#repo.find(id))) throw notFound();
    return (await this.#repo.recent(id, limit)).map(deliveryDto);
  }

  /** Sends a `test` event now, whether or not the webhook is enabled, and answers the outcome. */
  async test(id: number): Promise<DeliveryDto> {
    const webhook = await this.#repo.find(id);
    if (!webhook) throw notFound();
    const body: WebhookBody = {
      event: 'test',
      timestamp: new Date().toISOString(),
      data: { message: `A test of the webhook "${webhook.name}"` },
    };
    const until = new Date(Date.now() + this.#options.claimMs).toISOString();
    const delivery = await this.#repo.insertClaimed(id, 'test', JSON.stringify(body), until);
    const settled = await this.#worker.sendOnce({ delivery, webhook });
    await this.#repo.prune(id, this.#options.keepDeliveries);
    return deliveryDto(settled ?? delivery);
  }

  /**
   * Queues an event for every enabled webhook that wants it, and wakes the worker. Called
   * from bus handlers: it never throws, and nothing waits for the sending.
   */
  publish(event: WebhookEvent): void {
    void this.#queue(event).catch((error: unknown) =>
      this.#options.logger.warn({ err: error, event: event.event }, 'webhook event not queued'),
    );
  }

  async #queue(event: WebhookEvent): Promise<void> {
    const body: WebhookBody = {
      event: event.event,
      timestamp: event.at.toISOString(),
      data: event.data,
    };
    const payload = JSON.stringify(body);
    const key = `${event.event}:${event.key}`;
    let queued = 0;
    for (const webhook of await this.#repo.enabled()) {
      if (!(JSON.parse(webhook.events) as string[]).includes(event.event)) continue;
      if (await this.#repo.enqueue(webhook.id, event.event, key, payload)) {
        queued += 1;
        await this.#repo.prune(webhook.id, this.#options.keepDeliveries);
      }
    }
    if (queued > 0) this.#worker.kick();
  }

  /** A webhook is enabled only with a secret this api can sign with. */
  async #checkReadable(id: number): Promise<void> {
    const row = await this.#repo.find(id);
    if (!row) throw notFound();
    try {
      this.#options.box.open(row.secret);
    } catch (error) {
      if (!(error instanceof UnreadableSecretError)) throw error;
      throw new ApiError('API_WEBHOOK_SECRET_UNREADABLE', error.message, { status: 409 });
    }
  }

  async #checkUrl(url: string): Promise<void> {
    try {
      await this.#guard.check(url);
    } catch (error) {
      if (!(error instanceof RefusedUrlError)) throw error;
      throw new ApiError('API_WEBHOOK_URL_REFUSED', `this URL cannot be used: ${error.message}`, {
        status: 400,
      });
    }
  }
}
