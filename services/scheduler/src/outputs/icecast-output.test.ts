import { createServer as createHttpServer, type IncomingMessage } from 'node:http';
import { createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from '@jest/globals';
import { silentLogger } from '@radio/core';
import { IcecastOutput } from './icecast-output.ts';

/** A stand-in source endpoint: records request heads and bodies, answers as told. */
class FakeServer {
  readonly heads: string[] = [];
  readonly bodies: Buffer[] = [];
  readonly sockets = new Set<Socket>();
  answer = 'HTTP/1.1 100 Continue\r\nContent-Length: 0\r\n\r\nHTTP/1.0 200 OK\r\n\r\n';
  server: Server;
  port = 0;

  constructor() {
    this.server = createServer((socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
      socket.on('error', () => {});
      let head = Buffer.alloc(0);
      let index = -1;
      socket.on('data', (chunk: Buffer) => {
        if (index < 0) {
          head = Buffer.concat([head, chunk]);
          const end = head.indexOf('\r\n\r\n');
          if (end < 0) return;
          this.heads.push(head.subarray(0, end).toString());
          index = this.bodies.push(head.subarray(end + 4)) - 1;
          socket.write(this.answer);
          if (!this.answer.includes(' 200 ') && !this.answer.includes(' 100 ')) socket.end();
          return;
        }
        this.bodies[index] = Buffer.concat([this.bodies[index] as Buffer, chunk]);
      });
    });
  }

  async listen(port = 0): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(port, '127.0.0.1', resolve));
    const address = this.server.address();
    this.port = typeof address === 'object' && address ? address.port : 0;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

const until = async (check: () => boolean, timeoutMs = 5000): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

describe('IcecastOutput', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  const output = (
    port: number,
    extra: Partial<ConstructorParameters<typeof IcecastOutput>[0]> = {},
  ) => {
    const out = new IcecastOutput({
      url: new URL(`http://127.0.0.1:${port}`),
      mount: '/radio.mp3',
      password: 'pw',
      contentType: 'audio/mpeg',
      headers: { 'ice-name': 'Radio', 'ice-bitrate': '128', 'ice-public': '0' },
      logger: silentLogger(),
      backoffMs: { min: 50, max: 200 },
      ...extra,
    });
    cleanups.push(() => out.stop());
    return out;
  };

  it('sends PUT with source credentials and ice headers, then the raw audio', async () => {
    const server = new FakeServer();
    await server.listen();
    cleanups.push(() => server.close());
    let connected = 0;
    const out = output(server.port, { onConnected: () => connected++ });
    expect(out.write(Buffer.from('dropped'))).toBe(false); // not connected yet
    out.start();
    await until(() => out.connected);
    expect(connected).toBe(1);
    const head = server.heads[0] as string;
    expect(head.split('\r\n')[0]).toBe('PUT /radio.mp3 HTTP/1.1');
    expect(head).toContain(`Authorization: Basic ${Buffer.from('source:pw').toString('base64')}`);
    expect(head).toContain('Content-Type: audio/mpeg');
    expect(head).toContain('ice-name: Radio');
    expect(head).toContain('ice-bitrate: 128');
    expect(head).not.toMatch(/Transfer-Encoding|Content-Length/i);
    expect(out.write(Buffer.from('frame-1'))).toBe(true);
    expect(out.write(Buffer.from('frame-2'))).toBe(true);
    await until(() => server.bodies[0]?.toString() === 'frame-1frame-2');
    expect(out.status()).toMatchObject({ connected: true, bytesSent: 14, bytesDropped: 7 });
  });

  it('reconnects after the server goes away and comes back on the same port', async () => {
    const server = new FakeServer();
    await server.listen();
    const port = server.port;
    const out = output(port);
    out.start();
    await until(() => out.connected);
    await server.close();
    await until(() => !out.connected);
    expect(out.write(Buffer.from('lost'))).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 300)); // a few refused attempts
    const again = new FakeServer();
    await again.listen(port);
    cleanups.push(() => again.close());
    await until(() => out.connected);
    expect(out.status().connects).toBe(2);
  });

  it('keeps retrying a server that refuses the source, and says why', async () => {
    const server = new FakeServer();
    server.answer = 'HTTP/1.0 401 Authentication Required\r\n\r\n';
    await server.listen();
    cleanups.push(() => server.close());
    const out = output(server.port);
    out.start();
    await until(() => server.heads.length >= 3);
    expect(out.connected).toBe(false);
    expect(out.status().lastError).toMatch(/refused the source: HTTP\/1.0 401/);
  });

  it('sends the title with /admin/metadata, falling back to the admin login, on one line', async () => {
    const requests: { url: string; auth: string }[] = [];
    const http = createHttpServer((req: IncomingMessage, res) => {
      if (!req.url?.startsWith('/admin/')) return; // the PUT of the source itself
      requests.push({ url: req.url, auth: req.headers.authorization ?? '' });
      const isAdmin =
        req.headers.authorization === `Basic ${Buffer.from('admin:apw').toString('base64')}`;
      res.statusCode = isAdmin ? 200 : 401;
      res.end();
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    cleanups.push(
      () =>
        new Promise<void>((resolve) => {
          http.closeAllConnections();
          http.close(() => resolve());
        }),
    );
    const address = http.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const out = output(port, { admin: { user: 'admin', password: 'apw' } });
    out.start();
    out.updateMetadata('Ärtist - Café + "Song"');
    await until(() => requests.length === 2);
    const url = new URL(requests[0]?.url as string, 'http://x');
    expect(url.pathname).toBe('/admin/metadata');
    expect(url.searchParams.get('mode')).toBe('updinfo');
    expect(url.searchParams.get('mount')).toBe('/radio.mp3');
    expect(url.searchParams.get('song')).toBe('Ärtist - Café + "Song"');
    expect(url.searchParams.get('charset')).toBe('UTF-8');
    expect(requests[0]?.url).not.toContain('+');
    expect(requests[1]?.auth).toBe(`Basic ${Buffer.from('admin:apw').toString('base64')}`);
    // A tag's line breaks and escapes never reach the stream server's title.
    out.updateMetadata('Ärtist\r\nEND\r\n- Ti\u001b[2Jtle\u0085\n');
    await until(() => requests.length === 4);
    const song = new URL(requests[2]?.url as string, 'http://x').searchParams.get('song');
    expect(song).toBe('Ärtist END - Ti [2Jtle');
  });
});
