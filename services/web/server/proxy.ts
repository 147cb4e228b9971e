import { Agent, type IncomingMessage, request, type ServerResponse } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { Logger, TrustedProxies } from '@radio/core';
import { forwardedHeaders, withoutHopByHop } from './forwarded.ts';

export interface ApiProxyOptions {
  /** API_URL: where the api listens (`http://127.0.0.1:3000`). */
  target: string;
  logger: Logger;
  /** The proxies in front of the web server whose X-Forwarded-* headers are passed on. */
  trustedProxies: TrustedProxies;
}

export interface ApiProxy {
  /** Forwards one request and its answer, both streamed. */
  handle(req: IncomingMessage, res: ServerResponse): void;
  /** Ends the pooled connections to the api and any request still running. */
  close(): void;
}

function sendGatewayError(
  res: ServerResponse,
  status: number,
  code: string,
  message: string,
): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const body = JSON.stringify({ error: { code, message } });
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
    'Cache-Control': 'no-store',
    'Retry-After': '5',
  });
  res.end(body);
}

/**
 * A streaming reverse proxy for `/api`: the request body flows to the api as it arrives and
 * the answer flows back as the api writes it, so Server-Sent Events pass through unbuffered.
 */
export function createApiProxy(options: ApiProxyOptions): ApiProxy {
  const target = new URL(options.target);
  if (target.protocol !== 'http:' && target.protocol !== 'https:') {
    throw new TypeError(`createApiProxy: target must be an http(s) URL, got ${options.target}`);
  }
  const secure = target.protocol === 'https:';
  const basePath = target.pathname.replace(/\/+$/, '');
  const agent = secure ? new HttpsAgent({ keepAlive: true }) : new Agent({ keepAlive: true });
  const send = secure ? httpsRequest : request;
  const log = options.logger;
  const open = new Set<ReturnType<typeof request>>();

  return {
    handle(req, res) {
      // A body-less request can be sent again if the api closed an idle keep-alive socket
      // just as we reused it (the classic keep-alive race); one with a body cannot.
      const replayable = !('content-length' in req.headers || 'transfer-encoding' in req.headers);
      const forward = (retry: boolean): void => {
        const upstream = send({
          protocol: target.protocol,
          hostname: target.hostname,
          port: target.port || (secure ? 443 : 80),
          method: req.method,
          path: `${basePath}${req.url ?? '/'}`,
          headers: forwardedHeaders(req, options.trustedProxies),
          agent,
        });
        open.add(upstream);

        upstream.on('response', (answer) => {
          const headers = withoutHopByHop(answer.headers);
          res.writeHead(answer.statusCode ?? 502, answer.statusMessage, headers);
          const type = String(answer.headers['content-type'] ?? '');
          if (type.startsWith('text/event-stream')) {
            // Each event must reach the browser the moment the api writes it.
            res.socket?.setNoDelay(true);
            res.flushHeaders();
          }
          answer.pipe(res);
          answer.on('error', () => res.destroy());
        });

        upstream.on('error', (error: NodeJS.ErrnoException) => {
          open.delete(upstream);
          if (res.headersSent) {
            res.destroy();
            return;
          }
          if (res.writableEnded || res.destroyed) return;
          if (retry && replayable && upstream.reusedSocket && error.code === 'ECONNRESET') {
            forward(false);
            return;
          }
          log.warn({ err: error, url: req.url, code: error.code }, 'the api is not reachable');
          sendGatewayError(
            res,
            502,
            'WEB_API_UNREACHABLE',
            'the api is not reachable; try again in a moment',
          );
        });
        upstream.on('close', () => open.delete(upstream));

        // The browser went away (a closed tab ends its event stream): let the api know at once.
        res.on('close', () => {
          if (!res.writableFinished) upstream.destroy();
        });
        if (replayable) upstream.end();
        else {
          req.on('error', () => upstream.destroy());
          req.pipe(upstream);
        }
      };
      forward(true);
    },

    close() {
      for (const upstream of open) upstream.destroy();
      open.clear();
      agent.destroy();
    },
  };
}
