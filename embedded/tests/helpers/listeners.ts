import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import net from 'node:net';
import { waitFor } from '@radio/core/testing';

/*
 * Cheap listeners for the session tests: raw sockets that send a GET and discard the stream,
 * a small reverse proxy that sets X-Forwarded-For, a paced MP3 source, and a Redis server of
 * the test's own (so it can be stopped without touching anyone else's).
 */

export const SOURCE_PASSWORD = 'source-secret';

/** Silent MPEG-1 Layer III frames, 128 kbit/s 44.1 kHz stereo. */
function mp3Frames(count: number): Buffer {
  const parts: Buffer[] = [];
  for (let i = 0; i < count; i++) {
    const padded = Math.floor((i + 1) * 417.959) - Math.floor(i * 417.959) > 417;
    const frame = Buffer.alloc(padded ? 418 : 417);
    frame.set([0xff, 0xfb, 0x90 | (padded ? 2 : 0), 0x44]);
    parts.push(frame);
  }
  return Buffer.concat(parts);
}

/** Pushes MP3 at its real rate to `mount` until stopped. */
export async function startSource(port: number, mount: string): Promise<() => void> {
  const frames = mp3Frames(400);
  const socket = net.connect(port, '127.0.0.1');
  socket.on('error', () => {});
  await once(socket, 'connect');
  const auth = Buffer.from(`source:${SOURCE_PASSWORD}`).toString('base64');
  socket.write(
    `SOURCE ${mount} HTTP/1.0\r\nAuthorization: Basic ${auth}\r\nContent-Type: audio/mpeg\r\n\r\n`,
  );
  await once(socket, 'data');
  let offset = 0;
  const step = 16_000 / 10;
  const timer = setInterval(() => {
    if (offset + step > frames.length) offset = 0;
    socket.write(frames.subarray(offset, offset + step));
    offset += step;
  }, 100);
  return () => {
    clearInterval(timer);
    socket.destroy();
  };
}

/** One listener: when it had its answer and when it hung up (client-side clock). */
export interface TestListener {
  readonly userAgent: string;
  readonly socket: net.Socket;
  startedAt: number;
  endedAt: number | null;
  close(): void;
}

/**
 * Connects to `port`, sends a GET of `mount` with the user agent and extra header lines, and
 * resolves once the response head came. The body is read and dropped.
 */
export async function listen(
  port: number,
  mount: string,
  userAgent: string,
  headers: readonly string[] = [],
): Promise<TestListener> {
  const socket = net.connect(port, '127.0.0.1');
  socket.on('error', () => {});
  const startedAt = Date.now();
  socket.write(
    `GET ${mount} HTTP/1.0\r\nHost: radio\r\nUser-Agent: ${userAgent}\r\n${headers.map((h) => `${h}\r\n`).join('')}\r\n`,
  );
  const first = (await once(socket, 'data')) as [Buffer];
  if (!first[0].toString('latin1').startsWith('HTTP/1.0 200')) {
    socket.destroy();
    throw new Error(`listener refused: ${first[0].toString('latin1').split('\r\n')[0]}`);
  }
  socket.resume();
  const listener: TestListener = {
    userAgent,
    socket,
    startedAt,
    endedAt: null,
    close() {
      if (listener.endedAt !== null) return;
      listener.endedAt = Date.now();
      socket.destroy();
    },
  };
  return listener;
}

/**
 * A reverse proxy in front of the stream server, as a CDN or load balancer would be: it
 * connects from its own address (`localAddress`, which the stream server trusts) and appends
 * the client's address to X-Forwarded-For. All test clients are on loopback, so the address a
 * client "has" comes in an `X-Test-Client` header, which the proxy takes out.
 */
export class ForwardingProxy {
  readonly #server: net.Server;
  readonly #sockets = new Set<net.Socket>();

  constructor(targetPort: number, localAddress: string) {
    this.#server = net.createServer((client) => {
      this.#sockets.add(client);
      client.on('error', () => {});
      client.once('close', () => this.#sockets.delete(client));
      let head = Buffer.alloc(0);
      const onData = (chunk: Buffer): void => {
        head = Buffer.concat([head, chunk]);
        const end = head.indexOf('\r\n\r\n');
        if (end < 0) return;
        client.removeListener('data', onData);
        const upstream = net.connect({ port: targetPort, host: '127.0.0.1', localAddress });
        this.#sockets.add(upstream);
        upstream.on('error', () => {});
        upstream.once('close', () => {
          this.#sockets.delete(upstream);
          client.destroy();
        });
        client.once('close', () => upstream.destroy());
        upstream.write(forwarded(head.subarray(0, end).toString('latin1')));
        upstream.write(head.subarray(end));
        client.pipe(upstream);
        upstream.pipe(client);
      };
      client.on('data', onData);
    });
  }

  async start(): Promise<number> {
    this.#server.listen(0, '127.0.0.1');
    await once(this.#server, 'listening');
    return (this.#server.address() as net.AddressInfo).port;
  }

  async close(): Promise<void> {
    for (const socket of this.#sockets) socket.destroy();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }
}

function forwarded(head: string): string {
  const lines = head.split('\r\n');
  const client = lines
    .find((line) => /^x-test-client:/i.test(line))
    ?.split(':')[1]
    ?.trim();
  const kept = lines.filter((line) => !/^x-test-client:/i.test(line));
  const index = kept.findIndex((line) => /^x-forwarded-for:/i.test(line));
  if (client !== undefined) {
    if (index >= 0) kept[index] = `${kept[index]}, ${client}`;
    else kept.push(`X-Forwarded-For: ${client}`);
  }
  return kept.join('\r\n');
}

/** A redis-server of this test's own on a free port; `stop` and `start` it at will. */
export class OwnRedis {
  readonly port: number;
  #child: ChildProcess | null = null;

  constructor(port: number) {
    this.port = port;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const child = spawn(
      'redis-server',
      ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: 'ignore' },
    );
    this.#child = child;
    await waitFor('redis-server to accept connections', async () => {
      const socket = net.connect(this.port, '127.0.0.1');
      try {
        await once(socket, 'connect');
        return true;
      } catch {
        return false;
      } finally {
        socket.destroy();
      }
    });
  }

  async stop(): Promise<void> {
    const child = this.#child;
    this.#child = null;
    if (child === null || child.exitCode !== null) return;
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    await exited;
  }
}
