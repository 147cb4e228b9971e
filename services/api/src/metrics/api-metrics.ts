import {
  type AdminLogin,
  type Bus,
  BusProbe,
  createServiceRegistry,
  type HttpLatencyLabels,
  httpLatencyHistogram,
  MetricsEndpoint,
} from '@radio/core';
import type { Request, RequestHandler, Response } from 'express';
import { Counter, type Histogram, type Registry } from 'prom-client';

/** Where the api router's mount path is kept for the request's route label. */
const ROUTE_BASE = 'metricsRouteBase';

/**
 * The label of a request: the route's pattern (`/api/radio/tracks/:id`), never the URL, so a
 * scan of random paths cannot make new series. A request no route took is `unmatched`; one a
 * router served by itself (the tus uploads) is its mount path with `/*`.
 */
function routeLabel(req: Request, res: Response): string {
  const base = (res.locals[ROUTE_BASE] as string | undefined) ?? '';
  const pattern = req.route?.path;
  if (typeof pattern === 'string') return `${base}${pattern}`;
  return res.statusCode === 404 || base === '' ? 'unmatched' : `${base}/*`;
}

/**
 * The api's Prometheus metrics: HTTP latency per route pattern, method and status, the listener
 * sessions stored from the stream servers' batches, the bus round trip and the process's default
 * metrics; `/metrics` (outside /api/radio) answers them to the admin.
 */
export class ApiMetrics {
  readonly registry: Registry;
  readonly endpoint: MetricsEndpoint;
  readonly #probe: BusProbe;
  readonly #latency: Histogram<HttpLatencyLabels>;

  /**
   * `login` null: /metrics answers 404 (an api built without the admin's credentials).
   * `sessionsStored`: the sessions this process has stored (the audience's ingest keeps it).
   */
  constructor(login: AdminLogin | null, bus: Bus, sessionsStored: () => number) {
    this.registry = createServiceRegistry('api');
    this.endpoint = new MetricsEndpoint(this.registry, login);
    this.#probe = new BusProbe(bus, this.registry);
    this.#latency = httpLatencyHistogram(
      this.registry,
      'Time to answer an HTTP request, per method, route pattern and status.',
    );
    new Counter({
      name: 'radio_listener_sessions_stored_total',
      help: 'Finished listener sessions stored from the stream servers (repeats of a batch not counted).',
      registers: [this.registry],
      collect() {
        this.reset();
        this.inc(sessionsStored());
      },
    });
  }

  /** First of the app's middleware: times each request until its answer is sent. */
  readonly timing: RequestHandler = (req, res, next) => {
    const started = process.hrtime.bigint();
    res.once('finish', () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const labels = { method: req.method, route: routeLabel(req, res), status: res.statusCode };
      this.#latency.observe(labels, seconds);
    });
    next();
  };

  /**
   * First of a router's middleware: keeps the router's mount path, which express forgets when
   * an error leaves the router, so the label of a failed route still has it.
   */
  readonly routerBase: RequestHandler = (req, res, next) => {
    res.locals[ROUTE_BASE] = req.baseUrl;
    next();
  };

  /** `GET /metrics`. */
  readonly serve: RequestHandler = (req, res, next) => {
    this.endpoint.serve(req, res, req.ip ?? '').catch(next);
  };

  start(): void {
    this.#probe.start();
  }

  close(): void {
    this.#probe.close();
  }
}
