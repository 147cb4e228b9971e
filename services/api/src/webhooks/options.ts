/** The api's webhook settings: api options, only `offlineAfterMs` is set by the environment. */
export interface WebhookOptions {
  /**
   * A mount without a source this long sends `station.offline` (ms): WEBHOOK_OFFLINE_SECONDS
   * (apiOptionsFromConfig). Default 30 000.
   */
  offlineAfterMs?: number | undefined;
  /** An attempt without a whole answer by then has failed (ms). Default 10 000. */
  timeoutMs?: number | undefined;
  /** Retry n waits min(maxMs, baseMs·2^(n-1)), less up to half (jitter). Default 15 s, 1 h. */
  backoff?: { baseMs: number; maxMs: number } | undefined;
  /** How long a failing delivery is retried before it is `failed` (ms). Default 24 h. */
  retryForMs?: number | undefined;
  /** How often the deliveries table is read for due retries (ms). Default 1000. */
  pollMs?: number | undefined;
  /** Attempts under way at once: overall (default 16) and to one webhook (default 2). */
  concurrency?: number | undefined;
  perWebhook?: number | undefined;
  /** Deliveries kept per webhook. Default 200. */
  keepDeliveries?: number | undefined;
  /** Lets webhooks point at loopback addresses: for tests with a local receiver. Default false. */
  allowLoopback?: boolean | undefined;
}

export type ResolvedWebhookOptions = Required<{
  [K in keyof WebhookOptions]: Exclude<WebhookOptions[K], undefined>;
}>;

const HOUR_MS = 60 * 60 * 1000;

function positive(name: string, value: number | undefined, fallback: number): number {
  const result = value ?? fallback;
  if (!Number.isFinite(result) || result <= 0) {
    throw new TypeError(`createApi: webhooks.${name} must be a positive number, got ${result}`);
  }
  return result;
}

export function resolveWebhookOptions(options: WebhookOptions = {}): ResolvedWebhookOptions {
  const backoff = options.backoff ?? { baseMs: 15_000, maxMs: HOUR_MS };
  return {
    offlineAfterMs: positive('offlineAfterMs', options.offlineAfterMs, 30_000),
    timeoutMs: positive('timeoutMs', options.timeoutMs, 10_000),
    backoff: {
      baseMs: positive('backoff.baseMs', backoff.baseMs, 15_000),
      maxMs: positive('backoff.maxMs', backoff.maxMs, HOUR_MS),
    },
    retryForMs: positive('retryForMs', options.retryForMs, 24 * HOUR_MS),
    pollMs: positive('pollMs', options.pollMs, 1000),
    concurrency: positive('concurrency', options.concurrency, 16),
    perWebhook: positive('perWebhook', options.perWebhook, 2),
    keepDeliveries: positive('keepDeliveries', options.keepDeliveries, 200),
    allowLoopback: options.allowLoopback ?? false,
  };
}
