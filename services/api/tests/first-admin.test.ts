import { afterEach, describe, expect, it } from '@jest/globals';
import { captureLogger } from '@radio/core/testing';
import request from 'supertest';
import { ROUTE_SETUPS } from './helpers/databases.ts';
import { BASE, expectError, PASSWORD, startTestApi, type TestApi } from './helpers/test-api.ts';

const CODE_SHAPE = /^[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}$/;
const WAITING = 'waiting for the first admin: open the web app and enter the setup code';

describe.each(ROUTE_SETUPS)('the first admin ($dialect, sessions in $sessions)', (setup) => {
  let t: TestApi | null = null;
  afterEach(async () => {
    await t?.close();
    t = null;
  });

  const storedCodes = (api: TestApi) =>
    api.db.db.selectFrom('settings').select('value').where('key', '=', 'setup-code').execute();
  const setupRequest = (api: TestApi, code: string, username = 'boss') =>
    request(api.app).post(`${BASE}/auth/setup`).send({ code, username, password: PASSWORD });

  it('is created with the code printed at start, never by registering; the code is then gone', async () => {
    const { logger, lines } = captureLogger();
    t = await startTestApi(setup, {}, { logger });
    const code = t.api.setupCode;
    expect(code).toMatch(CODE_SHAPE);
    const printed = lines.find((line) => line.msg === WAITING);
    expect(printed).toMatchObject({ level: 'info', setupCode: code });
    expect((await request(t.app).get(`${BASE}/auth-status`)).body).toEqual({
      authenticated: false,
      setupRequired: true,
    });

    // The first to register is a listener: a stranger cannot take the station.
    const early = await request(t.app)
      .post(`${BASE}/auth/register`)
      .send({ username: 'early', password: PASSWORD });
    expect(early.status).toBe(201);
    expect(early.body.user.role).toBe('listener');
    expect((await request(t.app).get(`${BASE}/auth-status`)).body.setupRequired).toBe(true);

    expectError(await setupRequest(t, 'ABCD-EFGH-JKLM'), 403, 'API_SETUP_CODE_INVALID');
    expectError(await setupRequest(t, ''), 400, 'API_VALIDATION');

    // Typed in lower case, without the dashes: the same code.
    const agent = request.agent(t.app);
    const created = await agent.post(`${BASE}/auth/setup`).send({
      code: (code as string).replaceAll('-', '').toLowerCase(),
      username: 'Boss',
      password: PASSWORD,
    });
    expect(created.status).toBe(201);
    expect(created.body.user).toMatchObject({ username: 'Boss', role: 'admin' });
    expect((await agent.get(`${BASE}/auth/me`)).body.user.role).toBe('admin');
    expect(lines.some((line) => line.msg === 'first admin created')).toBe(true);
    expect(t.api.setupCode).toBeNull();
    expect(await storedCodes(t)).toEqual([]);
    expect((await agent.get(`${BASE}/auth-status`)).body).toMatchObject({
      authenticated: true,
      setupRequired: false,
    });
    expectError(await setupRequest(t, code as string, 'second'), 409, 'API_SETUP_DONE');
  });

  it('keeps the generated code across restarts until it is used, and prints it each time', async () => {
    const { logger, lines } = captureLogger();
    t = await startTestApi(setup, {}, { logger });
    const code = t.api.setupCode;
    expect(code).toMatch(CODE_SHAPE);
    expect(await storedCodes(t)).toHaveLength(1);
    await t.restart();
    expect(t.api.setupCode).toBe(code);
    const printed = lines.filter((line) => line.msg === WAITING).map((line) => line.setupCode);
    expect(printed).toEqual([code, code]);
    expect((await setupRequest(t, code as string)).status).toBe(201);
    await t.restart();
    expect(t.api.setupCode).toBeNull();
  });

  it('takes SETUP_CODE when it is set', async () => {
    t = await startTestApi(setup, { setupCode: 'my own setup code' });
    expect(t.api.setupCode).toBe('my own setup code');
    expectError(await setupRequest(t, 'my other setup code'), 403, 'API_SETUP_CODE_INVALID');
    expect((await setupRequest(t, 'my own setup code')).status).toBe(201);
    expect(t.api.setupCode).toBeNull();
  });

  it('makes one admin of two setups at the same moment', async () => {
    t = await startTestApi(setup);
    const code = t.api.setupCode as string;
    const answers = await Promise.all([
      setupRequest(t, code, 'first'),
      setupRequest(t, code, 'second'),
    ]);
    expect(answers.map((res) => res.status).sort()).toEqual([201, 409]);
    const admins = await t.db.db
      .selectFrom('users')
      .select('username')
      .where('role', '=', 'admin')
      .execute();
    expect(admins).toHaveLength(1);
  });

  it('limits wrong codes per client, and only that client, logging each kind once', async () => {
    const { logger, lines } = captureLogger();
    t = await startTestApi(
      setup,
      {
        trustedProxies: ['127.0.0.1', '::1'],
        limits: { setupPerIp: { max: 3, windowMs: 60_000 } },
      },
      { logger },
    );
    const code = t.api.setupCode as string;
    const from = (client: string, guess: string) =>
      setupRequest(t as TestApi, guess).set('X-Forwarded-For', client);
    for (let i = 0; i < 3; i++) {
      expectError(await from('203.0.113.5', `WRONG-CODE-000${i}`), 403, 'API_SETUP_CODE_INVALID');
    }
    const limited = await from('203.0.113.5', code);
    expectError(limited, 429, 'API_RATE_LIMITED');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expectError(await from('203.0.113.5', code), 429, 'API_RATE_LIMITED');
    expect((await from('203.0.113.6', code)).status).toBe(201);
    const warned = lines
      .filter((line) => line.level === 'warn' && line.msg === 'request refused')
      .map((line) => [line.code, line.client, line.held]);
    expect(warned).toEqual([
      ['API_SETUP_CODE_INVALID', '203.0.113.5', 0],
      ['API_RATE_LIMITED', '203.0.113.5', 0],
    ]);
  });

  it('with registration closed and ADMIN_USER/ADMIN_PASSWORD: that admin, and no code', async () => {
    const { logger, lines } = captureLogger();
    t = await startTestApi(
      setup,
      { registrationOpen: false, bootstrapAdmin: { username: 'owner', password: PASSWORD } },
      { logger },
    );
    expect(t.api.setupCode).toBeNull();
    expect(lines.some((line) => line.msg === WAITING)).toBe(false);
    expect((await request(t.app).get(`${BASE}/auth-status`)).body.setupRequired).toBe(false);
    expect(await storedCodes(t)).toEqual([]);
    expectError(await setupRequest(t, 'ABCD-EFGH-JKLM'), 409, 'API_SETUP_DONE');
  });

  it('is in the OpenAPI document', async () => {
    t = await startTestApi(setup);
    const doc = (await request(t.app).get(`${BASE}/openapi.json`)).body;
    const operation = doc.paths[`${BASE}/auth/setup`]?.post;
    expect(operation).toBeDefined();
    expect(Object.keys(operation.responses)).toEqual(
      expect.arrayContaining(['201', '400', '403', '409', '429']),
    );
  });
});
