import type {
  Database,
  DbHandle,
  NewWebhook,
  Webhook,
  WebhookDelivery,
  WebhookDeliveryUpdate,
  WebhookUpdate,
} from '@radio/db';
import { nowIso } from '@radio/db';
import type { Kysely } from 'kysely';

/** The listener records `listeners.peak` compares with (see listener-peaks.ts). */
export interface PeakState {
  allTime: { listeners: number; at: string };
  /** The current UTC day's highest total so far. */
  day: { date: string; listeners: number; at: string };
}

const PEAK_SETTING = 'webhooks.listeners-peak';

/** What the worker needs to send one delivery. */
export interface DeliveryJob {
  delivery: WebhookDelivery;
  webhook: Webhook;
}

export class WebhooksRepository {
  readonly #handle: DbHandle;

  constructor(handle: DbHandle) {
    this.#handle = handle;
  }

  get #db(): Kysely<Database> {
    return this.#handle.db;
  }

  list(): Promise<Webhook[]> {
    return this.#db.selectFrom('webhooks').selectAll().orderBy('id').execute();
  }

  find(id: number): Promise<Webhook | undefined> {
    return this.#db.selectFrom('webhooks').selectAll().where('id', '=', id).executeTakeFirst();
  }

  create(row: NewWebhook): Promise<Webhook> {
    return this.#db.insertInto('webhooks').values(row).returningAll().executeTakeFirstOrThrow();
  }

  update(id: number, changes: WebhookUpdate): Promise<Webhook | undefined> {
    return this.#db
      .updateTable('webhooks')
      .set({ ...changes, updated_at: nowIso() })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
  }

  async delete(id: number): Promise<boolean> {
    const result = await this.#db.deleteFrom('webhooks').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** Stores `to` as the secret if it still is `from` (another api process may seal it too). */
  async replaceSecret(id: number, from: string, to: string): Promise<boolean> {
    const result = await this.#db
      .updateTable('webhooks')
      .set({ secret: to })
      .where('id', '=', id)
      .where('secret', '=', from)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Disables a webhook whose stored secret is still `secret` (one no key opens). */
  async disableWithSecret(id: number, secret: string): Promise<boolean> {
    const result = await this.#db
      .updateTable('webhooks')
      .set({ enabled: 0, updated_at: nowIso() })
      .where('id', '=', id)
      .where('secret', '=', secret)
      .where('enabled', '=', 1)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  enabled(): Promise<Webhook[]> {
    return this.#db.selectFrom('webhooks').selectAll().where('enabled', '=', 1).execute();
  }

  /**
   * Queues one event for one webhook, due now. Returns false when this occurrence (`key`) is
   * queued already, by this api process or another.
   */
  async enqueue(webhookId: number, event: string, key: string, payload: string): Promise<boolean> {
    const result = await this.#db
      .insertInto('webhook_deliveries')
      .values({
        webhook_id: webhookId,
        event,
        event_key: key,
        payload,
        status: 'pending',
        next_attempt_at: nowIso(),
      })
      .onConflict((conflict) => conflict.columns(['webhook_id', 'event_key']).doNothing())
      .returning('id')
      .executeTakeFirst();
    return result !== undefined;
  }

  /** A delivery held by the caller from the start (a test send), so the worker leaves it alone. */
  insertClaimed(
    webhookId: number,
    event: string,
    payload: string,
    claimedUntil: string,
  ): Promise<WebhookDelivery> {
    return this.#db
      .insertInto('webhook_deliveries')
      .values({
        webhook_id: webhookId,
        event,
        payload,
        status: 'pending',
        attempts: 1,
        next_attempt_at: nowIso(),
        claimed_until: claimedUntil,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  /** Deliveries due now that nobody holds, oldest due first, leaving out the busy webhooks. */
  due(
    now: string,
    busyWebhooks: number[],
    limit: number,
  ): Promise<Array<{ id: number; webhook_id: number }>> {
    let query = this.#db
      .selectFrom('webhook_deliveries')
      .select(['id', 'webhook_id'])
      .where('status', 'in', ['pending', 'retrying'])
      .where('next_attempt_at', '<=', now)
      .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', now)]));
    if (busyWebhooks.length > 0) query = query.where('webhook_id', 'not in', busyWebhooks);
    return query.orderBy('next_attempt_at').limit(limit).execute();
  }

  /**
   * Takes a due delivery for this process until `until`, counting the attempt. One UPDATE with
   * the conditions the row must still meet, so of several api processes exactly one wins.
   */
  async claim(id: number, now: string, until: string): Promise<boolean> {
    const result = await this.#db
      .updateTable('webhook_deliveries')
      .set((eb) => ({ claimed_until: until, attempts: eb('attempts', '+', 1) }))
      .where('id', '=', id)
      .where('status', 'in', ['pending', 'retrying'])
      .where('next_attempt_at', '<=', now)
      .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', now)]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async job(id: number): Promise<DeliveryJob | undefined> {
    const delivery = await this.#db
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    if (!delivery) return undefined;
    const webhook = await this.find(delivery.webhook_id);
    return webhook && { delivery, webhook };
  }

  /**
   * Records an attempt's outcome and lets go of the delivery, if the claim made `until` still
   * holds it (undefined when another process has taken it since).
   */
  settle(
    id: number,
    until: string,
    changes: WebhookDeliveryUpdate,
  ): Promise<WebhookDelivery | undefined> {
    return this.#db
      .updateTable('webhook_deliveries')
      .set({ ...changes, claimed_until: null })
      .where('id', '=', id)
      .where('claimed_until', '=', until)
      .returningAll()
      .executeTakeFirst();
  }

  /** Lets go of a delivery claimed until `until` without an attempt: it is due again at once. */
  async release(id: number, until: string): Promise<void> {
    await this.#db
      .updateTable('webhook_deliveries')
      .set((eb) => ({ claimed_until: null, attempts: eb('attempts', '-', 1) }))
      .where('id', '=', id)
      .where('claimed_until', '=', until)
      .execute();
  }

  recent(webhookId: number, limit: number): Promise<WebhookDelivery[]> {
    return this.#db
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('webhook_id', '=', webhookId)
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
  }

  /**
   * Keeps a webhook's latest `keep` deliveries: older ones go once settled (an older one still
   * being retried stays until it is delivered or given up, at most the retry window).
   */
  async prune(webhookId: number, keep: number): Promise<void> {
    const cutoff = await this.#db
      .selectFrom('webhook_deliveries')
      .select('id')
      .where('webhook_id', '=', webhookId)
      .orderBy('id', 'desc')
      .limit(1)
      .offset(keep)
      .executeTakeFirst();
    if (!cutoff) return;
    await this.#db
      .deleteFrom('webhook_deliveries')
      .where('webhook_id', '=', webhookId)
      .where('id', '<=', cutoff.id)
      .where('status', 'in', ['delivered', 'failed'])
      .execute();
  }

  async peakState(): Promise<PeakState | null> {
    const row = await this.#db
      .selectFrom('settings')
      .select('value')
      .where('key', '=', PEAK_SETTING)
      .executeTakeFirst();
    return row ? (JSON.parse(row.value) as PeakState) : null;
  }

  async savePeakState(state: PeakState): Promise<void> {
    const value = JSON.stringify(state);
    await this.#db
      .insertInto('settings')
      .values({ key: PEAK_SETTING, value })
      .onConflict((conflict) => conflict.column('key').doUpdateSet({ value, updated_at: nowIso() }))
      .execute();
  }
}
