/** A value computed at most once per `ttlMs`; concurrent callers share one computation. */
export class Cached<T> {
  readonly #compute: () => Promise<T>;
  readonly #ttlMs: number;
  #value: { at: number; promise: Promise<T> } | null = null;

  constructor(compute: () => Promise<T>, ttlMs: number) {
    this.#compute = compute;
    this.#ttlMs = ttlMs;
  }

  get(): Promise<T> {
    const now = Date.now();
    if (this.#value === null || now - this.#value.at >= this.#ttlMs) {
      const promise = this.#compute();
      this.#value = { at: now, promise };
      // A failure is not kept: the next call tries again.
      promise.catch(() => {
        if (this.#value?.promise === promise) this.#value = null;
      });
    }
    return this.#value.promise;
  }
}
