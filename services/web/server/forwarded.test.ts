import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Duplex } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { loadConfig, silentLogger, webSpec } from '@radio/core';
import { captureLogger, type LogLine } from '@radio/core/testing';
import { createWebServer, type WebServer, webOptionsFromConfig } from './index.ts';

/*
 * The web server between a TLS proxy and the api: what a trusted proxy says about the browser
 * (its address, https, the host it asked for) reaches the api and decides HSTS and who /metrics
 * counts failed logins for; the same headers from anyone else are replaced by the socket's.
 * Everything here comes from 127.0.0.1, so one web server trusts it and the other does not.
 */

const LOGIN = { user: 'admin', password: 'metrics password' };
const BEHIND_TLS = {
  'X-Forwarded-For': '203.0.113.9',
  'X-Forwarded-Proto': 'https',
  'X-Forwarded-Host': 'radio.example',
  Host: 'web:8080',
};

let api: Server;
let dir: string;
let trusting: WebServer;
let untrusting: WebServer;
let lines: LogLine[];
const seen: IncomingMessage['headers'][] = [];

beforeAll(async () => {
  api = createServer((req, res) => {
    seen.push(req.headers);
    res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
  });
  api.on('upgrade', (req: IncomingMessage, socket: Duplex) => {
    seen.push(req.headers);
    socket.end('HTTP/1.1 101 Switching Protocols\r\nUpgrade: echo\r\nConnection: Upgrade\r\n\r\n');
  });
  await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
  const apiUrl = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
  dir = await mkdtemp(join(tmpdir(), 'radio-web-forwarded-'));
  await writeFile(join(dir, 'index.html'), '<!doctype html><div id="root"></div>');
  const common = { apiUrl, port: 0, host: '127.0.0.1', distDir: dir, metricsLogin: LOGIN };
  const captured = captureLogger();
  lines = captured.lines;
  trusting = createWebServer(
    { ...common, trustedProxies: ['127.0.0.1'], publicUrl: 'https://radio.example' },
    { logger: captured.logger },
  );
  untrusting = createWebServer(common, { logger: silentLogger() });
  await Promise.all([trusting.start(), untrusting.start()]);
});

afterAll(async () => {
  await Promise.all([trusting?.close(), untrusting?.close()]);
  api.closeAllConnections();
  await new Promise<void>((resolve) => api.close(() => resolve()));
  await rm(dir, { recursive: true, force: true });
});

interface Reply {
  status: number;
  headers: IncomingMessage['headers'];
}

function send(url: string, headers: Record<string, string> = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
    });
    req.on('error', reject);
    req.end();
  });
}

function upgrade(url: string, headers: Record<string, string>): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { ...headers, connection: 'Upgrade', upgrade: 'echo' } });
    req.on('upgrade', (_res, socket) => {
      socket.destroy();
      resolve();
    });
    req.on('response', (res) => reject(new Error(`refused: ${res.statusCode}`)));
    req.on('error', reject);
    req.end();
  });
}

const basic = (password: string) =>
  `Basic ${Buffer.from(`${LOGIN.user}:${password}`).toString('base64')}`;

describe('behind a trusted TLS proxy', () => {
  it('passes its X-Forwarded-For, -Proto and -Host on to the api, with the port of https', async () => {
    const reply = await send(`${trusting.url}/api/radio/status`, BEHIND_TLS);
    expect(reply.status).toBe(200);
    expect(seen.at(-1)).toMatchObject({
      host: 'web:8080',
      'x-forwarded-for': '203.0.113.9, 127.0.0.1',
      'x-forwarded-proto': 'https',
      'x-forwarded-host': 'radio.example',
      'x-forwarded-port': '443',
    });
  });

  it('keeps the port the proxy names', async () => {
    await send(`${trusting.url}/api/radio/status`, { ...BEHIND_TLS, 'X-Forwarded-Port': '8443' });
    expect(seen.at(-1)?.['x-forwarded-port']).toBe('8443');
  });

  it('gives the go-live upgrade the same headers', async () => {
    await upgrade(`${trusting.url}/api/radio/live/ws`, BEHIND_TLS);
    expect(seen.at(-1)).toMatchObject({
      'x-forwarded-for': '203.0.113.9, 127.0.0.1',
      'x-forwarded-proto': 'https',
      'x-forwarded-host': 'radio.example',
    });
  });

  it('sends Strict-Transport-Security on its pages and the api’s answers', async () => {
    const page = await send(`${trusting.url}/`, BEHIND_TLS);
    const answer = await send(`${trusting.url}/api/radio/status`, BEHIND_TLS);
    expect(page.headers['strict-transport-security']).toBe('max-age=31536000');
    expect(answer.headers['strict-transport-security']).toBe('max-age=31536000');
    const plain = await send(`${trusting.url}/`, { ...BEHIND_TLS, 'X-Forwarded-Proto': 'http' });
    expect(plain.headers['strict-transport-security']).toBeUndefined();
  });

  it('counts failed /metrics logins per browser, not per proxy, and logs them once', async () => {
    const from = (address: string, password: string) =>
      send(`${trusting.url}/metrics`, {
        ...BEHIND_TLS,
        'X-Forwarded-For': address,
        Authorization: basic(password),
      });
    for (let i = 0; i < 10; i++) expect((await from('198.51.100.1', 'guess')).status).toBe(401);
    const blocked = await from('198.51.100.1', LOGIN.password);
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    // Another browser behind the same proxy is not held to the first one's failures.
    expect((await from('198.51.100.2', LOGIN.password)).status).toBe(200);

    const logged = (code: string) =>
      lines.filter((line) => line.code === code && line.client === '198.51.100.1');
    expect(logged('WEB_METRICS_LOGIN_FAILED')).toHaveLength(1);
    expect(logged('WEB_METRICS_RATE_LIMITED')).toHaveLength(1);
  });
});

describe('reached directly, with X-Forwarded-* written by the client', () => {
  it('replaces them with what the socket says', async () => {
    await send(`${untrusting.url}/api/radio/status`, BEHIND_TLS);
    expect(seen.at(-1)).toMatchObject({
      host: 'web:8080',
      'x-forwarded-for': '127.0.0.1',
      'x-forwarded-proto': 'http',
      'x-forwarded-host': 'web:8080',
      'x-forwarded-port': '8080',
    });
  });

  it('replaces them on upgrades too', async () => {
    await upgrade(`${untrusting.url}/api/radio/live/ws`, BEHIND_TLS);
    expect(seen.at(-1)).toMatchObject({
      'x-forwarded-for': '127.0.0.1',
      'x-forwarded-proto': 'http',
      'x-forwarded-host': 'web:8080',
    });
  });

  it('sends no Strict-Transport-Security over plain HTTP', async () => {
    const page = await send(`${untrusting.url}/`, BEHIND_TLS);
    expect(page.status).toBe(200);
    expect(page.headers['strict-transport-security']).toBeUndefined();
  });

  it('counts failed /metrics logins for the socket’s address, whatever X-Forwarded-For says', async () => {
    const from = (address: string, password: string) =>
      send(`${untrusting.url}/metrics`, {
        'X-Forwarded-For': address,
        Authorization: basic(password),
      });
    for (let i = 0; i < 10; i++) expect((await from(`192.0.2.${i}`, 'guess')).status).toBe(401);
    expect((await from('192.0.2.200', LOGIN.password)).status).toBe(429);
  });
});

describe('the configuration', () => {
  it('takes TRUSTED_PROXIES and PUBLIC_URL from the environment', () => {
    const config = loadConfig(webSpec, {
      API_URL: 'http://api:3000',
      TRUSTED_PROXIES: 'caddy, 10.0.0.0/8',
      PUBLIC_URL: 'https://radio.example/',
    });
    expect(webOptionsFromConfig(config)).toMatchObject({
      trustedProxies: ['caddy', '10.0.0.0/8'],
      publicUrl: 'https://radio.example',
    });
  });
});
