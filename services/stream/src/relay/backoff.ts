/**
 * Reconnect delays: exponential from `baseMs` up to `maxMs`, each drawn at random between half
 * and all of that step ("equal jitter"), so edges that lost the same origin at the same moment
 * do not all come back in the same millisecond, yet none waits less than half its step.
 */
export class Backoff {
  readonly #baseMs: number;
  readonly #maxMs: number;
  readonly #random: () => number;
  #attempt = 0;

  constructor(baseMs: number, maxMs: number, random: () => number = Math.random) {
    this.#baseMs = baseMs;
    this.#maxMs = maxMs;
    this.#random = random;
  }

  /** The delay before the next attempt; each call doubles the step up to the maximum. */
  next(): number {
    const step = Math.min(this.#maxMs, this.#baseMs * 2 ** Math.min(this.#attempt, 30));
    this.#attempt += 1;
    return Math.round(step / 2 + (this.#random() * step) / 2);
  }

  /** A connection that worked: the next failure starts from the base delay again. */
  reset(): void {
    this.#attempt = 0;
  }
}
