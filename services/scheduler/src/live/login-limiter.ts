/**
 * Failed source logins per address, like the api's login limit: after `maxFailures` in a
 * window the address is refused (429) until the window ends, so a password cannot be guessed
 * at network speed. One scheduler owns the live port, so memory is the right store.
 */
export class LoginLimiter {
  readonly #maxFailures: number;
  readonly #windowMs: number;
  readonly #failures = new Map<string, { count: number; resetAt: number }>();

  constructor(maxFailures = 10, windowMs = 10 * 60_000) {
    this.#maxFailures = maxFailures;
    this.#windowMs = windowMs;
  }

  /** Milliseconds until `address` may try again; 0 when it may now. */
  blockedFor(address: string): number {
    const entry = this.#failures.get(address);
    const now = Date.now();
    if (!entry || entry.resetAt <= now) return 0;
    return entry.count >= this.#maxFailures ? entry.resetAt - now : 0;
  }

  fail(address: string): void {
    const now = Date.now();
    // Expired windows go as new failures come, so the map holds only recent addresses.
    for (const [key, entry] of this.#failures) if (entry.resetAt <= now) this.#failures.delete(key);
    const entry = this.#failures.get(address) ?? { count: 0, resetAt: now + this.#windowMs };
    entry.count += 1;
    this.#failures.set(address, entry);
  }

  succeed(address: string): void {
    this.#failures.delete(address);
  }
}
