import {
  type AdminLogin,
  type Bus,
  BusProbe,
  createServiceRegistry,
  type HttpLatencyLabels,
  httpLatencyHistogram,
  type MetricsAnswer,
  MetricsEndpoint,
} from '@radio/core';
import { Counter, Gauge, type Histogram } from 'prom-client';
import type { Reply } from './http-reply.ts';
import type { SessionRecorderStats } from './sessions/session-recorder.ts';
import type { ServerSnapshot } from './stats.ts';

/**
 * The stream server's Prometheus metrics, read from the same snapshot as stats.xml when a
 * scrape comes (nothing is counted twice, and a listener costs nothing more): per mount its
 * listeners (Icecast and HLS, with an origin's edges), bytes sent, slow listeners dropped and
 * whether a source is connected; the buffer of finished listener sessions on their way to
 * the api; and the time to answer the admin, status and metrics pages (listeners and sources
 * hold their connection: not requests to time).
 */
export interface StreamMetricsSources {
  /** The stats as stats.xml shows them, idle mounts included. */
  snapshot(): ServerSnapshot;
  /** The finished listener sessions' buffer. */
  sessions(): SessionRecorderStats;
  login: AdminLogin;
  bus: Bus | null;
}

export class StreamMetrics {
  readonly endpoint: MetricsEndpoint;
  readonly #probe: BusProbe | null;
  readonly #latency: Histogram<HttpLatencyLabels>;

  constructor(sources: StreamMetricsSources) {
    const { snapshot, sessions, bus } = sources;
    const registry = createServiceRegistry('stream');
    this.endpoint = new MetricsEndpoint(registry, sources.login);
    this.#probe = bus ? new BusProbe(bus, registry) : null;
    this.#latency = httpLatencyHistogram(
      registry,
      'Time to answer an HTTP request, per method, route and status.',
    );
    new Gauge({
      name: 'radio_listeners',
      help: 'Listeners connected now, per mount (HLS sessions and edge listeners included).',
      labelNames: ['mount'],
      registers: [registry],
      collect() {
        this.reset();
        for (const mount of snapshot().mounts) this.set({ mount: mount.path }, mount.listeners);
      },
    });
    new Gauge({
      name: 'radio_source_connected',
      help: 'Whether a source feeds the mount now (1) or not (0).',
      labelNames: ['mount'],
      registers: [registry],
      collect() {
        this.reset();
        for (const mount of snapshot().mounts) {
          this.set({ mount: mount.path }, mount.state === 'live' ? 1 : 0);
        }
      },
    });
    new Counter({
      name: 'radio_bytes_sent_total',
      help: 'Bytes sent to the listeners of each mount since the mount was created.',
      labelNames: ['mount'],
      registers: [registry],
      collect() {
        this.reset();
        for (const mount of snapshot().mounts)
          this.inc({ mount: mount.path }, mount.totalBytesSent);
      },
    });
    new Counter({
      name: 'radio_listener_drops_total',
      help: 'Listeners dropped for falling too far behind, per mount.',
      labelNames: ['mount'],
      registers: [registry],
      collect() {
        this.reset();
        for (const mount of snapshot().mounts) this.inc({ mount: mount.path }, mount.slowListeners);
      },
    });
    new Gauge({
      name: 'radio_listener_sessions_buffered',
      help: 'Finished listener sessions waiting to be stored by the api.',
      registers: [registry],
      collect() {
        this.set(sessions().buffered);
      },
    });
    new Counter({
      name: 'radio_listener_sessions_sent_total',
      help: 'Finished listener sessions the api has confirmed storing.',
      registers: [registry],
      collect() {
        this.reset();
        this.inc(sessions().sent);
      },
    });
    new Counter({
      name: 'radio_listener_sessions_dropped_total',
      help: 'Finished listener sessions dropped because the buffer was full.',
      registers: [registry],
      collect() {
        this.reset();
        this.inc(sessions().dropped);
      },
    });
  }

  /** One answered request: `route` a bounded label (see routeLabel). */
  observeRequest(method: string, route: string, status: number, seconds: number): void {
    this.#latency.observe({ method, route, status }, seconds);
  }

  start(): void {
    this.#probe?.start();
  }

  close(): void {
    this.#probe?.close();
  }

  /** `GET /metrics` in the stream server's own reply form. */
  async reply(authorization: string | undefined, client: string): Promise<Reply> {
    return toReply(await this.endpoint.answer(authorization, client));
  }
}

function toReply(answer: MetricsAnswer): Reply {
  return {
    status: answer.status,
    contentType: answer.contentType,
    early: Object.entries(answer.headers).map(([name, value]) => `${name}: ${value}`),
    body: answer.body,
    length: true,
  };
}
