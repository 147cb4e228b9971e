import { afterEach, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { ALL_SETUPS } from './helpers/databases.ts';
import {
  BASE,
  createUser,
  expectError,
  PASSWORD,
  startTestApi,
  type TestApi,
} from './helpers/test-api.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function loginCookie(t: TestApi, username: string): Promise<string> {
  const res = await request(t.app)
    .post(`${BASE}/auth/login`)
    .send({ username, password: PASSWORD });
  expect(res.status).toBe(200);
  return String(res.headers['set-cookie']).split(';')[0] as string;
}

async function storedSessions(t: TestApi): Promise<number> {
  if (t.redis) return (await t.redis.redis.keys(`${t.redis.prefix}sess:*`)).length;
  const row = await t.db.db
    .selectFrom('sessions')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

describe.each(ALL_SETUPS)('sessions ($dialect, store $sessions)', (setup) => {
  let t: TestApi | null = null;
  afterEach(async () => {
    await t?.close();
    t = null;
  });

  it('survive an api restart', async () => {
    t = await startTestApi(setup);
    await createUser(t.db, 'stayer');
    const cookie = await loginCookie(t, 'stayer');
    await t.restart();
    const me = await request(t.app).get(`${BASE}/auth/me`).set('Cookie', cookie);
    expect(me.status).toBe(200);
    expect(me.body.user.username).toBe('stayer');
  });

  it('are stored only once logged in, and deleted at logout', async () => {
    t = await startTestApi(setup);
    await createUser(t.db, 'counted');
    await request(t.app).get(`${BASE}/auth-status`);
    await request(t.app)
      .post(`${BASE}/auth/login`)
      .send({ username: 'counted', password: 'wrong password' });
    expect(await storedSessions(t)).toBe(0);
    const cookie = await loginCookie(t, 'counted');
    expect(await storedSessions(t)).toBe(1);
    expect((await request(t.app).post(`${BASE}/auth/logout`).set('Cookie', cookie)).status).toBe(
      204,
    );
    expect(await storedSessions(t)).toBe(0);
    expectError(
      await request(t.app).get(`${BASE}/auth/me`).set('Cookie', cookie),
      401,
      'API_UNAUTHENTICATED',
    );
  });

  it('expire after the idle time, and each request moves the expiry forward', async () => {
    t = await startTestApi(setup, { cookie: { maxAgeMs: 1500 } });
    await createUser(t.db, 'sleepy');
    const cookie = await loginCookie(t, 'sleepy');
    // Active for longer than maxAge: the rolling expiry keeps the session.
    for (let i = 0; i < 4; i++) {
      await sleep(500);
      expect((await request(t.app).get(`${BASE}/auth/me`).set('Cookie', cookie)).status).toBe(200);
    }
    // Idle for longer than maxAge (Redis counts its TTL in whole seconds: 2 s here).
    await sleep(3000);
    expectError(
      await request(t.app).get(`${BASE}/auth/me`).set('Cookie', cookie),
      401,
      'API_UNAUTHENTICATED',
    );
  });

  it('end when the account is disabled or deleted', async () => {
    t = await startTestApi(setup);
    const user = await createUser(t.db, 'doomed');
    const cookie = await loginCookie(t, 'doomed');
    await t.db.db.updateTable('users').set({ disabled: 1 }).where('id', '=', user.id).execute();
    expectError(await request(t.app).get(`${BASE}/auth/me`).set('Cookie', cookie), 401);
    await t.db.db.updateTable('users').set({ disabled: 0 }).where('id', '=', user.id).execute();
    const again = await loginCookie(t, 'doomed');
    await t.db.db.deleteFrom('users').where('id', '=', user.id).execute();
    expectError(await request(t.app).get(`${BASE}/auth/me`).set('Cookie', again), 401);
  });

  it('ignore a forged or tampered cookie', async () => {
    t = await startTestApi(setup);
    await createUser(t.db, 'victim');
    const cookie = await loginCookie(t, 'victim');
    const tampered = cookie.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'));
    expectError(await request(t.app).get(`${BASE}/auth/me`).set('Cookie', tampered), 401);
    expectError(
      await request(t.app).get(`${BASE}/auth/me`).set('Cookie', 'radio.sid=s%3Aforged.sig'),
      401,
    );
  });
});
