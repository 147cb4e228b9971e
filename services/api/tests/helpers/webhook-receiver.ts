import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  /** performance.now() when the whole body was in. */
  at: number;
  /** The status the receiver answered (or, when slow, will answer). */
  status: number;
}

/** How the receiver answers: 200, 500, or 200 after a delay. */
export type ReceiverMode =
  | { kind: 'ok' }
  | { kind: 'fail'; status: number }
  | { kind: 'slow'; ms: number };

/**
 * A real HTTP receiver (on 127.0.0.1 unless told), as a station's webhook would call. It can be stopped (the
 * port then refuses connections) and started again on the same port.
 */
export class WebhookReceiver {
  readonly received: Received[] = [];
  mode: ReceiverMode = { kind: 'ok' };
  #server: Server | null = null;
  #port = 0;
  readonly #timers = new Set<NodeJS.Timeout>();
  readonly #host: string;

  /** `host`: an IPv4 address of this machine to listen on. */
  constructor(host = '127.0.0.1') {
    this.#host = host;
  }

  get url(): string {
    return `http://${this.#host}:${this.#port}/hook`;
  }

  async start(): Promise<this> {
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const mode = this.mode;
        this.received.push({
          headers: req.headers,
          body: Buffer.concat(chunks).toString(),
          at: performance.now(),
          status: mode.kind === 'fail' ? mode.status : mode.kind === 'ok' ? 204 : 200,
        });
        if (mode.kind === 'fail') res.writeHead(mode.status).end('no');
        else if (mode.kind === 'ok') res.writeHead(204).end();
        else {
          const timer = setTimeout(() => {
            this.#timers.delete(timer);
            res.writeHead(200).end('late');
          }, mode.ms);
          this.#timers.add(timer);
        }
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.#port, this.#host, () => resolve());
    });
    this.#port = (server.address() as AddressInfo).port;
    this.#server = server;
    return this;
  }

  /** Stops listening and drops open connections: deliveries now fail to connect. */
  async stop(): Promise<void> {
    const server = this.#server;
    this.#server = null;
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  bodies(
    event?: string,
  ): Array<{ event: string; timestamp: string; data: Record<string, unknown> }> {
    return this.received
      .filter((r) => event === undefined || r.headers['x-radio-event'] === event)
      .map((r) => JSON.parse(r.body));
  }
}

/** Checks X-Radio-Signature the way the README tells receivers to. */
export function signatureIsValid(secret: string, received: Received): boolean {
  const timestamp = String(received.headers['x-radio-timestamp']);
  const signature = String(received.headers['x-radio-signature']);
  const expected = `sha256=${createHmac('sha256', secret).update(`${timestamp}.${received.body}`).digest('hex')}`;
  return (
    signature.length === expected.length &&
    timingSafeEqual(Buffer.from(signature), Buffer.from(expected))
  );
}
