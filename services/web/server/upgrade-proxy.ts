import {
  type ClientRequest,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  request,
  STATUS_CODES,
} from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Duplex } from 'node:stream';
import type { Logger, TrustedProxies } from '@radio/core';
import { forwardedHeaders } from './forwarded.ts';

/** The head of an HTTP answer written by hand onto a raw socket. */
function answerHead(status: number, message: string, rawHeaders: readonly string[]): string {
  let head = `HTTP/1.1 ${status} ${message}\r\n`;
  for (let i = 0; i < rawHeaders.length; i += 2)
    head += `${rawHeaders[i]}: ${rawHeaders[i + 1]}\r\n`;
  return `${head}\r\n`;
}

function gatewayError(socket: Duplex): void {
  const body = JSON.stringify({
    error: {
      code: 'WEB_API_UNREACHABLE',
      message: 'the api is not reachable; try again in a moment',
    },
  });
  socket.end(
    `HTTP/1.1 502 ${STATUS_CODES[502]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/**
 * Forwards an HTTP upgrade (the go-live WebSocket) to the api: the handshake goes through with
 * the browser's cookie and Origin, then the two sockets are joined byte for byte. A refusal
 * (the api's 401 or 403) reaches the browser as the api wrote it.
 */
export function createUpgradeProxy(options: {
  target: string;
  logger: Logger;
  trustedProxies: TrustedProxies;
}) {
  const target = new URL(options.target);
  const secure = target.protocol === 'https:';
  const send = secure ? httpsRequest : request;
  const basePath = target.pathname.replace(/\/+$/, '');
  const open = new Set<Duplex>();

  const join = (client: Duplex, upstream: Duplex) => {
    open.add(client);
    open.add(upstream);
    const end = () => {
      client.destroy();
      upstream.destroy();
      open.delete(client);
      open.delete(upstream);
    };
    client.on('error', end);
    upstream.on('error', end);
    client.on('close', end);
    upstream.on('close', end);
    client.pipe(upstream);
    upstream.pipe(client);
  };

  return {
    upgrade(req: IncomingMessage, client: Duplex, head: Buffer): void {
      const headers: OutgoingHttpHeaders = {
        ...forwardedHeaders(req, options.trustedProxies),
        connection: 'Upgrade',
        upgrade: req.headers.upgrade ?? 'websocket',
      };
      const upstream: ClientRequest = send({
        protocol: target.protocol,
        hostname: target.hostname,
        port: target.port || (secure ? 443 : 80),
        method: req.method,
        path: `${basePath}${req.url ?? '/'}`,
        headers,
      });
      client.on('error', () => upstream.destroy());
      upstream.on('upgrade', (answer, socket, upstreamHead) => {
        client.write(
          answerHead(101, answer.statusMessage ?? 'Switching Protocols', answer.rawHeaders),
        );
        if (upstreamHead.length > 0) client.write(upstreamHead);
        if (head.length > 0) socket.write(head);
        join(client, socket);
      });
      upstream.on('response', (answer) => {
        client.write(
          answerHead(answer.statusCode ?? 502, answer.statusMessage ?? '', answer.rawHeaders),
        );
        answer.pipe(client);
      });
      upstream.on('error', (error) => {
        options.logger.warn(
          { err: error, url: req.url },
          'the api is not reachable for an upgrade',
        );
        if (client.writable) gatewayError(client);
      });
      upstream.end();
    },

    close(): void {
      for (const socket of open) socket.destroy();
      open.clear();
    },
  };
}

export type UpgradeProxy = ReturnType<typeof createUpgradeProxy>;
