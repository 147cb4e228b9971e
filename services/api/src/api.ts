import type { Server } from 'node:http';
import { hostname } from 'node:os';
import {
  type Bus,
  componentLogger,
  type Logger,
  localUrl,
  type Service,
  TrustedProxies,
} from '@radio/core';
import type { Express } from 'express';
import { BASE_PATH, buildApp } from './app.ts';
import { ApiStateError } from './errors.ts';
import { closeServer, createHttpServer, listen } from './http/http-server.ts';
import { StationOrigins } from './http/station-origins.ts';
import type { GoLiveSockets } from './live/go-live-socket.ts';
import { ApiMetrics } from './metrics/api-metrics.ts';
import { type ApiOptions, type ResolvedApiOptions, resolveApiOptions } from './options.ts';
import { loadUser } from './sessions/load-user.ts';
import { createSessions, type Sessions } from './sessions/sessions.ts';
import {
  type ApiDeps,
  createRepositories,
  createServices,
  registerRoutes,
  runServices,
  type Services,
} from './wiring.ts';

/**
 * The api. `start` looks the trusted proxies up, starts its background work, creates the
 * bootstrap admin when there is no user yet, prints the setup code while there is no admin,
 * and listens; `close` stops all of it. The database, bus and Redis stay the caller's.
 */
export interface Api extends Service {
  /** The express app: supertest drives it without `start`, or it is mounted elsewhere. */
  readonly app: Express;
  /** The port listened on (the free one picked for port 0); 0 until started. */
  readonly port: number;
  /** `http://host:port`; '' until started. */
  readonly url: string;
  /**
   * The code that creates the first admin (POST /auth/setup), from `start` on while the
   * station has no admin; null before `start` and once there is an admin.
   */
  readonly setupCode: string | null;
}

interface ApiParts {
  options: ResolvedApiOptions;
  log: Logger;
  bus: Bus;
  proxies: TrustedProxies;
  sessions: Sessions;
  services: Services;
  app: Express;
  goLive: GoLiveSockets;
  metrics: ApiMetrics;
}

function ignoreError(): void {}

class ApiService implements Api {
  readonly app: Express;
  readonly #parts: ApiParts;
  readonly #server: Server;
  #started = false;
  /** Set while `start` is under way, so a close in that time waits for it. */
  #starting: Promise<void> | null = null;
  #closing: Promise<void> | null = null;
  #stopServices: (() => void) | null = null;
  #port = 0;
  #url = '';

  constructor(parts: ApiParts) {
    this.#parts = parts;
    this.app = parts.app;
    this.#server = createHttpServer(parts.app);
    this.#server.on('upgrade', parts.goLive.upgrade);
  }

  get port(): number {
    return this.#port;
  }

  get url(): string {
    return this.#url;
  }

  get setupCode(): string | null {
    return this.#parts.services.firstAdmin.code;
  }

  async start(): Promise<void> {
    if (this.#started || this.#closing) {
      throw new ApiStateError('this api was started or closed before; create a new one');
    }
    this.#started = true;
    this.#starting = this.#open();
    try {
      await this.#starting;
    } catch (error) {
      this.#starting = null;
      await this.close();
      throw error;
    }
    this.#starting = null;
  }

  close(): Promise<void> {
    this.#closing ??= this.#shutdown();
    return this.#closing;
  }

  async #open(): Promise<void> {
    const { options, log, bus, sessions, services } = this.#parts;
    await this.#parts.proxies.start();
    this.#stopServices = runServices(services, bus);
    sessions.start();
    this.#parts.metrics.start();
    if (options.bootstrapAdmin) {
      const { username, password } = options.bootstrapAdmin;
      if (await services.auth.ensureBootstrapAdmin(username, password)) {
        log.info({ username }, 'created the first admin account');
      }
    }
    const setupCode = await services.firstAdmin.prepare();
    if (setupCode !== null) {
      log.info(
        { setupCode },
        'waiting for the first admin: open the web app and enter the setup code',
      );
    }
    const address = await listen(this.#server, options.port, options.host);
    this.#port = address.port;
    this.#url = localUrl(address);
    log.info({ url: this.#url }, 'api listening');
  }

  async #shutdown(): Promise<void> {
    if (this.#starting) await this.#starting.catch(ignoreError);
    const { sessions, services } = this.#parts;
    // Event streams and go-live sockets first: they never end on their own and would hold
    // the server open.
    services.events.close();
    this.#parts.goLive.close();
    if (this.#server.listening) await closeServer(this.#server);
    this.#stopServices?.();
    services.counters.close();
    this.#parts.metrics.close();
    this.#parts.proxies.close();
    sessions.close();
  }
}

function checkDeps(deps: ApiDeps): void {
  if (!deps?.db || !deps.bus || !deps.logger)
    throw new TypeError('createApi: deps.db, deps.bus and deps.logger are required');
}

/**
 * Builds the api on the given database, bus and (optionally) Redis without opening anything;
 * `start` does. Throws a TypeError if the options or deps are invalid.
 */
export function createApi(apiOptions: ApiOptions, apiDeps: ApiDeps): Api {
  checkDeps(apiDeps);
  const options = resolveApiOptions(apiOptions, apiDeps.redis !== undefined);
  const log = componentLogger(apiDeps.logger, 'api');
  const deps = { ...apiDeps, log };
  const repositories = createRepositories(deps.db);
  const sessions = createSessions(options, {
    ...deps,
    users: repositories.users,
    cookiePath: BASE_PATH,
  });
  const services = createServices(options, deps, repositories);
  const stored = () => services.audience.ingest.stored;
  const metrics = new ApiMetrics(options.metricsLogin ?? null, deps.bus, stored);
  const proxies = new TrustedProxies(options.trustedProxies);
  const app = buildApp({
    logger: log,
    trust: proxies.expressTrust,
    origins: new StationOrigins({ ...options, machineName: hostname() }),
    bodyLimit: options.bodyLimit,
    session: sessions.middleware,
    users: sessions.users,
    routes: registerRoutes(services, sessions.settings, BASE_PATH),
    streamed: (auth) => services.uploads.endpoint.router(auth),
    metrics,
  });
  const goLive = services.live.sockets([sessions.middleware, loadUser(sessions.users)]);
  const parts = { options, log, bus: deps.bus, proxies, sessions, services, app, goLive, metrics };
  return new ApiService(parts);
}
