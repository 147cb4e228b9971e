/** The most keys remembered at once; past it the oldest are forgotten (and may log again). */
const MAX_KEYS = 10_000;

/**
 * Lets a refusal be logged once per client and interval, so a flood of bad requests writes a
 * line a minute, not a line a request. `take` answers whether to log now and how many of the
 * same were held back since the last line, which that line should say.
 */
export class LogThrottle {
  readonly #intervalMs: number;
  readonly #seen = new Map<string, { until: number; held: number }>();

  constructor(intervalMs = 60_000) {
    this.#intervalMs = intervalMs;
  }

  /** `null`: stay quiet; a number: log now, mentioning that many held back. */
  take(key: string): number | null {
    const now = Date.now();
    const entry = this.#seen.get(key);
    if (entry && entry.until > now) {
      entry.held += 1;
      return null;
    }
    const held = entry?.held ?? 0;
    this.#seen.delete(key);
    // Keys are re-inserted on each line, so the map's first keys are the longest quiet.
    for (const oldest of this.#seen.keys()) {
      if (this.#seen.size < MAX_KEYS) break;
      this.#seen.delete(oldest);
    }
    this.#seen.set(key, { until: now + this.#intervalMs, held: 0 });
    return held;
  }
}
