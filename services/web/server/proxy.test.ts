import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import {
  createServer,
  type IncomingMessage,
  request,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { silentLogger } from '@radio/core';
import { createWebServer, type WebServer } from './index.ts';

/** A stand-in api that records what reached it; each test sets how it answers. */
let handler: (req: IncomingMessage, res: ServerResponse, body: string) => void;
const received: {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}[] = [];
let upstream: Server;
let upstreamUrl: string;
let dir: string;
let web: WebServer;

beforeAll(async () => {
  upstream = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      body += chunk;
    });
    req.on('end', () => {
      received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      handler(req, res, body);
    });
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  dir = await mkdtemp(join(tmpdir(), 'radio-web-proxy-'));
  await writeFile(join(dir, 'index.html'), '<!doctype html><div id="root"></div>');
  web = createWebServer(
    { apiUrl: upstreamUrl, port: 0, host: '127.0.0.1', distDir: dir },
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

interface Reply {
  status: number;
  headers: IncomingMessage['headers'];
  body: string;
}

function send(
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${web.url}${path}`,
      { method: options.method ?? 'GET', headers: options.headers },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          body += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

describe('the /api proxy', () => {
  it('forwards method, path, query, body and cookies, and answers with the api’s status and headers', async () => {
    handler = (_req, res) => {
      res.writeHead(201, {
        'Content-Type': 'application/json',
        'Set-Cookie': ['radio.sid=abc; Path=/api/radio; HttpOnly; SameSite=Lax'],
        'X-Request-Id': 'r-1',
      });
      res.end('{"ok":true}');
    };
    const reply = await send('/api/radio/playlists?scope=mine&q=a%20b', {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Cookie: 'radio.sid=old',
        Origin: 'http://localhost:8080',
        Host: 'localhost:8080',
      },
      body: '{"name":"Mix"}',
    });
    expect(reply.status).toBe(201);
    expect(reply.body).toBe('{"ok":true}');
    expect(reply.headers['set-cookie']).toEqual([
      'radio.sid=abc; Path=/api/radio; HttpOnly; SameSite=Lax',
    ]);
    expect(reply.headers['x-request-id']).toBe('r-1');

    const seen = received.at(-1);
    expect(seen?.method).toBe('POST');
    expect(seen?.url).toBe('/api/radio/playlists?scope=mine&q=a%20b');
    expect(seen?.body).toBe('{"name":"Mix"}');
    expect(seen?.headers.cookie).toBe('radio.sid=old');
    expect(seen?.headers.origin).toBe('http://localhost:8080');
  });

  it('keeps the browser’s Host (same-origin checks) and sets X-Forwarded-* from the socket', async () => {
    handler = (_req, res) => res.end('{}');
    await send('/api/radio/status', {
      headers: { Host: 'radio.example:8080', 'X-Forwarded-For': '203.0.113.9' },
    });
    const seen = received.at(-1);
    expect(seen?.headers.host).toBe('radio.example:8080');
    expect(seen?.headers['x-forwarded-host']).toBe('radio.example:8080');
    expect(seen?.headers['x-forwarded-proto']).toBe('http');
    expect(seen?.headers['x-forwarded-port']).toBe('8080');
    // No trusted proxy in front: what the client wrote in X-Forwarded-For is nobody's word.
    expect(seen?.headers['x-forwarded-for']).toBe('127.0.0.1');
  });

  it('drops hop-by-hop headers both ways', async () => {
    handler = (_req, res) => {
      res.setHeader('Keep-Alive', 'timeout=5');
      res.setHeader('X-Secret-Hop', 'no');
      res.setHeader('Connection', 'X-Secret-Hop');
      res.end('{}');
    };
    const reply = await send('/api/radio/status', {
      headers: { 'Proxy-Authorization': 'Basic x', TE: 'trailers' },
    });
    const seen = received.at(-1);
    expect(seen?.headers['proxy-authorization']).toBeUndefined();
    expect(seen?.headers.te).toBeUndefined();
    expect(reply.headers['x-secret-hop']).toBeUndefined();
  });

  it('passes error answers through untouched', async () => {
    handler = (_req, res) => {
      res.writeHead(429, { 'Content-Type': 'application/json', 'Retry-After': '60' });
      res.end('{"error":{"code":"API_RATE_LIMITED","message":"too many attempts"}}');
    };
    const reply = await send('/api/radio/auth/login', { method: 'POST', body: '{}' });
    expect(reply.status).toBe(429);
    expect(reply.headers['retry-after']).toBe('60');
    expect(JSON.parse(reply.body).error.code).toBe('API_RATE_LIMITED');
  });

  it('streams Server-Sent Events as they are written, and ends the upstream when the browser leaves', async () => {
    let upstreamClosed: Promise<unknown> = Promise.resolve();
    let writeSecond: () => void = () => {};
    handler = (req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
      res.write('event: ready\ndata: {"at":1}\n\n');
      writeSecond = () => res.write('event: player.state\ndata: {"state":"paused"}\n\n');
      upstreamClosed = once(req.socket, 'close');
    };
    const chunks: string[] = [];
    const { req, res } = await new Promise<{
      req: ReturnType<typeof request>;
      res: IncomingMessage;
    }>((resolve, reject) => {
      const req = request(`${web.url}/api/radio/events`, (res) => resolve({ req, res }));
      req.on('error', reject);
      req.end();
    });
    expect(res.headers['content-type']).toBe('text/event-stream');
    res.setEncoding('utf8');
    const first = await new Promise<string>((resolve) =>
      res.once('data', (chunk: string) => resolve(chunk)),
    );
    chunks.push(first);
    // The stream is still open: the first event came through before the api ended anything.
    expect(first).toContain('event: ready');
    writeSecond();
    chunks.push(
      await new Promise<string>((resolve) => res.once('data', (chunk: string) => resolve(chunk))),
    );
    expect(chunks.join('')).toContain('"state":"paused"');

    req.destroy();
    await upstreamClosed;
  });

  it('answers 502 with the error shape when the api is down', async () => {
    const down = createWebServer(
      { apiUrl: 'http://127.0.0.1:1', port: 0, host: '127.0.0.1', distDir: dir },
      { logger: silentLogger() },
    );
    try {
      await down.start();
      const reply = await new Promise<Reply>((resolve, reject) => {
        const req = request(`${down.url}/api/radio/status`, (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            body += chunk;
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
        });
        req.on('error', reject);
        req.end();
      });
      expect(reply.status).toBe(502);
      expect(JSON.parse(reply.body)).toEqual({
        error: { code: 'WEB_API_UNREACHABLE', message: expect.any(String) },
      });
    } finally {
      await down.close();
    }
  });

  it('only proxies /api, not look-alike paths', async () => {
    const count = received.length;
    const reply = await send('/apix/radio');
    expect(reply.status).toBe(200);
    expect(reply.body).toContain('<div id="root">');
    expect(received.length).toBe(count);
  });
});
