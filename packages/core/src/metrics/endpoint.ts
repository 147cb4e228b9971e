import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Registry } from 'prom-client';
import { type AdminLogin, checkBasicAuth } from './basic-auth.ts';

/** What a service answers to `GET /metrics`, whatever writes it to the socket. */
export interface MetricsAnswer {
  readonly status: 200 | 401 | 404;
  readonly contentType: string;
  readonly body: string;
  readonly headers: Readonly<Record<string, string>>;
}

const TEXT = 'text/plain; charset=utf-8';

/**
 * A service's `/metrics`: the registry in Prometheus's text format for the admin (HTTP Basic
 * with ADMIN_USER/ADMIN_PASSWORD), 401 for anyone else. Without a login (the web server when no
 * admin password is configured) it answers 404, as if there were no such page.
 */
export class MetricsEndpoint {
  readonly registry: Registry;
  readonly #login: AdminLogin | null;

  constructor(registry: Registry, login: AdminLogin | null) {
    this.registry = registry;
    this.#login = login;
  }

  async answer(authorization: string | undefined): Promise<MetricsAnswer> {
    if (this.#login === null) {
      return { status: 404, contentType: TEXT, body: 'Not found\n', headers: {} };
    }
    if (!checkBasicAuth(authorization, this.#login)) {
      return {
        status: 401,
        contentType: TEXT,
        body: 'authentication required\n',
        headers: { 'WWW-Authenticate': 'Basic realm="metrics"' },
      };
    }
    return {
      status: 200,
      contentType: this.registry.contentType,
      body: await this.registry.metrics(),
      headers: { 'Cache-Control': 'no-store' },
    };
  }

  /** Answers a node:http request (the api's and the web server's). */
  async serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const answer = await this.answer(req.headers.authorization);
    res.writeHead(answer.status, {
      ...answer.headers,
      'Content-Type': answer.contentType,
      'Content-Length': Buffer.byteLength(answer.body),
    });
    res.end(req.method === 'HEAD' ? undefined : answer.body);
  }
}
