import type { Bus, EventMessage, Logger } from '@radio/core';
import type { WebhookEvent } from './events.ts';
import type { PeakState, WebhooksRepository } from './webhooks.repository.ts';

const EMPTY: PeakState = {
  allTime: { listeners: 0, at: new Date(0).toISOString() },
  day: { date: '', listeners: 0, at: new Date(0).toISOString() },
};

/**
 * `listeners.peak` from the stream server's total listener count (edges included):
 * - `all-time`: the total beat the station's record (kept in the settings table, so a restart
 *   does not start from zero); sent at once, with the record it beat;
 * - `daily`: a finished UTC day's highest total, sent with the first count after midnight.
 * Several api processes compute the same records and the event keys make them one delivery.
 */
export class ListenerPeaks {
  readonly #bus: Bus;
  readonly #repo: WebhooksRepository;
  readonly #sink: (event: WebhookEvent) => void;
  readonly #log: Logger;
  #state: PeakState | null = null;
  /** Counts are handled one after another: each may read and write the record. */
  #chain: Promise<void> = Promise.resolve();
  #unsubscribe: (() => void) | null = null;

  constructor(
    bus: Bus,
    repo: WebhooksRepository,
    sink: (event: WebhookEvent) => void,
    log: Logger,
  ) {
    this.#bus = bus;
    this.#repo = repo;
    this.#sink = sink;
    this.#log = log;
  }

  start(): void {
    this.#unsubscribe = this.#bus.onEvent(
      (event: EventMessage<'stream.listeners'>) => {
        this.#chain = this.#chain
          .then(() => this.#count(event.payload.total, event.ts))
          .catch((error: unknown) => this.#log.warn({ err: error }, 'listener peak not kept'));
      },
      ['stream.listeners'],
    );
  }

  async stop(): Promise<void> {
    this.#unsubscribe?.();
    await this.#chain;
  }

  async #count(total: number, ts: number): Promise<void> {
    this.#state ??= (await this.#repo.peakState()) ?? structuredClone(EMPTY);
    const state = this.#state;
    const at = new Date(ts).toISOString();
    const date = at.slice(0, 10);
    let changed = false;
    if (state.day.date !== date) {
      if (state.day.date && state.day.listeners > 0) {
        this.#announce(
          { kind: 'daily', listeners: state.day.listeners, at: state.day.at, date: state.day.date },
          `daily:${state.day.date}`,
        );
      }
      state.day = { date, listeners: total, at };
      changed = true;
    } else if (total > state.day.listeners) {
      state.day = { date, listeners: total, at };
      changed = true;
    }
    if (total > state.allTime.listeners) {
      const previous = state.allTime.listeners;
      state.allTime = { listeners: total, at };
      changed = true;
      this.#announce({ kind: 'all-time', listeners: total, at, previous }, `all-time:${total}`);
    }
    if (changed) await this.#repo.savePeakState(state);
  }

  #announce(data: Extract<WebhookEvent, { event: 'listeners.peak' }>['data'], key: string): void {
    this.#sink({ event: 'listeners.peak', key, at: new Date(data.at), data });
  }
}
