import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { silentLogger } from '@radio/core';
import { createWebServer, WebNotBuiltError, type WebServer } from './index.ts';
import { CACHE_IMMUTABLE, negotiateEncoding } from './static.ts';

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

function get(
  url: string,
  options: { method?: string; headers?: Record<string, string> } = {},
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: options.method ?? 'GET', headers: options.headers },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks),
          }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

const SCRIPT = `console.info(${JSON.stringify('x'.repeat(4000))});\n`;
let dir: string;
let web: WebServer;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'radio-web-static-'));
  await mkdir(join(dir, 'assets'));
  await writeFile(
    join(dir, 'index.html'),
    '<!doctype html><title>Radio</title><div id="root"></div>',
  );
  await writeFile(join(dir, 'assets', 'index-AbCd1234.js'), SCRIPT);
  await writeFile(join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  // The api is not needed here: nothing below /api is asked for.
  web = createWebServer(
    { apiUrl: 'http://127.0.0.1:9', port: 0, host: '127.0.0.1', distDir: dir },
    { logger: silentLogger() },
  );
  await web.start();
});

afterAll(async () => {
  await web?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('the static server', () => {
  it('serves index.html for / with no-cache and the page security headers', async () => {
    const reply = await get(`${web.url}/`);
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(reply.headers['cache-control']).toBe('no-cache');
    expect(reply.headers['content-security-policy']).toContain("default-src 'self'");
    expect(reply.headers['x-content-type-options']).toBe('nosniff');
    expect(reply.body.toString()).toContain('<div id="root">');
  });

  it('caches hashed assets for a year as immutable', async () => {
    const reply = await get(`${web.url}/assets/index-AbCd1234.js`);
    expect(reply.status).toBe(200);
    expect(reply.headers['cache-control']).toBe(CACHE_IMMUTABLE);
    expect(reply.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(reply.body.toString()).toBe(SCRIPT);
  });

  it('caches other public files for a while, not for good', async () => {
    const reply = await get(`${web.url}/favicon.svg`);
    expect(reply.status).toBe(200);
    expect(reply.headers['cache-control']).toBe('public, max-age=3600');
  });

  it('falls back to index.html for app routes', async () => {
    for (const path of ['/library', '/playlists/12', '/admin/system?x=1']) {
      const reply = await get(`${web.url}${path}`);
      expect(reply.status).toBe(200);
      expect(reply.headers['cache-control']).toBe('no-cache');
      expect(reply.body.toString()).toContain('<div id="root">');
    }
  });

  it('answers 404 for a missing asset or file, never the page in its place', async () => {
    expect((await get(`${web.url}/assets/index-old12345.js`)).status).toBe(404);
    expect((await get(`${web.url}/robots.txt`)).status).toBe(404);
    expect((await get(`${web.url}/%E0%A4%A`)).status).toBe(404);
  });

  it('does not serve files outside the build', async () => {
    const reply = await get(`${web.url}/..%2f..%2fetc%2fpasswd`);
    expect(reply.body.toString()).not.toContain('root:');
    const raw = await get(`${web.url}/assets/../../package.json`);
    expect(raw.body.toString()).not.toContain('"name"');
  });

  it('compresses with the best encoding the client takes', async () => {
    const br = await get(`${web.url}/assets/index-AbCd1234.js`, {
      headers: { 'Accept-Encoding': 'gzip, br' },
    });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toBe('Accept-Encoding');
    expect(br.body.length).toBeLessThan(SCRIPT.length);

    const gz = await get(`${web.url}/assets/index-AbCd1234.js`, {
      headers: { 'Accept-Encoding': 'gzip' },
    });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).toString()).toBe(SCRIPT);
    expect(Number(gz.headers['content-length'])).toBe(gz.body.length);

    const none = await get(`${web.url}/assets/index-AbCd1234.js`, {
      headers: { 'Accept-Encoding': 'br;q=0, gzip;q=0' },
    });
    expect(none.headers['content-encoding']).toBeUndefined();
  });

  it('answers 304 when the copy is current, and HEAD without a body', async () => {
    const first = await get(`${web.url}/assets/index-AbCd1234.js`);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^".+"$/);
    const again = await get(`${web.url}/assets/index-AbCd1234.js`, {
      headers: { 'If-None-Match': etag },
    });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    const head = await get(`${web.url}/library`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(Number(head.headers['content-length'])).toBeGreaterThan(0);
  });

  it('refuses other methods outside /api', async () => {
    const reply = await get(`${web.url}/library`, { method: 'POST' });
    expect(reply.status).toBe(405);
    expect(reply.headers.allow).toBe('GET, HEAD');
  });
});

describe('createWebServer', () => {
  it('says how to build the app when there is no build', async () => {
    const empty = await mkdtemp(join(tmpdir(), 'radio-web-empty-'));
    try {
      const attempt = createWebServer(
        { apiUrl: 'http://127.0.0.1:9', port: 0, distDir: empty },
        { logger: silentLogger() },
      ).start();
      await expect(attempt).rejects.toBeInstanceOf(WebNotBuiltError);
      await expect(attempt).rejects.toMatchObject({
        code: 'WEB_NOT_BUILT',
        message: expect.stringContaining('pnpm --filter @radio/web build'),
      });
    } finally {
      await rm(empty, { recursive: true, force: true });
    }
  });

  it('checks its arguments', () => {
    expect(() => createWebServer({ apiUrl: 'not a url' }, { logger: silentLogger() })).toThrow(
      /apiUrl/,
    );
  });

  it('listens only once started, closes once, and is not started again', async () => {
    const server = createWebServer(
      { apiUrl: 'http://127.0.0.1:9', port: 0, host: '127.0.0.1', distDir: dir },
      { logger: silentLogger() },
    );
    expect(server.server.listening).toBe(false);
    expect(() => server.url).toThrow(/start/);
    await server.start();
    expect((await get(`${server.url}/`)).status).toBe(200);
    const closing = server.close();
    expect(server.close()).toBe(closing);
    await closing;
    expect(server.server.listening).toBe(false);
    await expect(server.start()).rejects.toMatchObject({ code: 'WEB_STARTED' });
  });

  it('closes before it started and after a failed start', async () => {
    const never = createWebServer({ apiUrl: 'http://127.0.0.1:9' }, { logger: silentLogger() });
    await never.close();
    const empty = await mkdtemp(join(tmpdir(), 'radio-web-empty-'));
    try {
      const failed = createWebServer(
        { apiUrl: 'http://127.0.0.1:9', port: 0, distDir: empty },
        { logger: silentLogger() },
      );
      await expect(failed.start()).rejects.toBeInstanceOf(WebNotBuiltError);
      await failed.close();
      expect(failed.server.listening).toBe(false);
    } finally {
      await rm(empty, { recursive: true, force: true });
    }
  });
});

describe('negotiateEncoding', () => {
  const both = { br: true, gzip: true };
  it('follows the q values', () => {
    expect(negotiateEncoding(undefined, both)).toBe('identity');
    expect(negotiateEncoding('gzip, deflate, br', both)).toBe('br');
    expect(negotiateEncoding('br;q=0.5, gzip', both)).toBe('gzip');
    expect(negotiateEncoding('*', both)).toBe('br');
    expect(negotiateEncoding('br', { br: false, gzip: true })).toBe('identity');
    expect(negotiateEncoding('identity', both)).toBe('identity');
  });
});
