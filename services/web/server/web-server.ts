import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import {
  componentLogger,
  type Logger,
  localUrl,
  RadioError,
  type Service,
  TrustedProxies,
} from '@radio/core';
import { BUILD_COMMAND, DEFAULT_DIST_DIR } from './build.ts';
import { forwardedRequest, STRICT_TRANSPORT_SECURITY } from './forwarded.ts';
import { WebMetrics } from './metrics.ts';
import type { WebServerOptions } from './options.ts';
import { type ApiProxy, createApiProxy } from './proxy.ts';
import { RefusalLog } from './refusals.ts';
import { StaticFiles, serveStatic } from './static.ts';
import { createUpgradeProxy, type UpgradeProxy } from './upgrade-proxy.ts';

export interface WebServerDeps {
  logger: Logger;
}

/** The app has not been built: `dist/` has no index.html. */
export class WebNotBuiltError extends RadioError {
  readonly distDir: string;

  constructor(distDir: string) {
    super(
      'WEB_NOT_BUILT',
      `The web app is not built (no ${distDir}/index.html): run ${BUILD_COMMAND}`,
    );
    this.distDir = distDir;
  }
}

const CLOSE_GRACE_MS = 3000;

function isApiPath(pathname: string): boolean {
  return pathname === '/api' || pathname.startsWith('/api/');
}

async function loadFiles(distDir: string): Promise<StaticFiles> {
  try {
    return await StaticFiles.load(distDir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new WebNotBuiltError(distDir);
    throw error;
  }
}

/**
 * The web server: the built app with caching headers and an SPA fallback, and `/api/*`
 * forwarded to the api. `start` loads the build (WebNotBuiltError when there is none) and
 * listens.
 */
export class WebServer implements Service {
  readonly #options: WebServerOptions;
  readonly #distDir: string;
  readonly #log: Logger;
  readonly #proxy: ApiProxy;
  readonly #upgrades: UpgradeProxy;
  readonly #server: Server;
  readonly #metrics: WebMetrics;
  readonly #trusted: TrustedProxies;
  readonly #refusals: RefusalLog;
  #files: StaticFiles | null = null;
  #address: AddressInfo | null = null;
  #starting: Promise<void> | null = null;
  #closing: Promise<void> | null = null;

  constructor(options: WebServerOptions, deps: WebServerDeps) {
    this.#options = options;
    this.#distDir = options.distDir ?? DEFAULT_DIST_DIR;
    this.#log = componentLogger(deps.logger, 'web');
    this.#trusted = new TrustedProxies(options.trustedProxies ?? []);
    this.#refusals = new RefusalLog(this.#log);
    const target = { target: options.apiUrl, logger: this.#log, trustedProxies: this.#trusted };
    this.#proxy = createApiProxy(target);
    this.#upgrades = createUpgradeProxy(target);
    this.#metrics = new WebMetrics(options.metricsLogin ?? null);
    this.#server = createServer((req, res) => this.#handle(req, res));
    // The go-live WebSocket: upgrades under /api go to the api, any other is refused.
    this.#server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      const pathname = (req.url ?? '').split('?')[0] ?? '';
      if (isApiPath(pathname)) {
        this.#upgrades.upgrade(req, socket, head);
        return;
      }
      const client = forwardedRequest(req, this.#trusted).ip ?? '';
      this.#refusals.note(client, 'WEB_UPGRADE_REFUSED', 'an upgrade outside /api was refused', {
        url: req.url,
      });
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
    });
  }

  /** Valid once started. */
  get port(): number {
    return this.#listening().port;
  }

  /** `http://host:port`, with 127.0.0.1 for a wildcard address so it can be opened as is. */
  get url(): string {
    return localUrl(this.#listening());
  }

  get server(): Server {
    return this.#server;
  }

  start(): Promise<void> {
    if (this.#starting || this.#closing) {
      return Promise.reject(
        new RadioError('WEB_STARTED', 'this web server was already started; create a new one'),
      );
    }
    this.#starting = this.#start();
    return this.#starting;
  }

  /** Stops accepting connections, ends proxied streams; idempotent. */
  close(): Promise<void> {
    this.#closing ??= (this.#starting ?? Promise.resolve())
      .catch(() => {})
      .then(() => this.#stop());
    return this.#closing;
  }

  async #start(): Promise<void> {
    const files = await loadFiles(this.#distDir);
    this.#files = files;
    await this.#trusted.start();
    await new Promise<void>((resolve, reject) => {
      this.#server.once('error', reject);
      this.#server.listen(this.#options.port ?? 8080, this.#options.host ?? '0.0.0.0', () => {
        this.#server.off('error', reject);
        resolve();
      });
    });
    this.#address = this.#server.address() as AddressInfo;
    const { publicUrl, trustedProxies = [] } = this.#options;
    this.#log.info(
      {
        url: this.url,
        publicUrl,
        trustedProxies,
        api: this.#options.apiUrl,
        distDir: this.#distDir,
        files: files.size,
      },
      'web server listening',
    );
    if (publicUrl?.startsWith('https:') && trustedProxies.length === 0) {
      this.#log.warn(
        { publicUrl },
        'PUBLIC_URL is https but TRUSTED_PROXIES is empty: requests from the TLS proxy look like plain HTTP, so session cookies are not marked Secure; set TRUSTED_PROXIES to the proxy (e.g. 127.0.0.1 or caddy)',
      );
    }
  }

  #stop(): Promise<void> {
    this.#trusted.close();
    this.#proxy.close();
    this.#upgrades.close();
    if (!this.#server.listening) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const force = setTimeout(() => this.#server.closeAllConnections(), CLOSE_GRACE_MS);
      force.unref();
      this.#server.close(() => {
        clearTimeout(force);
        resolve();
      });
      this.#server.closeIdleConnections();
    });
  }

  #listening(): AddressInfo {
    if (!this.#address) throw new Error('the web server is not listening: call start() first');
    return this.#address;
  }

  #handle(req: IncomingMessage, res: ServerResponse): void {
    const started = process.hrtime.bigint();
    let pathname = '';
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      this.#metrics.observe(req, res, pathname, ms / 1000);
      this.#log.debug(
        { method: req.method, url: req.url, status: res.statusCode, ms: Math.round(ms) },
        'request',
      );
    });
    const seen = forwardedRequest(req, this.#trusted);
    // Over HTTPS (here, or at the trusted proxy in front), browsers are told to stay on it.
    if (seen.proto === 'https')
      res.setHeader('Strict-Transport-Security', STRICT_TRANSPORT_SECURITY);
    const client = seen.ip ?? '';
    try {
      pathname = new URL(req.url ?? '/', 'http://web.invalid').pathname;
    } catch {
      this.#refusals.note(client, 'WEB_BAD_REQUEST', 'a request with a malformed URL was refused');
      res.writeHead(400, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Bad request\n');
      return;
    }
    if (isApiPath(pathname)) {
      this.#proxy.handle(req, res);
      return;
    }
    if (pathname === '/metrics' && (req.method === 'GET' || req.method === 'HEAD')) {
      void this.#serveMetrics(req, res, client);
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      this.#refusals.note(client, 'WEB_METHOD_NOT_ALLOWED', 'a request method was refused', {
        method: req.method,
        url: req.url,
      });
      res.writeHead(405, { Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('Method not allowed\n');
      return;
    }
    serveStatic(this.#files as StaticFiles, req, res, pathname);
  }

  async #serveMetrics(req: IncomingMessage, res: ServerResponse, client: string): Promise<void> {
    try {
      await this.#metrics.endpoint.serve(req, res, client);
    } catch (error) {
      this.#log.error({ err: error }, 'metrics failed');
      if (!res.headersSent) res.writeHead(500).end();
      return;
    }
    if (res.statusCode === 429) {
      this.#refusals.note(
        client,
        'WEB_METRICS_RATE_LIMITED',
        '/metrics refused: too many failed logins',
      );
    } else if (res.statusCode === 401 && req.headers.authorization !== undefined) {
      this.#refusals.note(client, 'WEB_METRICS_LOGIN_FAILED', '/metrics refused: wrong login');
    }
  }
}

/** Builds the web server; it does no I/O until `start()`. */
export function createWebServer(options: WebServerOptions, deps: WebServerDeps): WebServer {
  if (!deps?.logger) throw new TypeError('createWebServer: deps.logger is required');
  if (!options?.apiUrl || !URL.canParse(options.apiUrl)) {
    throw new TypeError(`createWebServer: apiUrl must be a URL, got ${String(options?.apiUrl)}`);
  }
  return new WebServer(options, deps);
}
