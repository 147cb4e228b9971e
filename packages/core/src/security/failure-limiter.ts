export interface FailureLimitRule {
  /** Failures allowed in a window; the next attempt is refused until the window ends. */
  maxFailures: number;
  windowMs: number;
}

/** The most clients tracked at once: a flood from many addresses costs bounded memory. */
const MAX_CLIENTS = 100_000;

/**
 * Failed logins per client, for the places a password is checked by a single process (the
 * stream server's /admin/, every /metrics, the live input's Basic auth): after `maxFailures`
 * in a window the client is refused (429) until the window ends, so a password cannot be
 * guessed at network speed. Successes are never counted, and one clears the client's failures.
 * The api, which may run as several processes, counts in Redis instead (its RateLimit).
 */
export class FailureLimiter {
  readonly #rule: FailureLimitRule;
  readonly #failures = new Map<string, { count: number; resetAt: number }>();

  constructor(rule: FailureLimitRule = { maxFailures: 10, windowMs: 10 * 60_000 }) {
    if (!(rule.maxFailures > 0) || !(rule.windowMs > 0)) {
      throw new RangeError('FailureLimiter: maxFailures and windowMs must be positive');
    }
    this.#rule = rule;
  }

  /** Milliseconds until `client` may try again; 0 when it may now. */
  blockedFor(client: string): number {
    const entry = this.#failures.get(client);
    const now = Date.now();
    if (!entry || entry.resetAt <= now) return 0;
    return entry.count >= this.#rule.maxFailures ? entry.resetAt - now : 0;
  }

  fail(client: string): void {
    const now = Date.now();
    const entry = this.#failures.get(client);
    if (entry && entry.resetAt > now) {
      entry.count += 1;
      return;
    }
    if (this.#failures.size >= MAX_CLIENTS) this.#sweep(now);
    this.#failures.set(client, { count: 1, resetAt: now + this.#rule.windowMs });
  }

  succeed(client: string): void {
    this.#failures.delete(client);
  }

  /** Drops ended windows; if every window is still open, the oldest clients go first. */
  #sweep(now: number): void {
    for (const [key, entry] of this.#failures) if (entry.resetAt <= now) this.#failures.delete(key);
    for (const key of this.#failures.keys()) {
      if (this.#failures.size < MAX_CLIENTS) break;
      this.#failures.delete(key);
    }
  }
}
