import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Registry } from 'prom-client';
import { FailureLimiter } from '../security/failure-limiter.ts';
import { type AdminLogin, checkBasicAuth } from './basic-auth.ts';

/** What a service answers to `GET /metrics`, whatever writes it to the socket. */
export interface MetricsAnswer {
  readonly status: 200 | 401 | 404 | 429;
  readonly contentType: string;
  readonly body: string;
  readonly headers: Readonly<Record<string, string>>;
}

const TEXT = 'text/plain; charset=utf-8';

/**
 * A service's `/metrics`: the registry in Prometheus's text format for the admin (HTTP Basic
 * with ADMIN_USER/ADMIN_PASSWORD), 401 for anyone else. Without a login (the web server when no
 * admin password is configured) it answers 404, as if there were no such page. A client with
 * 10 wrong logins in 10 minutes is refused (429) until the window ends, even with the right one:
 * the admin password is the station's, and a scraper that knows it never fails.
 */
export class MetricsEndpoint {
  readonly registry: Registry;
  readonly #login: AdminLogin | null;
  readonly #failures = new FailureLimiter();

  constructor(registry: Registry, login: AdminLogin | null) {
    this.registry = registry;
    this.#login = login;
  }

  /** `client`: the caller's address (behind trusted proxies, the one they name). */
  async answer(authorization: string | undefined, client: string): Promise<MetricsAnswer> {
    if (this.#login === null) {
      return { status: 404, contentType: TEXT, body: 'Not found\n', headers: {} };
    }
    const wait = this.#failures.blockedFor(client);
    if (wait > 0) {
      return {
        status: 429,
        contentType: TEXT,
        body: 'too many failed logins; try again later\n',
        headers: { 'Retry-After': String(Math.ceil(wait / 1000)) },
      };
    }
    if (!checkBasicAuth(authorization, this.#login)) {
      // A first request without credentials is how a browser asks for the login box.
      if (authorization !== undefined) this.#failures.fail(client);
      return {
        status: 401,
        contentType: TEXT,
        body: 'authentication required\n',
        headers: { 'WWW-Authenticate': 'Basic realm="metrics"' },
      };
    }
    this.#failures.succeed(client);
    return {
      status: 200,
      contentType: this.registry.contentType,
      body: await this.registry.metrics(),
      headers: { 'Cache-Control': 'no-store' },
    };
  }

  /** Answers a node:http request (the api's and the web server's) from `client`. */
  async serve(req: IncomingMessage, res: ServerResponse, client: string): Promise<void> {
    const answer = await this.answer(req.headers.authorization, client);
    res.writeHead(answer.status, {
      ...answer.headers,
      'Content-Type': answer.contentType,
      'Content-Length': Buffer.byteLength(answer.body),
    });
    res.end(req.method === 'HEAD' ? undefined : answer.body);
  }
}
