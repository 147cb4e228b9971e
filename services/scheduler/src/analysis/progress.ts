import type { Logger } from '@radio/core';

/**
 * Sends progress at most once per `intervalMs` (`soon`), or at once (`now`, for the end of a
 * run); one send at a time, and a send asked for during one happens after it.
 */
export class ThrottledSender {
  readonly #intervalMs: number;
  readonly #send: () => Promise<void>;
  readonly #log: Logger;
  #timer: NodeJS.Timeout | null = null;
  #lastAt = Number.NEGATIVE_INFINITY;
  #chain: Promise<void> = Promise.resolve();
  #stopped = false;

  constructor(intervalMs: number, send: () => Promise<void>, logger: Logger) {
    this.#intervalMs = intervalMs;
    this.#send = send;
    this.#log = logger;
  }

  soon(): void {
    if (this.#timer || this.#stopped) return;
    const wait = Math.max(0, this.#lastAt + this.#intervalMs - Date.now());
    this.#timer = setTimeout(() => {
      this.#timer = null;
      this.#enqueue();
    }, wait);
  }

  now(): void {
    if (this.#stopped) return;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    this.#enqueue();
  }

  /** No more sends; resolves when the one under way is done. */
  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    await this.#chain;
  }

  #enqueue(): void {
    this.#lastAt = Date.now();
    this.#chain = this.#chain.then(async () => {
      if (this.#stopped) return;
      try {
        await this.#send();
      } catch (error) {
        this.#log.warn({ err: error }, 'cannot publish the analysis progress');
      }
    });
  }
}
