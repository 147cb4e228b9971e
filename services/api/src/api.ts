import type { Server } from 'node:http';
import { componentLogger, localUrl } from '@radio/core';
import type { Express } from 'express';
import { BASE_PATH, buildApp } from './app.ts';
import { closeServer, createHttpServer, listen } from './http/http-server.ts';
import { type ApiOptions, resolveApiOptions } from './options.ts';
import { createSessions } from './sessions/sessions.ts';
import {
  type ApiDeps,
  createRepositories,
  createServices,
  registerRoutes,
  runServices,
} from './wiring.ts';

export interface ListeningApi {
  readonly port: number;
  /** `http://host:port`. */
  readonly url: string;
  readonly server: Server;
  /** Stops accepting connections and waits for the open ones (forced after a grace period). */
  close(): Promise<void>;
}

export interface Api {
  /** The express app, for mounting elsewhere or for supertest. */
  readonly app: Express;
  listen(port?: number, host?: string): Promise<ListeningApi>;
  /** Stops every server from `listen`, ends event streams, releases timers. Idempotent; the deps stay open. */
  close(): Promise<void>;
}

function checkDeps(deps: ApiDeps): void {
  if (!deps?.db || !deps.bus || !deps.logger)
    throw new TypeError('createApi: deps.db, deps.bus and deps.logger are required');
}

/**
 * Builds the api on the given database, bus and (optionally) Redis. The caller owns those and
 * closes them after `close()`.
 */
export async function createApi(apiOptions: ApiOptions, apiDeps: ApiDeps): Promise<Api> {
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
  const stopServices = runServices(services, deps.bus);
  sessions.start();
  const cleanup = () => {
    stopServices();
    services.counters.close();
    sessions.close();
  };

  try {
    if (options.bootstrapAdmin) {
      const { username, password } = options.bootstrapAdmin;
      if (await services.auth.ensureBootstrapAdmin(username, password)) {
        log.info({ username }, 'created the first admin account');
      }
    }
  } catch (error) {
    cleanup();
    throw error;
  }

  const app = buildApp({
    logger: log,
    trustProxy: options.trustProxy,
    allowedOrigins: options.allowedOrigins,
    bodyLimit: options.bodyLimit,
    session: sessions.middleware,
    users: sessions.users,
    routes: registerRoutes(services, sessions.settings, BASE_PATH),
  });

  const servers = new Set<ListeningApi>();
  let closing: Promise<void> | null = null;

  async function listenOn(port = 0, host = '127.0.0.1'): Promise<ListeningApi> {
    if (closing) throw new Error('the api is closed');
    const server = createHttpServer(app);
    const address = await listen(server, port, host);
    let stopping: Promise<void> | null = null;
    const listening: ListeningApi = {
      port: address.port,
      url: localUrl(address),
      server,
      close() {
        servers.delete(listening);
        stopping ??= closeServer(server);
        return stopping;
      },
    };
    servers.add(listening);
    log.info({ url: listening.url }, 'api listening');
    return listening;
  }

  return {
    app,
    listen: listenOn,
    close() {
      closing ??= (async () => {
        // Event streams first: they never end on their own and would hold the servers open.
        services.events.close();
        await Promise.all([...servers].map((server) => server.close()));
        cleanup();
      })();
      return closing;
    },
  };
}
