import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { componentLogger, type Logger, localUrl, RadioError } from '@radio/core';
import { BUILD_COMMAND, DEFAULT_DIST_DIR } from './build.ts';
import { type ApiProxy, createApiProxy } from './proxy.ts';
import { StaticFiles, serveStatic } from './static.ts';

export {
  BUILD_COMMAND,
  buildWebApp,
  DEFAULT_DIST_DIR,
  ensureWebBuild,
  isWebBuilt,
  WEB_ROOT,
} from './build.ts';

export interface WebServerOptions {
  /** API_URL: where `/api` is forwarded to. */
  apiUrl: string;
  /** WEB_PORT; 0 picks a free port. Default 8080. */
  port?: number;
  /** WEB_HOST. Default 0.0.0.0. */
  host?: string;
  /** The built app. Default services/web/dist. */
  distDir?: string;
}

export interface WebServerDeps {
  logger: Logger;
}

export interface WebServer {
  readonly port: number;
  /** `http://host:port`, with 127.0.0.1 for a wildcard address so it can be opened as is. */
  readonly url: string;
  readonly server: Server;
  /** Stops accepting connections, ends proxied streams; idempotent. */
  close(): Promise<void>;
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

/**
 * The web server: the built app with caching headers and an SPA fallback, and `/api/*`
 * forwarded to the api. Rejects with WebNotBuiltError when there is no build.
 */
export async function createWebServer(
  options: WebServerOptions,
  deps: WebServerDeps,
): Promise<WebServer> {
  if (!deps?.logger) throw new TypeError('createWebServer: deps.logger is required');
  if (!options?.apiUrl || !URL.canParse(options.apiUrl)) {
    throw new TypeError(`createWebServer: apiUrl must be a URL, got ${String(options?.apiUrl)}`);
  }
  const log = componentLogger(deps.logger, 'web');
  const distDir = options.distDir ?? DEFAULT_DIST_DIR;

  let files: StaticFiles;
  try {
    files = await StaticFiles.load(distDir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new WebNotBuiltError(distDir);
    throw error;
  }
  const proxy: ApiProxy = createApiProxy({ target: options.apiUrl, logger: log });

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      log.debug(
        { method: req.method, url: req.url, status: res.statusCode, ms: Math.round(ms) },
        'request',
      );
    });
    let pathname: string;
    try {
      pathname = new URL(req.url ?? '/', 'http://web.invalid').pathname;
    } catch {
      res.writeHead(400, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Bad request\n');
      return;
    }
    if (isApiPath(pathname)) {
      proxy.handle(req, res);
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('Method not allowed\n');
      return;
    }
    serveStatic(files, req, res, pathname);
  };

  const server = createServer(handle);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 8080, options.host ?? '0.0.0.0', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const url = localUrl(address);
  log.info({ url, api: options.apiUrl, distDir, files: files.size }, 'web server listening');

  let closing: Promise<void> | null = null;
  return {
    port: address.port,
    url,
    server,
    close() {
      closing ??= new Promise<void>((resolve) => {
        proxy.close();
        const force = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS);
        force.unref();
        server.close(() => {
          clearTimeout(force);
          resolve();
        });
        server.closeIdleConnections();
      });
      return closing;
    },
  };
}
