import { collectDefaultMetrics, Histogram, Registry } from 'prom-client';

const PROMTOOL_REJECTS = [
  'nodejs_active_handles_total',
  'nodejs_active_requests_total',
  'nodejs_active_resources_total',
];

/**
 * A Prometheus registry of one service, with the process's default metrics (CPU, memory, file
 * descriptors, `nodejs_eventloop_lag_seconds` …) and a `service` label on every series. Each
 * service keeps its own registry rather than prom-client's global one: in embedded mode the four
 * services share one process, and each port must still answer with its own service's figures
 * (the default ones then describe the same process under each service's label).
 */
export function createServiceRegistry(service: string): Registry {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  collectDefaultMetrics({ register: registry });
  // Gauges named like counters, which `promtool check metrics` rejects; the per-type gauges
  // beside them (nodejs_active_handles{type} …) carry the same figures, their sum.
  for (const name of PROMTOOL_REJECTS) registry.removeSingleMetric(name);
  return registry;
}

/** Labels of the HTTP latency histogram: `route` is a bounded label, never the URL. */
export type HttpLatencyLabels = 'method' | 'route' | 'status';

/**
 * `radio_http_request_duration_seconds` in the registry: one name, label set and buckets on
 * every service, so one PromQL query reads them all. `help` says what this service times.
 */
export function httpLatencyHistogram(
  registry: Registry,
  help: string,
): Histogram<HttpLatencyLabels> {
  return new Histogram({
    name: 'radio_http_request_duration_seconds',
    help,
    labelNames: ['method', 'route', 'status'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
}
