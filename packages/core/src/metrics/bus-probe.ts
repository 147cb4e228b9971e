import { randomUUID } from 'node:crypto';
import { Counter, Gauge, type Registry } from 'prom-client';
import type { Bus } from '../bus/bus.ts';

export interface BusProbeOptions {
  /** Time between pings (15 s unless given; tests use less). */
  intervalMs?: number;
  /** A ping not back within this is a failure (5 s unless given). */
  timeoutMs?: number;
}

/**
 * Pings the bus every 15 s: publishes a `bus.ping` event and times its return to this process,
 * the path every event of the station takes (through Redis and back, or the in-process bus).
 * `radio_bus_roundtrip_seconds` holds the last round trip; a ping that does not come back in
 * time (Redis away, the bus overloaded) counts in `radio_bus_roundtrip_failures_total`.
 */
export class BusProbe {
  readonly #bus: Bus;
  readonly #intervalMs: number;
  readonly #timeoutMs: number;
  readonly #roundTrip: Gauge;
  readonly #failures: Counter;
  #timer: NodeJS.Timeout | null = null;
  #unsubscribe: (() => void) | null = null;
  /** The ping in flight: one at a time, so a slow bus is not pinged into a backlog. */
  #pending: { probe: string; sentAt: bigint; timeout: NodeJS.Timeout } | null = null;

  constructor(bus: Bus, registry: Registry, options: BusProbeOptions = {}) {
    this.#bus = bus;
    this.#intervalMs = options.intervalMs ?? 15_000;
    this.#timeoutMs = options.timeoutMs ?? 5000;
    this.#roundTrip = new Gauge({
      name: 'radio_bus_roundtrip_seconds',
      help: 'How long the last bus ping took to come back to this service.',
      registers: [registry],
    });
    this.#failures = new Counter({
      name: 'radio_bus_roundtrip_failures_total',
      help: 'Bus pings that did not come back in time.',
      registers: [registry],
    });
  }

  /** Pings now, then every interval, until `close`. */
  start(): void {
    if (this.#timer) return;
    this.#unsubscribe = this.#bus.onEvent(
      (event) => this.#received(event.payload.probe),
      ['bus.ping'],
    );
    this.#timer = setInterval(() => this.#ping(), this.#intervalMs);
    this.#timer.unref();
    this.#ping();
  }

  close(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    this.#unsubscribe?.();
    this.#unsubscribe = null;
    if (this.#pending) clearTimeout(this.#pending.timeout);
    this.#pending = null;
  }

  #ping(): void {
    if (this.#pending) return;
    const probe = randomUUID();
    const timeout = setTimeout(() => this.#failed(probe), this.#timeoutMs);
    timeout.unref();
    this.#pending = { probe, sentAt: process.hrtime.bigint(), timeout };
    this.#bus.publish('bus.ping', { probe }).catch(() => this.#failed(probe));
  }

  #received(probe: string): void {
    // Other services' pings pass by too (each service pings on the same bus).
    const pending = this.#pending;
    if (pending?.probe !== probe) return;
    clearTimeout(pending.timeout);
    this.#pending = null;
    this.#roundTrip.set(Number(process.hrtime.bigint() - pending.sentAt) / 1e9);
  }

  #failed(probe: string): void {
    const pending = this.#pending;
    if (pending?.probe !== probe) return;
    clearTimeout(pending.timeout);
    this.#pending = null;
    this.#failures.inc();
  }
}
