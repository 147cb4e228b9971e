import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  type AdminLogin,
  createServiceRegistry,
  type HttpLatencyLabels,
  httpLatencyHistogram,
  MetricsEndpoint,
} from '@radio/core';
import type { Histogram } from 'prom-client';

/**
 * The label of a request to the web server: what kind of page it is, never the URL itself, so
 * a scan of random paths cannot make new series.
 */
export function webRoute(pathname: string): string {
  if (pathname === '/api' || pathname.startsWith('/api/')) return '/api/*';
  if (pathname === '/metrics') return '/metrics';
  // The build's hashed files (scripts, styles, fonts), kept for a year by browsers.
  if (pathname.startsWith('/assets/')) return '/assets/*';
  return '/*';
}

/**
 * The web server's Prometheus metrics: HTTP latency per route kind, method and status, and the
 * process's default metrics (event-loop lag among them). The web server has no bus, so no bus
 * round trip here. `/metrics` answers the admin, or 404 when no admin password is configured.
 */
export class WebMetrics {
  readonly endpoint: MetricsEndpoint;
  readonly #latency: Histogram<HttpLatencyLabels>;

  constructor(login: AdminLogin | null) {
    const registry = createServiceRegistry('web');
    this.endpoint = new MetricsEndpoint(registry, login);
    this.#latency = httpLatencyHistogram(
      registry,
      'Time to answer an HTTP request (proxied api requests included), per method, route and status.',
    );
  }

  observe(req: IncomingMessage, res: ServerResponse, pathname: string, seconds: number): void {
    const labels = {
      method: req.method ?? 'GET',
      route: webRoute(pathname),
      status: res.statusCode,
    };
    this.#latency.observe(labels, seconds);
  }
}
