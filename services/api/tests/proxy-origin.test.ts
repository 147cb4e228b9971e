import { hostname } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import type { Setup } from './helpers/databases.ts';
import { type ForwardingProxy, startForwardingProxy } from './helpers/forwarding-proxy.ts';
import {
  BASE,
  createUser,
  expectError,
  PASSWORD,
  startTestApi,
  type TestApi,
} from './helpers/test-api.ts';

const SETUP: Setup = { dialect: 'sqlite', sessions: 'db' };
const LOOPBACK = ['127.0.0.1', '::1'];
const PUBLIC = 'https://radio.example';

const sidOf = (res: request.Response) => String(res.headers['set-cookie']).split(';')[0] as string;

describe('behind a TLS proxy it trusts', () => {
  let t: TestApi;
  let proxy: ForwardingProxy;

  beforeAll(async () => {
    t = await startTestApi(SETUP, {
      trustedProxies: LOOPBACK,
      publicUrl: PUBLIC,
      allowedOrigins: ['https://studio.example'],
    });
    await createUser(t.db, 'presenter');
    proxy = await startForwardingProxy(t.api.url, { proto: 'https', host: 'radio.example' });
  });
  afterAll(async () => {
    await proxy?.close();
    await t?.close();
  });

  const login = (origin: string) =>
    request(proxy.url)
      .post(`${BASE}/auth/login`)
      .set('Origin', origin)
      .send({ username: 'presenter', password: PASSWORD });

  it('logs in from the public origin: a Secure cookie, HSTS, and the session works', async () => {
    const res = await login(PUBLIC);
    expect(res.status).toBe(200);
    const cookie = String(res.headers['set-cookie']);
    expect(cookie).toMatch(/;\s*Secure/i);
    expect(res.headers['strict-transport-security']).toMatch(/max-age=\d+/);
    const me = await request(proxy.url).get(`${BASE}/auth/me`).set('Cookie', sidOf(res));
    expect(me.status).toBe(200);
    expect(me.body.user.username).toBe('presenter');
    expect(me.headers['strict-transport-security']).toBeDefined();
  });

  it('takes ALLOWED_ORIGINS too, and refuses every other origin', async () => {
    expect((await login('https://studio.example')).status).toBe(200);
    expectError(await login('https://evil.example'), 403, 'API_CROSS_ORIGIN');
    // PUBLIC_URL is https: the same name over plain HTTP is another origin.
    expectError(await login('http://radio.example'), 403, 'API_CROSS_ORIGIN');
  });

  it('without PUBLIC_URL, compares the origin with the one the proxy forwarded', async () => {
    const own = await startTestApi(SETUP, { trustedProxies: LOOPBACK });
    // A name the api knows without PUBLIC_URL (localhost), and one it does not.
    const local = await startForwardingProxy(own.api.url, {
      proto: 'https',
      host: 'localhost:8443',
    });
    const named = await startForwardingProxy(own.api.url, {
      proto: 'https',
      host: 'radio.example',
    });
    try {
      await createUser(own.db, 'presenter');
      const login = (hop: ForwardingProxy, origin: string) =>
        request(hop.url)
          .post(`${BASE}/auth/login`)
          .set('Origin', origin)
          .send({ username: 'presenter', password: PASSWORD });
      const res = await login(local, 'https://localhost:8443');
      expect(res.status).toBe(200);
      expect(String(res.headers['set-cookie'])).toMatch(/;\s*Secure/i);
      expectError(await login(local, 'http://localhost:8443'), 403, 'API_CROSS_ORIGIN');
      const unnamed = await login(named, PUBLIC);
      expectError(unnamed, 403, 'API_UNKNOWN_HOST');
      expect(unnamed.body.error.message).toMatch(/PUBLIC_URL/);
    } finally {
      await local.close();
      await named.close();
      await own.close();
    }
  });
});

describe('behind a proxy it does not trust', () => {
  let t: TestApi;
  let proxy: ForwardingProxy;

  beforeAll(async () => {
    t = await startTestApi(SETUP, { trustedProxies: ['192.0.2.1'] });
    await createUser(t.db, 'presenter');
    proxy = await startForwardingProxy(t.api.url, { proto: 'https', host: 'radio.example' });
  });
  afterAll(async () => {
    await proxy?.close();
    await t?.close();
  });

  it('ignores X-Forwarded-Proto and -Host: no Secure cookie, no HSTS, its own origin', async () => {
    const login = () =>
      request(proxy.url)
        .post(`${BASE}/auth/login`)
        .send({ username: 'presenter', password: PASSWORD });
    const res = await login().set('Origin', PUBLIC);
    expectError(res, 403, 'API_CROSS_ORIGIN');
    const plain = await login();
    expect(plain.status).toBe(200);
    expect(String(plain.headers['set-cookie'])).not.toMatch(/Secure/i);
    expect(plain.headers['strict-transport-security']).toBeUndefined();
  });

  it('counts logins by the peer, whatever X-Forwarded-For says', async () => {
    const limited = await startTestApi(SETUP, {
      trustedProxies: [],
      limits: { loginPerIp: { max: 2, windowMs: 60_000 } },
    });
    try {
      const attempt = (client: string) =>
        request(limited.app)
          .post(`${BASE}/auth/login`)
          .set('X-Forwarded-For', client)
          .send({ username: `nobody-${client}`, password: 'wrong password' });
      expectError(await attempt('203.0.113.1'), 401);
      expectError(await attempt('203.0.113.2'), 401);
      expectError(await attempt('203.0.113.3'), 429, 'API_RATE_LIMITED');
    } finally {
      await limited.close();
    }
  });
});

describe('the hosts it answers to strangers', () => {
  let t: TestApi;
  let open: TestApi;

  beforeAll(async () => {
    [t, open] = await Promise.all([
      startTestApi(SETUP, {
        trustedProxies: LOOPBACK,
        publicUrl: PUBLIC,
        allowedOrigins: ['https://studio.example:8443'],
        // Many wrong passwords for one account here: not what these tests are about.
        limits: { loginPerUser: { max: 1000, windowMs: 60_000 } },
      }),
      startTestApi(SETUP, { trustedProxies: [] }),
    ]);
    await createUser(t.db, 'member');
  });
  afterAll(async () => {
    await t?.close();
    await open?.close();
  });

  const wrongLogin = (app: TestApi, host: string) =>
    request(app.app)
      .post(`${BASE}/auth/login`)
      .set('Host', host)
      .send({ username: 'member', password: 'wrong password' });

  it('takes logins for its own names, localhost, IP literals and this machine', async () => {
    for (const host of [
      'radio.example',
      'RADIO.example:443',
      'studio.example:8443',
      'localhost:3000',
      'radio.localhost',
      '127.0.0.1:8080',
      '[::1]:8080',
      '192.0.2.10',
      hostname(),
    ]) {
      const res = await wrongLogin(t, host);
      expect([host, res.status, res.body.error?.code]).toEqual([
        host,
        401,
        'API_INVALID_CREDENTIALS',
      ]);
    }
  });

  it('refuses strangers writing to any other name (DNS rebinding), naming the settings', async () => {
    for (const host of ['evil.example', 'radio.example.evil.example', 'localhost.evil.example']) {
      const res = await wrongLogin(t, host);
      expectError(res, 403, 'API_UNKNOWN_HOST');
      expect(res.body.error.message).toMatch(/PUBLIC_URL/);
      expect(res.body.error.message).toMatch(/ALLOWED_ORIGINS/);
    }
    expectError(
      await request(t.app)
        .post(`${BASE}/auth/register`)
        .set('Host', 'evil.example')
        .send({ username: 'newcomer', password: PASSWORD }),
      403,
      'API_UNKNOWN_HOST',
    );
    expectError(
      await request(t.app)
        .post(`${BASE}/auth/setup`)
        .set('Host', 'evil.example')
        .send({ code: 'ABCD-EFGH-JKLM', username: 'boss', password: PASSWORD }),
      403,
      'API_UNKNOWN_HOST',
    );
    // Reads stay open.
    expect(
      (await request(t.app).get(`${BASE}/auth-status`).set('Host', 'evil.example')).status,
    ).toBe(200);
  });

  it('refuses a page of a rebound name even when its origin matches its host', async () => {
    const res = await request(open.app)
      .post(`${BASE}/auth/login`)
      .set('Host', 'evil.example:3000')
      .set('Origin', 'http://evil.example:3000')
      .send({ username: 'member', password: 'wrong password' });
    expectError(res, 403, 'API_UNKNOWN_HOST');
  });

  it('reads the host a trusted proxy forwarded, and only from one', async () => {
    const forwarded = (app: TestApi) =>
      request(app.app)
        .post(`${BASE}/auth/login`)
        .set('X-Forwarded-Host', 'evil.example')
        .send({ username: 'member', password: 'wrong password' });
    expectError(await forwarded(t), 403, 'API_UNKNOWN_HOST');
    expectError(await forwarded(open), 401, 'API_INVALID_CREDENTIALS');
  });

  it("lets a logged-in session write under any name: its cookie is not a stranger's", async () => {
    const res = await request(t.app)
      .post(`${BASE}/auth/login`)
      .send({ username: 'member', password: PASSWORD });
    expect(res.status).toBe(200);
    const out = await request(t.app)
      .post(`${BASE}/auth/logout`)
      .set('Host', 'evil.example')
      .set('Cookie', sidOf(res));
    expect(out.status).toBe(204);
  });
});
