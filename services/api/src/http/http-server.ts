import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import { answerClientError } from './client-error.ts';

/** How long open connections may finish after a close began, before they are cut. */
const CLOSE_GRACE_MS = 3000;

/** The app's HTTP server; requests Node cannot parse are answered in the api's error shape. */
export function createHttpServer(app: Express): Server {
  const server = createServer(app);
  server.on('clientError', answerClientError);
  return server;
}

/** Resolves with the bound address once the server listens; rejects if it cannot bind. */
export function listen(server: Server, port: number, host: string): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server.address() as AddressInfo);
    });
  });
}

/** Stops accepting connections and waits for the open ones (forced after a grace period). */
export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    const force = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS);
    force.unref();
    server.close(() => {
      clearTimeout(force);
      resolve();
    });
    server.closeIdleConnections();
  });
}
