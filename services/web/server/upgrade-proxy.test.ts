import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, request, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Duplex } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { silentLogger } from '@radio/core';
import { createWebServer, type WebServer } from './index.ts';

/*
 * HTTP upgrades through the web server (the go-live WebSocket): a stand-in api that switches
 * protocols and echoes the bytes, or refuses in the api's error shape.
 */

let upstream: Server;
let dir: string;
let web: WebServer;
const seen: IncomingMessage['headers'][] = [];

beforeAll(async () => {
  upstream = createServer((_req, res) => res.end());
  upstream.on('upgrade', (req: IncomingMessage, socket: Duplex) => {
    seen.push(req.headers);
    if (req.url !== '/api/radio/live/ws') {
      const body = '{"error":{"code":"API_UNAUTHENTICATED","message":"log in first"}}';
      socket.end(
        `HTTP/1.1 401 Unauthorized\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
      );
      return;
    }
    socket.write(
      'HTTP/1.1 101 Switching Protocols\r\nUpgrade: echo\r\nConnection: Upgrade\r\n\r\n',
    );
    socket.pipe(socket);
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  dir = await mkdtemp(join(tmpdir(), 'radio-web-upgrade-'));
  await writeFile(join(dir, 'index.html'), '<!doctype html><div id="root"></div>');
  web = createWebServer(
    {
      apiUrl: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`,
      port: 0,
      host: '127.0.0.1',
      distDir: dir,
    },
    { logger: silentLogger() },
  );
  await web.start();
});

afterAll(async () => {
  await web?.close();
  upstream.closeAllConnections();
  await new Promise<void>((resolve) => upstream.close(() => resolve()));
  await rm(dir, { recursive: true, force: true });
});

/** Sends an upgrade request; resolves with the switched socket, or the refusal. */
function upgrade(path: string): Promise<{ socket: Socket } | { status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${web.url}${path}`, {
      headers: { connection: 'Upgrade', upgrade: 'echo', cookie: 'radio.sid=abc', origin: web.url },
    });
    req.on('upgrade', (_res, socket) => resolve({ socket }));
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('upgrades through the web server', () => {
  it('joins the browser and the api byte for byte, with the cookie and Origin passed on', async () => {
    const result = await upgrade('/api/radio/live/ws');
    if (!('socket' in result)) throw new Error(`refused: ${result.status} ${result.body}`);
    const echoed = new Promise<string>((resolve) =>
      result.socket.once('data', (data) => resolve(String(data))),
    );
    result.socket.write('audio bytes');
    expect(await echoed).toBe('audio bytes');
    result.socket.destroy();
    expect(seen.at(-1)).toMatchObject({
      cookie: 'radio.sid=abc',
      origin: web.url,
      upgrade: 'echo',
    });
    expect(seen.at(-1)?.['x-forwarded-for']).toBe('127.0.0.1');
  });

  it("passes the api's refusal through, and refuses upgrades outside /api", async () => {
    expect(await upgrade('/api/radio/other')).toEqual({
      status: 401,
      body: '{"error":{"code":"API_UNAUTHENTICATED","message":"log in first"}}',
    });
    const outside = await upgrade('/live/ws');
    expect('status' in outside && outside.status).toBe(404);
  });
});
