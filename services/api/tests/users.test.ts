import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { ROUTE_SETUPS } from './helpers/databases.ts';
import {
  type Agent,
  BASE,
  createUser,
  expectError,
  login,
  loginAll,
  PASSWORD,
  startTestApi,
  type TestApi,
} from './helpers/test-api.ts';

describe.each(ROUTE_SETUPS)('users ($dialect, sessions in $sessions)', (setup) => {
  let t: TestApi;
  let admin: Agent;
  let dj: Agent;
  let listener: Agent;

  beforeAll(async () => {
    t = await startTestApi(setup);
    ({ admin, dj, listener } = await loginAll(t));
  });
  afterAll(() => t.close());

  it('lists accounts for admins only, with filters and pagination', async () => {
    const res = await admin.get(`${BASE}/users`);
    expect(res.status).toBe(200);
    expect(res.body.total).toBeGreaterThanOrEqual(3);
    expect(res.body.items[0]).toEqual({
      id: expect.any(Number),
      username: 'admin',
      role: 'admin',
      disabled: false,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      lastLoginAt: expect.any(String),
    });
    expect(
      (await admin.get(`${BASE}/users`).query({ role: 'dj' })).body.items.map(
        (u: { username: string }) => u.username,
      ),
    ).toEqual(['dj']);
    expect(
      (await admin.get(`${BASE}/users`).query({ q: 'LIST' })).body.items.map(
        (u: { username: string }) => u.username,
      ),
    ).toEqual(['listener']);
    expect((await admin.get(`${BASE}/users`).query({ limit: 1, page: 2 })).body.items).toHaveLength(
      1,
    );
    expectError(await admin.get(`${BASE}/users`).query({ role: 'king' }), 400, 'API_VALIDATION');
    expectError(await dj.get(`${BASE}/users`), 403, 'API_FORBIDDEN');
    expectError(await listener.get(`${BASE}/users`), 403, 'API_FORBIDDEN');
    expectError(await request(t.app).get(`${BASE}/users`), 401, 'API_UNAUTHENTICATED');
  });

  it('creates, reads, changes and deletes an account', async () => {
    const created = await admin
      .post(`${BASE}/users`)
      .send({ username: 'newdj', password: PASSWORD, role: 'dj' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ username: 'newdj', role: 'dj', disabled: false });
    const id = created.body.id as number;
    expectError(
      await admin.post(`${BASE}/users`).send({ username: 'NEWDJ', password: PASSWORD }),
      409,
      'API_USERNAME_TAKEN',
    );
    expectError(
      await admin.post(`${BASE}/users`).send({ username: 'x', password: PASSWORD }),
      400,
      'API_VALIDATION',
    );
    expectError(
      await admin.post(`${BASE}/users`).send({ username: 'abc', password: PASSWORD, role: 'root' }),
      400,
      'API_VALIDATION',
    );

    expect((await admin.get(`${BASE}/users/${id}`)).body.username).toBe('newdj');
    expectError(await admin.get(`${BASE}/users/999999`), 404, 'API_USER_NOT_FOUND');
    expectError(await admin.get(`${BASE}/users/abc`), 400, 'API_VALIDATION');

    const session = await login(t.app, 'newdj');
    expect((await session.get(`${BASE}/auth/me`)).body.user.role).toBe('dj');
    const demoted = await admin.patch(`${BASE}/users/${id}`).send({ role: 'listener' });
    expect(demoted.status).toBe(200);
    expect(demoted.body.role).toBe('listener');
    // The role applies to the open session at once.
    expect((await session.get(`${BASE}/auth/me`)).body.user.role).toBe('listener');

    const disabled = await admin.patch(`${BASE}/users/${id}`).send({ disabled: true });
    expect(disabled.body.disabled).toBe(true);
    expectError(await session.get(`${BASE}/auth/me`), 401);
    expectError(
      await request(t.app)
        .post(`${BASE}/auth/login`)
        .send({ username: 'newdj', password: PASSWORD }),
      403,
      'API_ACCOUNT_DISABLED',
    );

    await admin
      .patch(`${BASE}/users/${id}`)
      .send({ disabled: false, password: 'reset password 1' });
    await login(t.app, 'newdj', 'reset password 1');
    expectError(await admin.patch(`${BASE}/users/${id}`).send({}), 400, 'API_VALIDATION');
    expectError(
      await admin.patch(`${BASE}/users/${id}`).send({ role: 'emperor' }),
      400,
      'API_VALIDATION',
    );
    expectError(
      await admin.patch(`${BASE}/users/${id}`).send({ username: 'Listener' }),
      409,
      'API_USERNAME_TAKEN',
    );
    expectError(
      await admin.patch(`${BASE}/users/999999`).send({ role: 'dj' }),
      404,
      'API_USER_NOT_FOUND',
    );
    expectError(
      await dj.patch(`${BASE}/users/${id}`).send({ role: 'admin' }),
      403,
      'API_FORBIDDEN',
    );

    expect((await admin.delete(`${BASE}/users/${id}`)).status).toBe(204);
    expectError(await admin.delete(`${BASE}/users/${id}`), 404, 'API_USER_NOT_FOUND');
    expectError(await admin.delete(`${BASE}/users/zero`), 400, 'API_VALIDATION');
    expectError(await listener.delete(`${BASE}/users/1`), 403, 'API_FORBIDDEN');
  });

  it('never leaves the station without an active admin', async () => {
    const me = (await admin.get(`${BASE}/auth/me`)).body.user as { id: number };
    expectError(
      await admin.patch(`${BASE}/users/${me.id}`).send({ role: 'dj' }),
      409,
      'API_LAST_ADMIN',
    );
    expectError(
      await admin.patch(`${BASE}/users/${me.id}`).send({ disabled: true }),
      409,
      'API_LAST_ADMIN',
    );
    expectError(await admin.delete(`${BASE}/users/${me.id}`), 409, 'API_LAST_ADMIN');

    // With a second admin, the first may step down.
    const other = await createUser(t.db, 'admin2', 'admin');
    const stepDown = await admin.patch(`${BASE}/users/${me.id}`).send({ role: 'dj' });
    expect(stepDown.status).toBe(200);
    expectError(await admin.get(`${BASE}/users`), 403, 'API_FORBIDDEN');
    const second = await login(t.app, 'admin2');
    expectError(await second.delete(`${BASE}/users/${other.id}`), 409, 'API_LAST_ADMIN');
    expect((await second.patch(`${BASE}/users/${me.id}`).send({ role: 'admin' })).status).toBe(200);
  });
});
