import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { waitFor } from '@radio/core/testing';
import type { StreamServer } from '../src/index.ts';
import {
  ADMIN_AUTH,
  ADMIN_USER,
  frameSource,
  Resources,
  rawExchange,
  request,
  SOURCE_AUTH,
  StreamListener,
} from './helpers.ts';

/*
 * The ways in a stranger could try: guessing the admin, metrics or source password, making
 * the admin's browser act from another site (a link or an image is enough for a GET), framing
 * the admin page; and what the server tells scanners about itself.
 */

const resources = new Resources();
afterAll(() => resources.dispose());

const WRONG = `Basic ${Buffer.from(`${ADMIN_USER}:not-the-password`).toString('base64')}`;

let server: StreamServer;
let dataDir: string;

beforeAll(async () => {
  dataDir = await resources.tempDir();
  server = await resources.server({ dataDir, trustedProxies: ['127.0.0.9'] });
  await frameSource(resources, server, '/radio.mp3');
  await frameSource(resources, server, '/other.mp3');
});

const title = (): string | null =>
  server.snapshot().mounts.find((m) => m.path === '/radio.mp3')?.title ?? null;

describe('failed logins', () => {
  test('after 10 failures an address gets 429 with Retry-After, even with the password; others get in', async () => {
    const from = { localAddress: '127.0.0.2' };
    for (let i = 0; i < 10; i++) {
      const res = await request(server, '/admin/stats.xml', {
        ...from,
        headers: { Authorization: WRONG },
      });
      expect(res.status).toBe(401);
    }
    const blocked = await request(server, '/admin/stats.xml', {
      ...from,
      headers: { Authorization: ADMIN_AUTH },
    });
    expect(blocked.status).toBe(429);
    const retryAfter = Number(blocked.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(500);
    expect(retryAfter).toBeLessThanOrEqual(600);
    const other = await request(server, '/admin/stats.xml', {
      localAddress: '127.0.0.3',
      headers: { Authorization: ADMIN_AUTH },
    });
    expect(other.status).toBe(200);
    const refusals = (await readFile(join(dataDir, 'logs', 'error.log'), 'utf8'))
      .split('\n')
      .filter((line) => line.includes('too many failed logins') && line.includes('127.0.0.2'));
    expect(refusals).toHaveLength(1);
  });

  test('/metrics counts the client a trusted proxy names, not the proxy', async () => {
    const via = (client: string, authorization: string) =>
      request(server, '/metrics', {
        localAddress: '127.0.0.9',
        headers: { Authorization: authorization, 'X-Forwarded-For': client },
      });
    for (let i = 0; i < 10; i++) expect((await via('198.51.100.1', WRONG)).status).toBe(401);
    expect((await via('198.51.100.1', ADMIN_AUTH)).status).toBe(429);
    expect((await via('198.51.100.2', ADMIN_AUTH)).status).toBe(200);
  });

  test('a source guessing the source password is refused the same way', async () => {
    const put = (authorization: string) =>
      rawExchange(
        server.port,
        `SOURCE /guess.mp3 HTTP/1.0\r\nAuthorization: ${authorization}\r\nContent-Type: audio/mpeg\r\n\r\n`,
        5000,
        '127.0.0.5',
      );
    const wrong = `Basic ${Buffer.from('source:guess').toString('base64')}`;
    for (let i = 0; i < 10; i++) expect((await put(wrong)).text).toMatch(/^HTTP\/1\.0 401 /);
    const blocked = await put(SOURCE_AUTH);
    expect(blocked.text).toMatch(/^HTTP\/1\.0 429 Too Many Requests\r\n/);
    expect(blocked.text).toMatch(/\r\nRetry-After: \d+\r\n/);
  });
});

describe('admin actions from another site', () => {
  const admin = (path: string, headers: Record<string, string>) =>
    request(server, path, { headers: { Authorization: ADMIN_AUTH, ...headers } });

  test('a GET or POST with Sec-Fetch-Site cross-site or same-site changes nothing', async () => {
    const listener = new StreamListener(server.port, '/radio.mp3');
    resources.socket(listener.socket);
    await waitFor('a listener', () => listener.bodyBytes > 0);
    const before = title();
    const clients = await admin('/admin/listclients?mount=/radio.mp3', {});
    const id = /<ID>(\d+)<\/ID>/.exec(clients.body)?.[1];
    expect(id).toBeDefined();
    for (const site of ['cross-site', 'same-site']) {
      const headers = { 'Sec-Fetch-Site': site };
      const actions = [
        '/admin/metadata?mount=/radio.mp3&mode=updinfo&song=Hijacked',
        '/admin/moveclients?mount=/radio.mp3&destination=/other.mp3',
        `/admin/killclient?mount=/radio.mp3&id=${id}`,
        '/admin/killsource?mount=/radio.mp3',
      ];
      for (const path of actions) {
        const res = await admin(path, headers);
        expect([path, res.status, res.body]).toEqual([path, 403, 'Cross-site request refused']);
      }
      const post = await request(server, '/admin/metadata.xsl', {
        method: 'POST',
        headers: {
          Authorization: ADMIN_AUTH,
          'Content-Type': 'application/x-www-form-urlencoded',
          ...headers,
        },
        body: 'mount=/radio.mp3&mode=updinfo&song=Hijacked',
      });
      expect(post.status).toBe(403);
    }
    // A link from another site's page, in a browser without Sec-Fetch-Site: its Referer.
    const linked = await admin('/admin/killsource?mount=/radio.mp3', {
      Referer: 'https://evil.example/page',
    });
    expect(linked.status).toBe(403);
    expect(title()).toBe(before);
    expect(listener.closed).toBe(false);
    expect(server.snapshot().mounts.find((m) => m.path === '/radio.mp3')?.state).toBe('live');
    listener.close();
  });

  test('source clients (no Sec-Fetch-Site) and the page itself still act', async () => {
    const bySource = await request(
      server,
      '/admin/metadata?mount=/radio.mp3&mode=updinfo&song=From%20the%20encoder',
      { headers: { Authorization: SOURCE_AUTH, 'User-Agent': 'Liquidsoap/2.1.3' } },
    );
    expect(bySource.status).toBe(200);
    expect(title()).toBe('From the encoder');
    const byPage = await admin('/admin/metadata?mount=/radio.mp3&mode=updinfo&song=From%20page', {
      'Sec-Fetch-Site': 'same-origin',
    });
    expect(byPage.status).toBe(200);
    expect(title()).toBe('From page');
  });

  test('read-only pages may still be opened from a link', async () => {
    const res = await admin('/admin/', { 'Sec-Fetch-Site': 'cross-site' });
    expect(res.status).toBe(200);
  });
});

describe('the admin page', () => {
  test('sends a Content-Security-Policy allowing only its own style and script, and no framing', async () => {
    const res = await request(server, '/admin/', { headers: { Authorization: ADMIN_AUTH } });
    expect(res.status).toBe(200);
    expect(res.headers['x-frame-options']).toBe('DENY');
    const policy = String(res.headers['content-security-policy']);
    const directives = new Map(
      policy.split(';').map((part) => {
        const [name = '', ...values] = part.trim().split(/\s+/);
        return [name, values] as const;
      }),
    );
    expect(directives.get('default-src')).toEqual(["'none'"]);
    expect(directives.get('frame-ancestors')).toEqual(["'none'"]);
    const hash = (text: string): string =>
      `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
    const style = /<style>([\s\S]*?)<\/style>/.exec(res.body)?.[1] ?? '';
    const script = /<script>([\s\S]*?)<\/script>/.exec(res.body)?.[1] ?? '';
    expect(directives.get('style-src')).toEqual([hash(style)]);
    expect(directives.get('script-src')).toEqual([hash(script)]);
    expect(res.body.match(/<script/g)).toHaveLength(1);
    expect(res.body.match(/<style/g)).toHaveLength(1);
    expect(res.body).not.toMatch(/ style=| on[a-z]+=/);
  });

  test('the login prompt and the action answers carry the same headers', async () => {
    const prompt = await request(server, '/admin/', { localAddress: '127.0.0.4' });
    expect(prompt.status).toBe(401);
    expect(prompt.headers['x-frame-options']).toBe('DENY');
    expect(prompt.headers['content-security-policy']).toContain("frame-ancestors 'none'");
  });
});

describe('what the server says it is', () => {
  test('Server and server_id name this server and its version, not Icecast 2.4.4', async () => {
    const serverId = /^Radio\/\d+\.\d+\.\d+ \(Icecast compatible\)$/;
    const health = await request(server, '/health');
    expect(health.headers.server).toMatch(serverId);
    const json = JSON.parse((await request(server, '/status-json.xsl')).body) as {
      icestats: { server_id: string; source: unknown };
    };
    expect(json.icestats.server_id).toMatch(serverId);
    expect(json.icestats.source).toBeDefined();
    const xml = await request(server, '/admin/stats.xml', {
      headers: { Authorization: ADMIN_AUTH },
    });
    expect(/<server_id>([^<]*)<\/server_id>/.exec(xml.body)?.[1]).toMatch(serverId);
    const listener = new StreamListener(server.port, '/radio.mp3');
    resources.socket(listener.socket);
    await waitFor('the response head', () => listener.statusLine !== '');
    expect(listener.headers.get('server')).toMatch(serverId);
    listener.close();
  });
});
