import type { Logger } from '@radio/core';
import type { WebhookDelivery, WebhookDeliveryUpdate } from '@radio/db';
import { discordMessage } from './discord.ts';
import type { WebhookBody } from './events.ts';
import { type SecretBox, UnreadableSecretError } from './secret-box.ts';
import { type SendResult, sendWebhook } from './sender.ts';
import { signedHeaders } from './signer.ts';
import { RefusedUrlError, type SsrfGuard } from './ssrf-guard.ts';
import { openSecret } from './stored-secrets.ts';
import type { DeliveryJob, WebhooksRepository } from './webhooks.repository.ts';

export interface DeliveryWorkerOptions {
  /** An attempt without a whole answer by then has failed (ms). */
  timeoutMs: number;
  /** How often the table is read for due retries and other processes' deliveries (ms). */
  pollMs: number;
  /** Attempts under way at once, over all webhooks. */
  concurrency: number;
  /** Attempts under way at once to one webhook, so a slow one holds few of the slots. */
  perWebhook: number;
  /** Before retry n: min(maxMs, baseMs·2^(n-1)), then a random 50-100 % of that (jitter). */
  backoff: { baseMs: number; maxMs: number };
  /** A delivery not through this long after its event is given up (`failed`) (ms). */
  retryForMs: number;
  /** Opens the webhooks' stored secrets. */
  box: SecretBox;
}

/** The delay before the next try after `attempts` failed ones. */
export function backoffDelay(attempts: number, backoff: DeliveryWorkerOptions['backoff']): number {
  const exponent = Math.min(Math.max(attempts - 1, 0), 30);
  const delay = Math.min(backoff.maxMs, backoff.baseMs * 2 ** exponent);
  return Math.round(delay * (0.5 + Math.random() / 2));
}

/**
 * Sends queued deliveries beside everything else: nothing waits for it. Deliveries live in the
 * table, so they survive a restart and any api process may send them; each is claimed by one
 * UPDATE before it is sent (see WebhooksRepository.claim).
 */
export class DeliveryWorker {
  readonly #repo: WebhooksRepository;
  readonly #guard: SsrfGuard;
  readonly #options: DeliveryWorkerOptions;
  readonly #log: Logger;
  /** Attempts under way, per webhook. */
  readonly #busy = new Map<number, number>();
  #inFlight = 0;
  #timer: NodeJS.Timeout | null = null;
  #running: Promise<void> | null = null;
  #again = false;
  #stopped = true;
  /** Aborts the attempts under way when the worker stops. */
  #stopping = new AbortController();

  constructor(
    repo: WebhooksRepository,
    guard: SsrfGuard,
    options: DeliveryWorkerOptions,
    log: Logger,
  ) {
    this.#repo = repo;
    this.#guard = guard;
    this.#options = options;
    this.#log = log;
  }

  start(): void {
    // The first send would otherwise wait for the internal names to resolve.
    this.#guard.refresh().catch(() => undefined);
    this.#stopped = false;
    this.#stopping = new AbortController();
    this.#timer = setInterval(() => this.kick(), this.#options.pollMs);
    this.#timer.unref();
    this.kick();
  }

  /**
   * Stops claiming and drops the attempts under way unrecorded: their claims run out and any
   * api process (this one after a restart) sends them again.
   */
  stop(): void {
    this.#stopped = true;
    this.#stopping.abort();
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
  }

  /** Looks for due deliveries now (a new event was queued, or a slot came free). */
  kick(): void {
    if (this.#stopped) return;
    if (this.#running) {
      this.#again = true;
      return;
    }
    this.#running = this.#fill()
      .catch((error: unknown) => this.#log.warn({ err: error }, 'webhook deliveries not read'))
      .finally(() => {
        this.#running = null;
        if (this.#again) {
          this.#again = false;
          this.kick();
        }
      });
  }

  /** Claims due deliveries while there are free slots, and starts them. */
  async #fill(): Promise<void> {
    const { concurrency, perWebhook, timeoutMs } = this.#options;
    while (!this.#stopped && this.#inFlight < concurrency) {
      const now = new Date();
      const busy = [...this.#busy].filter(([, n]) => n >= perWebhook).map(([id]) => id);
      const due = await this.#repo.due(now.toISOString(), busy, concurrency * 2);
      let started = 0;
      for (const row of due) {
        if (this.#stopped || this.#inFlight >= concurrency) break;
        if ((this.#busy.get(row.webhook_id) ?? 0) >= perWebhook) continue;
        // Held a little past the timeout: a process that dies mid-send lets it go again.
        const until = new Date(now.getTime() + timeoutMs + 5000).toISOString();
        if (!(await this.#repo.claim(row.id, now.toISOString(), until))) continue;
        started += 1;
        this.#begin(row.webhook_id);
        void this.#deliver(row.id, until).finally(() => this.#end(row.webhook_id));
      }
      if (started === 0) return;
    }
  }

  #begin(webhookId: number): void {
    this.#inFlight += 1;
    this.#busy.set(webhookId, (this.#busy.get(webhookId) ?? 0) + 1);
  }

  #end(webhookId: number): void {
    this.#inFlight -= 1;
    const left = (this.#busy.get(webhookId) ?? 1) - 1;
    if (left > 0) this.#busy.set(webhookId, left);
    else this.#busy.delete(webhookId);
    this.kick();
  }

  /**
   * One attempt of a delivery claimed until `until`. The claim is the attempt's fence: a send
   * that could outlast it is not made (another process may take the delivery once it runs
   * out, and both would send), and the outcome is recorded only while the claim is still
   * this attempt's.
   */
  async #deliver(id: number, until: string): Promise<void> {
    try {
      const job = await this.#repo.job(id);
      if (job?.delivery.claimed_until !== until) return;
      const result = await this.#attempt(job, Date.parse(until));
      if (this.#stopping.signal.aborted) return;
      if (result === null) {
        this.#log.warn({ delivery: id }, 'webhook attempt not sent: its claim ran short');
        await this.#repo.release(id, until);
        return;
      }
      await this.#repo.settle(id, until, this.#outcome(job.delivery, result, true));
    } catch (error) {
      this.#log.warn({ err: error, delivery: id }, 'webhook delivery not recorded');
    }
  }

  /**
   * One attempt of a claimed delivery: checks the URL again, signs, sends; null when the claim
   * (held until `claimEnd`, epoch ms) could run out before the send's timeout. `hold`: see
   * sendWebhook's holdFailures.
   */
  async #attempt(
    job: DeliveryJob,
    claimEnd: number,
    hold = false,
  ): Promise<(SendResult & { refused?: boolean }) | null> {
    const { webhook, delivery } = job;
    let target: Awaited<ReturnType<SsrfGuard['check']>>;
    try {
      target = await this.#guard.check(webhook.url);
    } catch (error) {
      const message =
        error instanceof RefusedUrlError ? `refused: ${error.message}` : String(error);
      return { ok: false, statusCode: null, error: message, latencyMs: null, refused: true };
    }
    if (Date.now() + this.#options.timeoutMs >= claimEnd) return null;
    const secret = await openSecret(webhook, this.#options.box, this.#repo, this.#log);
    if (secret === null) {
      const { message } = new UnreadableSecretError();
      return { ok: false, statusCode: null, error: message, latencyMs: null, refused: true };
    }
    const body =
      webhook.format === 'discord'
        ? JSON.stringify(discordMessage(JSON.parse(delivery.payload) as WebhookBody))
        : delivery.payload;
    const headers = signedHeaders(secret, delivery.event, body, new Date());
    const result = await sendWebhook(
      target,
      headers,
      body,
      this.#options.timeoutMs,
      this.#stopping.signal,
      hold,
    );
    this.#log.debug(
      { webhook: webhook.id, delivery: delivery.id, event: delivery.event, ...result },
      'webhook attempt',
    );
    return result;
  }

  /** The row's next state after an attempt; `retry`: whether a failure is tried again. */
  #outcome(
    delivery: WebhookDelivery,
    result: SendResult & { refused?: boolean },
    retry: boolean,
  ): WebhookDeliveryUpdate {
    const now = Date.now();
    const recorded = {
      last_status_code: result.statusCode,
      last_error: result.error,
      latency_ms: result.latencyMs,
    };
    if (result.ok) {
      return {
        ...recorded,
        status: 'delivered',
        next_attempt_at: null,
        delivered_at: new Date(now).toISOString(),
      };
    }
    const next = now + backoffDelay(delivery.attempts, this.#options.backoff);
    const giveUpAt = Date.parse(delivery.created_at) + this.#options.retryForMs;
    if (!retry || result.refused || next > giveUpAt) {
      return { ...recorded, status: 'failed', next_attempt_at: null };
    }
    return { ...recorded, status: 'retrying', next_attempt_at: new Date(next).toISOString() };
  }

  /**
   * A test send: one attempt now, recorded, never retried. One that got no answer is answered
   * when the timeout is up, however fast it failed: a refused port would otherwise answer at
   * once and a filtered one after the timeout, and the test call would scan ports.
   */
  async sendOnce(job: DeliveryJob): Promise<WebhookDelivery | undefined> {
    const until = job.delivery.claimed_until as string;
    // Someone waits for this one: it is sent however long the check took (never null then).
    const result = (await this.#attempt(job, Number.POSITIVE_INFINITY, true)) as SendResult;
    return this.#repo.settle(job.delivery.id, until, this.#outcome(job.delivery, result, false));
  }
}
