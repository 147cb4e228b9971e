import {
  type AdminLogin,
  type Bus,
  BusProbe,
  createServiceRegistry,
  MetricsEndpoint,
} from '@radio/core';
import { Counter, Gauge } from 'prom-client';
import type { MountStatus } from '../outputs/mount-output.ts';

/** The playout's health as its metrics show it. */
export interface PlayoutFigures {
  /** Blocks the clock played short (silence) because the decoder on air was behind. */
  readonly underruns: number;
  /** Tracks skipped because their decoder failed. */
  readonly decoderFailures: number;
  /** Seconds of dead air the guard cut short. */
  readonly deadAirSeconds: number;
  /** Entries in the upcoming list. */
  readonly queueLength: number;
}

const NO_PLAYOUT: PlayoutFigures = {
  underruns: 0,
  decoderFailures: 0,
  deadAirSeconds: 0,
  queueLength: 0,
};

/** The counters read from the playout's figures: name, help, field. */
const PLAYOUT_COUNTERS = [
  [
    'radio_decoder_failures_total',
    'Tracks skipped because their decoder failed.',
    'decoderFailures',
  ],
  [
    'radio_playout_underruns_total',
    'Playout blocks played short (silence) because the decoder on air was behind.',
    'underruns',
  ],
  [
    'radio_dead_air_seconds_total',
    'Seconds of dead air (a silent track on air) before the guard skipped it.',
    'deadAirSeconds',
  ],
] as const;

/**
 * The scheduler's Prometheus metrics, read when a scrape comes: encoder restarts per mount,
 * decoder failures, playout underruns, dead-air seconds, the queue's length and whether a DJ is
 * on air, with the bus round trip and the process's default metrics. Each part of the scheduler
 * hands in a reader of the totals it keeps; a counter's collector resets it and adds the total,
 * so nothing is counted twice. Served on the live port (LiveOptions.metrics).
 */
export class SchedulerMetrics {
  readonly endpoint: MetricsEndpoint;
  readonly #probe: BusProbe;
  #playout: () => PlayoutFigures = () => NO_PLAYOUT;
  #live: () => boolean = () => false;
  #mounts: () => readonly MountStatus[] = () => [];

  constructor(login: AdminLogin, bus: Bus) {
    const registry = createServiceRegistry('scheduler');
    this.endpoint = new MetricsEndpoint(registry, login);
    this.#probe = new BusProbe(bus, registry);
    const mounts = () => this.#mounts();
    const playout = () => this.#playout();
    const live = () => this.#live();
    new Counter({
      name: 'radio_encoder_restarts_total',
      help: 'Times the encoder feeding each mount was restarted after it died or stalled.',
      labelNames: ['mount'],
      registers: [registry],
      collect() {
        this.reset();
        for (const mount of mounts()) this.inc({ mount: mount.mount }, mount.encoderRestarts);
      },
    });
    for (const [name, help, field] of PLAYOUT_COUNTERS) {
      new Counter({
        name,
        help,
        registers: [registry],
        collect() {
          this.reset();
          this.inc(playout()[field]);
        },
      });
    }
    new Gauge({
      name: 'radio_queue_length',
      help: 'Entries in the upcoming list.',
      registers: [registry],
      collect() {
        this.set(playout().queueLength);
      },
    });
    new Gauge({
      name: 'radio_live_on_air',
      help: 'Whether a DJ is on air and heard (1) or the AutoDJ plays (0).',
      registers: [registry],
      collect() {
        this.set(live() ? 1 : 0);
      },
    });
  }

  /** The player's, the dead-air guard's and the upcoming list's totals (the on-air watch). */
  readPlayout(read: () => PlayoutFigures): void {
    this.#playout = read;
  }

  /** Whether a DJ is heard (the live input). */
  readLive(read: () => boolean): void {
    this.#live = read;
  }

  /** The mounts' outputs (the scheduler's status), for the encoder restarts. */
  readMounts(read: () => readonly MountStatus[]): void {
    this.#mounts = read;
  }

  /** Pings the bus every 15 s until `close`. */
  start(): void {
    this.#probe.start();
  }

  close(): void {
    this.#probe.close();
  }
}
