import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import type { Api } from '../src/index.ts';
import { ROUTE_SETUPS } from './helpers/databases.ts';
import {
  type Agent,
  BASE,
  createUser,
  expectError,
  loginAll,
  PASSWORD,
  startTestApi,
  type TestApi,
} from './helpers/test-api.ts';

function rawRequest(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.end(text));
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      answer += chunk;
    });
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
  });
}

describe.each(ROUTE_SETUPS)('http hardening ($dialect, sessions in $sessions)', (setup) => {
  let t: TestApi;
  let listener: Agent;
  let server: Api;

  beforeAll(async () => {
    t = await startTestApi(setup, {
      bodyLimit: '2kb',
      allowedOrigins: ['https://studio.example.org'],
    });
    ({ listener } = await loginAll(t));
    server = t.api;
  });
  afterAll(() => t.close());

  it('sends security headers and a request id on every answer', async () => {
    const res = await request(t.app).get(`${BASE}/status`);
    expect(res.headers).toMatchObject({
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
      'referrer-policy': 'no-referrer',
      'content-security-policy': expect.stringContaining("default-src 'none'"),
      'cache-control': 'no-store',
      'x-request-id': expect.any(String),
    });
    expect(res.headers['x-powered-by']).toBeUndefined();
    const traced = await request(t.app).get(`${BASE}/status`).set('X-Request-Id', 'trace-42');
    expect(traced.headers['x-request-id']).toBe('trace-42');
    const odd = await request(t.app).get(`${BASE}/status`).set('X-Request-Id', 'a b\tc');
    expect(odd.headers['x-request-id']).not.toBe('a b\tc');
  });

  it('answers unknown routes with a JSON 404', async () => {
    expectError(await request(t.app).get(`${BASE}/nope`), 404, 'API_NOT_FOUND');
    expectError(await request(t.app).get('/elsewhere'), 404, 'API_NOT_FOUND');
    expectError(await request(t.app).delete(`${BASE}/status`), 404, 'API_NOT_FOUND');
  });

  it('refuses bodies that are too large (413), not JSON (415) or malformed (400)', async () => {
    expectError(
      await listener.post(`${BASE}/playlists`).send({ name: 'x', description: 'y'.repeat(5000) }),
      413,
      'API_PAYLOAD_TOO_LARGE',
    );
    expectError(
      await listener.post(`${BASE}/playlists`).set('Content-Type', 'text/plain').send('name=x'),
      415,
      'API_UNSUPPORTED_MEDIA_TYPE',
    );
    expectError(
      await listener.post(`${BASE}/playlists`).type('form').send({ name: 'x' }),
      415,
      'API_UNSUPPORTED_MEDIA_TYPE',
    );
    expectError(
      await listener
        .post(`${BASE}/playlists`)
        .set('Content-Type', 'application/json')
        .send('{"name": '),
      400,
      'API_INVALID_JSON',
    );
    expectError(
      await listener
        .post(`${BASE}/playlists`)
        .set('Content-Type', 'application/json')
        .send('"just a string"'),
      400,
      'API_INVALID_JSON',
    );
    expectError(
      await listener.post(`${BASE}/playlists`).send([{ name: 'x' }]),
      400,
      'API_VALIDATION',
    );
  });

  it('refuses state-changing requests from another origin', async () => {
    await createUser(t.db, 'victim');
    const forged = await request(t.app)
      .post(`${BASE}/auth/login`)
      .set('Origin', 'https://evil.example.com')
      .send({ username: 'victim', password: PASSWORD });
    expectError(forged, 403, 'API_CROSS_ORIGIN');
    expectError(
      await listener
        .post(`${BASE}/playlists`)
        .set('Sec-Fetch-Site', 'cross-site')
        .send({ name: 'x' }),
      403,
      'API_CROSS_ORIGIN',
    );
    expectError(
      await listener.post(`${BASE}/playlists`).set('Origin', 'null').send({ name: 'x' }),
      403,
      'API_CROSS_ORIGIN',
    );
    // The same origin, a configured one, and reads from anywhere are fine.
    const same = await listener
      .post(`${BASE}/playlists`)
      .set('Origin', `http://127.0.0.1:${server.port}`)
      .set('Host', `127.0.0.1:${server.port}`)
      .send({ name: 'same origin' });
    expect(same.status).toBe(201);
    const allowed = await listener
      .post(`${BASE}/playlists`)
      .set('Origin', 'https://studio.example.org')
      .send({ name: 'studio' });
    expect(allowed.status).toBe(201);
    expect(
      (await listener.get(`${BASE}/playlists`).set('Origin', 'https://evil.example.com')).status,
    ).toBe(200);
  });

  it('answers a refused HTTP request (oversized URL) in the JSON error shape', async () => {
    const answer = await rawRequest(
      server.port,
      `GET ${BASE}/tracks?q=${'x'.repeat(40_000)} HTTP/1.1\r\nHost: localhost\r\n\r\n`,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 431/);
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toEqual({
      error: { code: 'API_HEADERS_TOO_LARGE', message: expect.any(String) },
    });
    const garbage = await rawRequest(server.port, 'BLAH\r\n\r\n');
    expect(garbage).toMatch(/^HTTP\/1\.1 400/);
    expect(garbage).toContain('API_MALFORMED_REQUEST');
  });

  it('hides internal errors: a 500 with a code, never a stack trace', async () => {
    const broken = await startTestApi(setup);
    try {
      const { admin } = await loginAll(broken);
      // Pull the database away under the running api.
      await broken.db.db.schema.dropTable('play_history').execute();
      const res = await admin.get(`${BASE}/player/history`);
      expectError(res, 500, 'API_INTERNAL');
      expect(res.body.error.message).toBe('internal error');
      expect(JSON.stringify(res.body)).not.toMatch(/play_history|at \w+ \(/);
    } finally {
      await broken.close();
    }
  });
});
