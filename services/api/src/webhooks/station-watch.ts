import type { Bus, EventMessage } from '@radio/core';
import type { WebhookEvent } from './events.ts';

interface Outage {
  /** When the source left (the bus event's time). */
  since: number;
  /** The id of the bus event that said so: names this outage in every api process. */
  key: string;
  timer: NodeJS.Timeout | null;
  announced: boolean;
}

/**
 * `station.offline` when a mount has had no source for `offlineAfterMs`, and `station.online`
 * when a source comes back to a mount announced offline. It follows the stream server's
 * `stream.source` events, so an outage that began before this api process started is not seen.
 */
export class StationWatch {
  readonly #bus: Bus;
  readonly #sink: (event: WebhookEvent) => void;
  readonly #offlineAfterMs: number;
  readonly #outages = new Map<string, Outage>();
  #unsubscribe: (() => void) | null = null;

  constructor(bus: Bus, sink: (event: WebhookEvent) => void, offlineAfterMs: number) {
    this.#bus = bus;
    this.#sink = sink;
    this.#offlineAfterMs = offlineAfterMs;
  }

  start(): void {
    this.#unsubscribe = this.#bus.onEvent(
      (event: EventMessage<'stream.source'>) => {
        if (event.payload.connected) this.#connected(event);
        else this.#disconnected(event);
      },
      ['stream.source'],
    );
  }

  stop(): void {
    this.#unsubscribe?.();
    for (const outage of this.#outages.values()) if (outage.timer) clearTimeout(outage.timer);
    this.#outages.clear();
  }

  #disconnected(event: EventMessage<'stream.source'>): void {
    const { mount } = event.payload;
    if (this.#outages.has(mount)) return;
    const outage: Outage = { since: event.ts, key: event.id, timer: null, announced: false };
    const wait = Math.max(0, event.ts + this.#offlineAfterMs - Date.now());
    outage.timer = setTimeout(() => {
      outage.timer = null;
      outage.announced = true;
      this.#sink({
        event: 'station.offline',
        key: `${mount}:${outage.key}`,
        at: new Date(),
        data: {
          mount,
          since: new Date(outage.since).toISOString(),
          offlineSeconds: Math.round((Date.now() - outage.since) / 1000),
        },
      });
    }, wait);
    outage.timer.unref();
    this.#outages.set(mount, outage);
  }

  #connected(event: EventMessage<'stream.source'>): void {
    const { mount } = event.payload;
    const outage = this.#outages.get(mount);
    if (!outage) return;
    this.#outages.delete(mount);
    if (outage.timer) clearTimeout(outage.timer);
    if (!outage.announced) return;
    this.#sink({
      event: 'station.online',
      key: `${mount}:${event.id}`,
      at: new Date(event.ts),
      data: {
        mount,
        at: new Date(event.ts).toISOString(),
        offlineSeconds: Math.round((event.ts - outage.since) / 1000),
      },
    });
  }
}
