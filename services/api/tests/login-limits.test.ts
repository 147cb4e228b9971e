import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { ROUTE_SETUPS } from './helpers/databases.ts';
import {
  BASE,
  createUser,
  expectError,
  PASSWORD,
  startTestApi,
  type TestApi,
} from './helpers/test-api.ts';

/**
 * The default login limits (30 failures per client in 15 minutes) behind a reverse proxy the
 * api trusts: every request comes from the proxy's address, the client is in X-Forwarded-For.
 */
describe.each(ROUTE_SETUPS)('login limits ($dialect, counters for $sessions)', (setup) => {
  let t: TestApi;

  beforeAll(async () => {
    t = await startTestApi(setup, { trustedProxies: ['127.0.0.1', '::1'] });
    await createUser(t.db, 'regular');
  });
  afterAll(() => t.close());

  const login = (client: string, username: string, password: string) =>
    request(t.app)
      .post(`${BASE}/auth/login`)
      .set('X-Forwarded-For', client)
      .send({ username, password });

  it('never counts a successful login', async () => {
    for (let i = 0; i < 40; i++) {
      expect((await login('198.51.100.1', 'regular', PASSWORD)).status).toBe(200);
    }
    expectError(
      await login('198.51.100.1', 'regular', 'wrong password'),
      401,
      'API_INVALID_CREDENTIALS',
    );
  });

  it("counts each client's failures apart, though all come through the same proxy", async () => {
    // Unknown accounts, so the per-account limit stays out of it.
    for (let i = 0; i < 30; i++) {
      expectError(await login('203.0.113.10', `ghost${i}`, 'wrong password'), 401);
    }
    const limited = await login('203.0.113.10', 'ghost-last', 'wrong password');
    expectError(limited, 429, 'API_RATE_LIMITED');
    // The limited client cannot get in even with the right password until the window ends.
    expectError(await login('203.0.113.10', 'regular', PASSWORD), 429, 'API_RATE_LIMITED');
    expectError(
      await login('203.0.113.11', 'ghost0', 'wrong password'),
      401,
      'API_INVALID_CREDENTIALS',
    );
    expect((await login('203.0.113.11', 'regular', PASSWORD)).status).toBe(200);
  });
});
