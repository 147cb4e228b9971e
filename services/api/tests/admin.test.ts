import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { waitFor } from '@radio/core/testing';
import request from 'supertest';
import { ROUTE_SETUPS } from './helpers/databases.ts';
import {
  type Agent,
  BASE,
  expectError,
  insertTracks,
  loginAll,
  startTestApi,
  type TestApi,
  track,
} from './helpers/test-api.ts';

describe.each(ROUTE_SETUPS)('admin ($dialect, sessions in $sessions)', (setup) => {
  let t: TestApi;
  let admin: Agent;
  let dj: Agent;
  let listener: Agent;

  beforeAll(async () => {
    t = await startTestApi(setup);
    ({ admin, dj, listener } = await loginAll(t));
    await insertTracks(t.db, [
      track({ duration: 100, size: 1000 }),
      track({ duration: 50.5, size: 500 }),
      track({ status: 'invalid', error: 'bad header' }),
      track({ status: 'missing' }),
    ]);
  });
  afterAll(() => t.close());

  it('POST /admin/library/scan starts a scan (202 with its id); GET shows progress and counts', async () => {
    const before = await admin.get(`${BASE}/admin/library/scan`);
    expect(before.status).toBe(200);
    expect(before.body).toEqual({
      scan: null,
      analysis: null,
      library: { total: 4, ok: 2, invalid: 1, missing: 1, duration: 150.5, size: 1500 },
    });
    const started = await admin.post(`${BASE}/admin/library/scan`);
    expect(started.status).toBe(202);
    expect(started.body).toEqual({ scanId: 'scan-1' });
    expect(started.headers.location).toBe('/api/radio/admin/library/scan');
    const done = await waitFor('the scan to finish', async () => {
      const res = await admin.get(`${BASE}/admin/library/scan`);
      return res.body.scan?.state === 'done' ? res.body : undefined;
    });
    expect(done.scan).toMatchObject({
      scanId: 'scan-1',
      done: 2,
      total: 2,
      indexed: 2,
      finishedAt: expect.any(Number),
    });
  });

  it('GET /admin/library/scan shows the background analysis beside the scan', async () => {
    const analysis = {
      state: 'running' as const,
      pending: 150,
      analysed: 48,
      failed: 2,
      current: ['a/b.flac', 'c.mp3'],
      rate: 41.5,
    };
    await t.bus.setState('library-analysis', analysis);
    const res = await admin.get(`${BASE}/admin/library/scan`);
    expect(res.status).toBe(200);
    expect(res.body.analysis).toEqual(analysis);
  });

  it('library routes are for admins only', async () => {
    expectError(await dj.post(`${BASE}/admin/library/scan`), 403, 'API_FORBIDDEN');
    expectError(await listener.get(`${BASE}/admin/library/scan`), 403, 'API_FORBIDDEN');
    expectError(
      await request(t.app).post(`${BASE}/admin/library/scan`),
      401,
      'API_UNAUTHENTICATED',
    );
    expectError(
      await admin.post(`${BASE}/admin/library/scan`).send({ full: true }),
      400,
      'API_VALIDATION',
    );
  });

  it('GET /admin/system: versions, uptime, memory, health, library, db and Redis', async () => {
    const res = await admin.get(`${BASE}/admin/system`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      versions: { api: expect.any(String), node: process.version },
      uptime: { process: expect.any(Number), api: expect.any(Number) },
      memory: { rss: expect.any(Number), heapUsed: expect.any(Number) },
      health: {
        db: { ok: true },
        bus: { ok: true },
        scheduler: { ok: true },
        stream: { ok: false },
      },
      library: { total: 4, ok: 2 },
      db: { dialect: setup.dialect, ok: true },
      redis: setup.sessions === 'redis' ? { used: true, ok: true } : { used: false, ok: null },
      sessions: { store: setup.sessions },
      sse: { clients: 0 },
    });
    expect(JSON.stringify(res.body)).not.toContain('test-session-secret');
    expectError(await dj.get(`${BASE}/admin/system`), 403, 'API_FORBIDDEN');
    expectError(await request(t.app).get(`${BASE}/admin/system`), 401, 'API_UNAUTHENTICATED');
  });
});

describe.each(ROUTE_SETUPS)('admin without a scheduler ($dialect)', (setup) => {
  it('a scan request answers 503 when the scheduler does not answer', async () => {
    const t = await startTestApi(setup, { commandTimeoutMs: 200 }, { scheduler: false });
    try {
      const { admin } = await loginAll(t);
      expectError(await admin.post(`${BASE}/admin/library/scan`), 503, 'API_SCHEDULER_UNAVAILABLE');
    } finally {
      await t.close();
    }
  });
});
