import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ForwardingProxy {
  /** `http://127.0.0.1:port`: what the test talks to, as a browser talks to Caddy. */
  readonly url: string;
  close(): Promise<void>;
}

/**
 * A reverse proxy hop as Caddy or nginx make it in front of the station: every request goes on
 * to `target` with the client's Host kept, X-Forwarded-For naming the client, and
 * X-Forwarded-Proto / -Host saying what the client reached (`https`, the public name), since TLS
 * ends at the proxy.
 */
export async function startForwardingProxy(
  target: string,
  reached: { proto: 'http' | 'https'; host: string },
): Promise<ForwardingProxy> {
  const upstream = new URL(target);
  const server: Server = createServer((req, res) => {
    const forwarded = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers: {
          ...req.headers,
          'x-forwarded-for': req.socket.remoteAddress ?? '',
          'x-forwarded-proto': reached.proto,
          'x-forwarded-host': reached.host,
        },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forwarded.on('error', () => res.destroy());
    req.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
