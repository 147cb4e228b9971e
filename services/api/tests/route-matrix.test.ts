/**
 * Every documented route, checked for the answers the issue asks of each: unauthenticated
 * (401), wrong role (403), bad input (400), unknown id (404), each in the error shape, plus
 * a success for the routes that need no input. The list comes from GET /openapi.json, which
 * openapi.test.ts proves equal to what express serves, so a new route cannot skip these checks.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { ROUTE_SETUPS } from './helpers/databases.ts';
import { answerSchedule, type ScheduleAnswers } from './helpers/programming.ts';
import {
  type Agent,
  BASE,
  expectError,
  loginAll,
  startTestApi,
  type TestApi,
} from './helpers/test-api.ts';

type Operation = {
  'x-access': 'public' | 'session' | 'dj' | 'admin';
  parameters?: Array<{ name: string; in: string }>;
  requestBody?: unknown;
};
type Method = 'get' | 'head' | 'post' | 'put' | 'patch' | 'delete' | 'options';

/** Valid bodies for the routes whose 404 is checked with a body. */
const VALID_BODIES: Record<string, object> = {
  'patch /api/radio/users/{id}': { role: 'dj' },
  'patch /api/radio/playlists/{id}': { name: 'renamed' },
  'post /api/radio/playlists/{id}/tracks': { trackId: 1 },
  'put /api/radio/playlists/{id}/tracks': { itemIds: [] },
  'post /api/radio/playlists/{id}/play': {},
  'patch /api/radio/tracks/{id}/tags': { title: 'renamed' },
  'patch /api/radio/dj-accounts/{userId}': { displayName: 'renamed' },
  'patch /api/radio/webhooks/{id}': { enabled: false },
  'patch /api/radio/schedules/{id}': { title: 'renamed' },
};

describe.each(ROUTE_SETUPS)('every route ($dialect, sessions in $sessions)', (setup) => {
  let t: TestApi;
  let agents: { admin: Agent; dj: Agent; listener: Agent };
  let routes: Array<{ method: Method; path: string; op: Operation }>;
  // The scheduler's answer to the timeline and reloads, as its process would give them.
  let answers: ScheduleAnswers;

  beforeAll(async () => {
    t = await startTestApi(setup);
    answers = answerSchedule(t.bus);
    agents = await loginAll(t);
    const doc = (await request(t.app).get(`${BASE}/openapi.json`)).body as {
      paths: Record<string, Record<Method, Operation>>;
    };
    // The API's routes: /metrics beside it has its own login (embedded/tests/metrics.test.ts).
    routes = Object.entries(doc.paths)
      .filter(([path]) => path.startsWith(`${BASE}/`))
      .flatMap(([path, methods]) =>
        Object.entries(methods).map(([method, op]) => ({ method: method as Method, path, op })),
      );
  });
  afterAll(async () => {
    answers?.stop();
    await t?.close();
  });

  const send = (agent: Agent | null, method: Method, path: string, body?: object) => {
    const target = agent ?? request(t.app);
    const req = target[method](path);
    // A HEAD request carries no body, and its answer neither: only the status is checked.
    return body === undefined || method === 'head' ? req : req.send(body);
  };
  const expectAnswer = (res: request.Response, method: Method, status: number, code?: string) => {
    if (method === 'head') expect(res.status).toBe(status);
    else expectError(res, status, code);
  };
  const withIds = (path: string, value: string) => path.replace(/\{\w+\}/g, value);

  it('refuses every non-public route without a session (401)', async () => {
    let checked = 0;
    for (const { method, path, op } of routes) {
      if (op['x-access'] === 'public') continue;
      const res = await send(null, method, withIds(path, '1'), op.requestBody ? {} : undefined);
      expectAnswer(res, method, 401, 'API_UNAUTHENTICATED');
      checked += 1;
    }
    expect(checked).toBeGreaterThan(30);
  });

  it('refuses dj and admin routes to a lower role (403)', async () => {
    let checked = 0;
    for (const { method, path, op } of routes) {
      const access = op['x-access'];
      if (access !== 'dj' && access !== 'admin') continue;
      const lower = access === 'dj' ? agents.listener : agents.dj;
      expectAnswer(await send(lower, method, withIds(path, '1'), {}), method, 403, 'API_FORBIDDEN');
      checked += 1;
    }
    expect(checked).toBeGreaterThan(10);
  });

  it('refuses bad input on every route that takes input (400)', async () => {
    let checked = 0;
    for (const { method, path, op } of routes) {
      const hasId = /\{\w+\}/.test(path);
      const hasPage = op.parameters?.some((p) => p.name === 'page');
      let res: request.Response;
      if (hasId)
        res = await send(
          agents.admin,
          method,
          withIds(path, 'not-an-id'),
          VALID_BODIES[`${method} ${path}`],
        );
      else if (op.requestBody)
        res = await send(agents.admin, method, path, { unexpected: ['field'] });
      else if (hasPage) res = await send(agents.admin, method, `${path}?page=0`);
      else continue;
      expectAnswer(res, method, 400, 'API_VALIDATION');
      checked += 1;
    }
    expect(checked).toBeGreaterThan(30);
  });

  it('answers 404 for an unknown id on every route with one', async () => {
    let checked = 0;
    for (const { method, path } of routes) {
      if (!/\{\w+\}/.test(path)) continue;
      const res = await send(
        agents.admin,
        method,
        withIds(path, '999999'),
        VALID_BODIES[`${method} ${path}`],
      );
      expectAnswer(res, method, 404);
      if (method !== 'head') expect(res.body.error.code).toMatch(/_NOT_FOUND$/);
      checked += 1;
    }
    expect(checked).toBe(34);
  });

  it('answers every input-free read with success', async () => {
    for (const { method, path, op } of routes) {
      // The event stream never ends; the go-live WebSocket answers a plain GET with 426.
      if (method !== 'get' || /\{\w+\}/.test(path) || /\/(events|live\/ws)$/.test(path)) continue;
      const agent = op['x-access'] === 'public' ? null : agents.admin;
      const res = await send(agent, method, path);
      expect([path, res.status]).toEqual([path, 200]);
    }
  });
});
