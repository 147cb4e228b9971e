import { afterEach, describe, expect, it } from '@jest/globals';
import { createRedisBus, silentLogger } from '@radio/core';
import { waitFor } from '@radio/core/testing';
import request from 'supertest';
import { createApi } from '../src/index.ts';
import { ALL_SETUPS, REDIS_URL, type TestRedis } from './helpers/databases.ts';
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
    // maxAge leaves each request 3 s of slack, so a stall of a loaded machine (CI saw one
    // past 1 s) does not end the session between two requests.
    t = await startTestApi(setup, { cookie: { maxAgeMs: 4000 } });
    await createUser(t.db, 'sleepy');
    const cookie = await loginCookie(t, 'sleepy');
    // Active for longer than maxAge: the rolling expiry keeps the session.
    for (let i = 0; i < 5; i++) {
      await sleep(1000);
      expect((await request(t.app).get(`${BASE}/auth/me`).set('Cookie', cookie)).status).toBe(200);
    }
    // Idle for longer than maxAge (Redis counts its TTL in whole seconds).
    await sleep(5500);
    expectError(
      await request(t.app).get(`${BASE}/auth/me`).set('Cookie', cookie),
      401,
      'API_UNAUTHENTICATED',
    );
  });

  it('end at once when an admin disables, resets or deletes the account', async () => {
    t = await startTestApi(setup);
    const { app } = t;
    await createUser(t.db, 'boss', 'admin');
    const user = await createUser(t.db, 'doomed');
    const admin = await loginCookie(t, 'boss');
    const patchUser = (body: object) =>
      request(app).patch(`${BASE}/users/${user.id}`).set('Cookie', admin).send(body);
    const me = (cookie: string) => request(app).get(`${BASE}/auth/me`).set('Cookie', cookie);

    const cookie = await loginCookie(t, 'doomed');
    expect((await me(cookie)).status).toBe(200);
    expect((await patchUser({ disabled: true })).status).toBe(200);
    expectError(await me(cookie), 401, 'API_UNAUTHENTICATED');

    expect((await patchUser({ disabled: false })).status).toBe(200);
    const again = await loginCookie(t, 'doomed');
    expect((await me(again)).status).toBe(200);
    expect((await patchUser({ password: 'a new password 1' })).status).toBe(200);
    expectError(await me(again), 401, 'API_UNAUTHENTICATED');

    const third = (
      await request(t.app)
        .post(`${BASE}/auth/login`)
        .send({ username: 'doomed', password: 'a new password 1' })
    ).headers['set-cookie'];
    const thirdCookie = String(third).split(';')[0] as string;
    expect((await me(thirdCookie)).status).toBe(200);
    expect(
      (await request(t.app).delete(`${BASE}/users/${user.id}`).set('Cookie', admin)).status,
    ).toBe(204);
    expectError(await me(thirdCookie), 401, 'API_UNAUTHENTICATED');
  });

  it('end when the account is disabled in the database by hand, within sessionCacheMs', async () => {
    t = await startTestApi(setup, { sessionCacheMs: 200 });
    const { app } = t;
    const user = await createUser(t.db, 'edited');
    const cookie = await loginCookie(t, 'edited');
    expect((await request(t.app).get(`${BASE}/auth/me`).set('Cookie', cookie)).status).toBe(200);
    await t.db.db.updateTable('users').set({ disabled: 1 }).where('id', '=', user.id).execute();
    await waitFor(
      'a 401',
      async () => {
        const res = await request(app).get(`${BASE}/auth/me`).set('Cookie', cookie);
        return res.status === 401 ? res : undefined;
      },
      15_000,
    );
  });

  it('end when the stored session is deleted by hand, within sessionCacheMs', async () => {
    t = await startTestApi(setup, { sessionCacheMs: 200 });
    const { app } = t;
    await createUser(t.db, 'erased');
    const cookie = await loginCookie(t, 'erased');
    const me = () => request(app).get(`${BASE}/auth/me`).set('Cookie', cookie);
    expect((await me()).status).toBe(200);
    expect(await storedSessions(t)).toBe(1);
    if (t.redis) await t.redis.redis.del(...(await t.redis.redis.keys(`${t.redis.prefix}sess:*`)));
    else await t.db.db.deleteFrom('sessions').execute();
    await waitFor(
      'a 401',
      async () => {
        const res = await me();
        return res.status === 401 ? res : undefined;
      },
      15_000,
    );
  });

  it('are stored under a hash of their id: a dump of the store holds no usable cookie', async () => {
    t = await startTestApi(setup);
    await createUser(t.db, 'dumped');
    const cookie = await loginCookie(t, 'dumped');
    // `radio.sid=s%3A<id>.<signature>`
    const sid = /^radio\.sid=s%3A([^.]+)\./.exec(cookie)?.[1] as string;
    expect(sid.length).toBeGreaterThan(20);
    let dump: string;
    if (t.redis) {
      const keys = await t.redis.redis.keys(`${t.redis.prefix}sess:*`);
      expect(keys).toHaveLength(1);
      dump = JSON.stringify([keys, await t.redis.redis.get(keys[0] as string)]);
    } else {
      dump = JSON.stringify(await t.db.db.selectFrom('sessions').selectAll().execute());
    }
    expect(dump).toContain('userId');
    expect(dump).not.toContain(sid);
    expect((await request(t.app).get(`${BASE}/auth/me`).set('Cookie', cookie)).status).toBe(200);
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

describe('sessions shared by two api processes (PostgreSQL, Redis sessions and bus)', () => {
  let t: TestApi | null = null;
  afterEach(async () => {
    await t?.close();
    t = null;
  });

  it('end in the other process too when an admin disables the account', async () => {
    // A long sessionCacheMs: only the bus can tell the other process in time.
    t = await startTestApi(
      { dialect: 'postgres', sessions: 'redis' },
      { sessionCacheMs: 60_000 },
      { bus: 'redis' },
    );
    const redis = t.redis as TestRedis;
    const logger = silentLogger();
    const bus = await createRedisBus({ url: REDIS_URL, logger, prefix: redis.prefix });
    const other = createApi(t.options, {
      db: await t.database.open(),
      bus,
      logger,
      redis: redis.redis,
    });
    try {
      await createUser(t.db, 'boss', 'admin');
      const user = await createUser(t.db, 'roamer');
      const admin = await loginCookie(t, 'boss');
      const cookie = await loginCookie(t, 'roamer');
      const meThere = () => request(other.app).get(`${BASE}/auth/me`).set('Cookie', cookie);
      expect((await meThere()).status).toBe(200);

      const disabled = await request(t.app)
        .patch(`${BASE}/users/${user.id}`)
        .set('Cookie', admin)
        .send({ disabled: true });
      expect(disabled.status).toBe(200);
      const refused = await waitFor(
        'a 401',
        async () => {
          const res = await meThere();
          return res.status === 401 ? res : undefined;
        },
        15_000,
      );
      expectError(refused, 401, 'API_UNAUTHENTICATED');
    } finally {
      await other.close();
      await bus.close();
    }
  });
});
