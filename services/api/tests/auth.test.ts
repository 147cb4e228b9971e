import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { ROUTE_SETUPS } from './helpers/databases.ts';
import {
  BASE,
  createUser,
  expectError,
  login,
  PASSWORD,
  startTestApi,
  type TestApi,
} from './helpers/test-api.ts';

describe.each(ROUTE_SETUPS)('auth ($dialect, sessions in $sessions)', (setup) => {
  let t: TestApi;

  beforeAll(async () => {
    t = await startTestApi(setup, {
      limits: {
        loginPerIp: { max: 1000, windowMs: 60_000 },
        loginPerUser: { max: 4, windowMs: 60_000 },
        registerPerIp: { max: 1000, windowMs: 60_000 },
      },
    });
  });
  afterAll(() => t.close());

  it('registers every account as a listener, the first one too, logged in at once', async () => {
    const first = request.agent(t.app);
    const res = await first
      .post(`${BASE}/auth/register`)
      .send({ username: 'Founder', password: PASSWORD });
    expect(res.status).toBe(201);
    expect(res.body.user).toMatchObject({ username: 'Founder', role: 'listener', disabled: false });
    expect(res.body.user.password_hash).toBeUndefined();
    const me = await first.get(`${BASE}/auth/me`);
    expect(me.status).toBe(200);
    expect(me.body.user.username).toBe('Founder');

    const second = await request(t.app)
      .post(`${BASE}/auth/register`)
      .send({ username: 'second', password: PASSWORD });
    expect(second.status).toBe(201);
    expect(second.body.user.role).toBe('listener');
  });

  it('refuses a taken name regardless of case (409) and bad input (400)', async () => {
    expectError(
      await request(t.app)
        .post(`${BASE}/auth/register`)
        .send({ username: 'FOUNDER', password: PASSWORD }),
      409,
      'API_USERNAME_TAKEN',
    );
    expectError(
      await request(t.app)
        .post(`${BASE}/auth/register`)
        .send({ username: 'x', password: PASSWORD }),
      400,
      'API_VALIDATION',
    );
    expectError(
      await request(t.app)
        .post(`${BASE}/auth/register`)
        .send({ username: 'okname', password: 'short' }),
      400,
      'API_VALIDATION',
    );
    expectError(
      await request(t.app)
        .post(`${BASE}/auth/register`)
        .send({ username: "x'; drop table users; --", password: PASSWORD }),
      400,
      'API_VALIDATION',
    );
    expectError(
      await request(t.app)
        .post(`${BASE}/auth/register`)
        .send({ username: 'ünïcødé', password: PASSWORD }),
      400,
      'API_VALIDATION',
    );
  });

  it('sets an HttpOnly, SameSite=Lax cookie scoped to the api, with a new id at login', async () => {
    await createUser(t.db, 'cookie');
    const agent = request.agent(t.app);
    // An anonymous request gets no session at all.
    const anonymous = await agent.get(`${BASE}/auth-status`);
    expect(anonymous.headers['set-cookie']).toBeUndefined();
    expect(anonymous.body).toEqual({ authenticated: false, setupRequired: true });

    const first = await agent
      .post(`${BASE}/auth/login`)
      .send({ username: 'cookie', password: PASSWORD });
    expect(first.status).toBe(200);
    const cookie = String(first.headers['set-cookie']);
    expect(cookie).toMatch(/radio\.sid=/);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).toMatch(/Path=\/api\/radio/);
    expect(cookie).not.toMatch(/Secure/i);
    const sid = /radio\.sid=([^;]+)/.exec(cookie)?.[1];

    const again = await agent
      .post(`${BASE}/auth/login`)
      .send({ username: 'cookie', password: PASSWORD });
    const sid2 = /radio\.sid=([^;]+)/.exec(String(again.headers['set-cookie']))?.[1];
    expect(sid2).toBeDefined();
    expect(sid2).not.toBe(sid);
    const status = await agent.get(`${BASE}/auth-status`);
    expect(status.body).toMatchObject({ authenticated: true, user: { username: 'cookie' } });
  });

  it('marks the cookie Secure behind a trusted HTTPS proxy', async () => {
    const proxied = await startTestApi(setup, { trustedProxies: ['127.0.0.1', '::1'] });
    try {
      await createUser(proxied.db, 'secure');
      const res = await request(proxied.app)
        .post(`${BASE}/auth/login`)
        .set('X-Forwarded-Proto', 'https')
        .send({ username: 'secure', password: PASSWORD });
      expect(res.status).toBe(200);
      expect(String(res.headers['set-cookie'])).toMatch(/Secure/);
      expect(res.headers['strict-transport-security']).toBeDefined();
    } finally {
      await proxied.close();
    }
  });

  it('answers wrong credentials with 401 and the same code for unknown users', async () => {
    await createUser(t.db, 'wrong');
    expectError(
      await request(t.app)
        .post(`${BASE}/auth/login`)
        .send({ username: 'wrong', password: 'not the password' }),
      401,
      'API_INVALID_CREDENTIALS',
    );
    expectError(
      await request(t.app)
        .post(`${BASE}/auth/login`)
        .send({ username: 'nobody', password: PASSWORD }),
      401,
      'API_INVALID_CREDENTIALS',
    );
    expectError(
      await request(t.app).post(`${BASE}/auth/login`).send({ username: 'wrong' }),
      400,
      'API_VALIDATION',
    );
  });

  it('refuses a disabled account', async () => {
    await createUser(t.db, 'sleeper', 'listener', PASSWORD, true);
    expectError(
      await request(t.app)
        .post(`${BASE}/auth/login`)
        .send({ username: 'sleeper', password: PASSWORD }),
      403,
      'API_ACCOUNT_DISABLED',
    );
  });

  it('rate-limits login attempts per account, with Retry-After', async () => {
    await createUser(t.db, 'target');
    for (let i = 0; i < 4; i++) {
      expectError(
        await request(t.app)
          .post(`${BASE}/auth/login`)
          .send({ username: 'target', password: `guess ${i}` }),
        401,
      );
    }
    const limited = await request(t.app)
      .post(`${BASE}/auth/login`)
      .send({ username: 'TARGET', password: PASSWORD });
    expectError(limited, 429, 'API_RATE_LIMITED');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('rate-limits login attempts per IP', async () => {
    const limited = await startTestApi(setup, {
      trustedProxies: ['127.0.0.1', '::1'],
      limits: { loginPerIp: { max: 3, windowMs: 60_000 } },
    });
    try {
      await createUser(limited.db, 'someone');
      const attempt = (ip: string, username: string) =>
        request(limited.app)
          .post(`${BASE}/auth/login`)
          .set('X-Forwarded-For', ip)
          .send({ username, password: 'wrong password' });
      for (const name of ['a1', 'b2', 'c3']) expectError(await attempt('203.0.113.7', name), 401);
      expectError(await attempt('203.0.113.7', 'someone'), 429, 'API_RATE_LIMITED');
      // Another address is not affected.
      expectError(await attempt('203.0.113.8', 'someone'), 401, 'API_INVALID_CREDENTIALS');
    } finally {
      await limited.close();
    }
  });

  it('GET /auth/me needs a session; logout ends it', async () => {
    expectError(await request(t.app).get(`${BASE}/auth/me`), 401, 'API_UNAUTHENTICATED');
    await createUser(t.db, 'leaver');
    const agent = await login(t.app, 'leaver');
    const cookie = (await agent.get(`${BASE}/auth/me`)).status;
    expect(cookie).toBe(200);
    const out = await agent.post(`${BASE}/auth/logout`);
    expect(out.status).toBe(204);
    expectError(await agent.get(`${BASE}/auth/me`), 401, 'API_UNAUTHENTICATED');
    expectError(await agent.post(`${BASE}/auth/logout`), 401, 'API_UNAUTHENTICATED');
  });

  it('a logged-out cookie stays dead even when replayed', async () => {
    await createUser(t.db, 'replay');
    const res = await request(t.app)
      .post(`${BASE}/auth/login`)
      .send({ username: 'replay', password: PASSWORD });
    const cookie = String(res.headers['set-cookie']).split(';')[0] as string;
    expect((await request(t.app).get(`${BASE}/auth/me`).set('Cookie', cookie)).status).toBe(200);
    expect((await request(t.app).post(`${BASE}/auth/logout`).set('Cookie', cookie)).status).toBe(
      204,
    );
    expectError(
      await request(t.app).get(`${BASE}/auth/me`).set('Cookie', cookie),
      401,
      'API_UNAUTHENTICATED',
    );
  });

  it('PATCH /auth/me changes the password with the old one and ends the other sessions', async () => {
    await createUser(t.db, 'changer');
    const here = await login(t.app, 'changer');
    const elsewhere = await login(t.app, 'changer');
    expectError(
      await here.patch(`${BASE}/auth/me`).send({ password: 'a brand new password' }),
      400,
      'API_VALIDATION',
    );
    expectError(
      await here
        .patch(`${BASE}/auth/me`)
        .send({ password: 'a brand new password', currentPassword: 'nope' }),
      403,
      'API_WRONG_PASSWORD',
    );
    const changed = await here
      .patch(`${BASE}/auth/me`)
      .send({ password: 'a brand new password', currentPassword: PASSWORD });
    expect(changed.status).toBe(200);
    expect((await here.get(`${BASE}/auth/me`)).status).toBe(200);
    expectError(await elsewhere.get(`${BASE}/auth/me`), 401, 'API_UNAUTHENTICATED');
    await login(t.app, 'changer', 'a brand new password');
    expectError(
      await request(t.app).patch(`${BASE}/auth/me`).send({ username: 'newname' }),
      401,
      'API_UNAUTHENTICATED',
    );
  });

  it('PATCH /auth/me renames, refusing a taken name', async () => {
    await createUser(t.db, 'renamer');
    await createUser(t.db, 'taken');
    const agent = await login(t.app, 'renamer');
    expectError(
      await agent.patch(`${BASE}/auth/me`).send({ username: 'Taken' }),
      409,
      'API_USERNAME_TAKEN',
    );
    const res = await agent.patch(`${BASE}/auth/me`).send({ username: 'renamed' });
    expect(res.status).toBe(200);
    expect(res.body.user.username).toBe('renamed');
    expectError(await agent.patch(`${BASE}/auth/me`).send({}), 400, 'API_VALIDATION');
  });

  it('registration can be closed', async () => {
    const closed = await startTestApi(setup, { registrationOpen: false });
    try {
      expectError(
        await request(closed.app)
          .post(`${BASE}/auth/register`)
          .send({ username: 'late', password: PASSWORD }),
        403,
        'API_REGISTRATION_CLOSED',
      );
    } finally {
      await closed.close();
    }
  });

  it('re-hashes a cheaper password hash at the next login, and only then', async () => {
    const stronger = await startTestApi(setup, { scryptCost: 12 });
    try {
      const old = await createUser(stronger.db, 'veteran');
      const hashOf = async () =>
        (
          await stronger.db.db
            .selectFrom('users')
            .select('password_hash')
            .where('id', '=', old.id)
            .executeTakeFirstOrThrow()
        ).password_hash;
      expect(old.password_hash).toMatch(/^scrypt\$10\$/);
      expectError(
        await request(stronger.app)
          .post(`${BASE}/auth/login`)
          .send({ username: 'veteran', password: 'not the password' }),
        401,
      );
      expect(await hashOf()).toBe(old.password_hash);
      const agent = await login(stronger.app, 'veteran');
      const rehashed = await hashOf();
      expect(rehashed).toMatch(/^scrypt\$12\$8\$1\$/);
      // The session of that login holds, and the password is the same one.
      expect((await agent.get(`${BASE}/auth/me`)).status).toBe(200);
      await login(stronger.app, 'veteran');
      expect(await hashOf()).toBe(rehashed);
    } finally {
      await stronger.close();
    }
  });

  it('creates the bootstrap admin on an empty station only', async () => {
    const fresh = await startTestApi(setup, {
      bootstrapAdmin: { username: 'boss', password: 'boss password 1' },
    });
    try {
      const agent = await login(fresh.app, 'boss', 'boss password 1');
      const me = await agent.get(`${BASE}/auth/me`);
      expect(me.body.user.role).toBe('admin');
      // Registration after it: a listener, not a second admin.
      const res = await request(fresh.app)
        .post(`${BASE}/auth/register`)
        .send({ username: 'fan', password: PASSWORD });
      expect(res.body.user.role).toBe('listener');
    } finally {
      await fresh.close();
    }
  });
});
