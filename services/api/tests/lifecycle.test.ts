import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { type Bus, createMemoryBus, silentLogger } from '@radio/core';
import { createDb, type DbHandle, migrateToLatest } from '@radio/db';
import request from 'supertest';
import { type ApiOptions, apiOptionsFromConfig, createApi } from '../src/index.ts';
import { BASE } from './helpers/test-api.ts';

const options: ApiOptions = {
  sessionSecret: 'test-session-secret-0123456789',
  streamUrl: 'http://127.0.0.1:9',
  musicDir: tmpdir(),
  dataDir: tmpdir(),
  scryptCost: 10,
};

describe('api lifecycle', () => {
  let db: DbHandle;
  let bus: Bus;

  beforeEach(async () => {
    db = await createDb('sqlite::memory:');
    await migrateToLatest(db.db);
    bus = createMemoryBus({ logger: silentLogger() });
  });
  afterEach(async () => {
    await bus.close();
    await db.close();
  });

  const usernames = async () =>
    (await db.db.selectFrom('users').select('username').execute()).map((row) => row.username);

  it('creating it opens nothing; start listens; close is idempotent and final', async () => {
    const api = createApi(
      { ...options, bootstrapAdmin: { username: 'boss', password: 'boss password 1' } },
      { db, bus, logger: silentLogger() },
    );
    expect(api.port).toBe(0);
    expect(api.url).toBe('');
    expect(await usernames()).toEqual([]);

    await api.start();
    expect(api.port).toBeGreaterThan(0);
    expect(api.url).toBe(`http://127.0.0.1:${api.port}`);
    expect(await usernames()).toEqual(['boss']);
    const answer = await fetch(`${api.url}${BASE}/auth-status`);
    expect(answer.status).toBe(200);
    await answer.text();

    const closing = api.close();
    expect(api.close()).toBe(closing);
    await closing;
    await expect(fetch(`${api.url}${BASE}/auth-status`)).rejects.toThrow();
    await expect(api.start()).rejects.toMatchObject({ code: 'API_NOT_RESTARTABLE' });
  });

  it('serves its express app before start; close works before start', async () => {
    const api = createApi(options, { db, bus, logger: silentLogger() });
    expect((await request(api.app).get(`${BASE}/auth-status`)).status).toBe(200);
    await api.close();
    await expect(api.start()).rejects.toMatchObject({ code: 'API_NOT_RESTARTABLE' });
  });

  it('a start that cannot bind rejects; close still resolves', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as { port: number };
    try {
      const api = createApi({ ...options, port }, { db, bus, logger: silentLogger() });
      await expect(api.start()).rejects.toMatchObject({ code: 'EADDRINUSE' });
      await api.close();
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });

  it('bad options are refused when it is created', () => {
    expect(() => createApi({ ...options, port: -1 }, { db, bus, logger: silentLogger() })).toThrow(
      TypeError,
    );
    expect(() =>
      createApi({ ...options, sessionSecret: 'short' }, { db, bus, logger: silentLogger() }),
    ).toThrow(TypeError);
  });
});

describe('apiOptionsFromConfig', () => {
  const config = {
    API_HOST: '0.0.0.0',
    API_PORT: 3000,
    SESSION_SECRET: 'test-session-secret-0123456789',
    STREAM_URL: 'http://stream:8000',
    PUBLIC_STREAM_URL: undefined,
    MUSIC_DIR: '/music',
    DATA_DIR: '/data',
    MAX_UPLOAD_MB: 500,
    TRASH_DAYS: 30,
    TRUST_PROXY: false,
    REGISTRATION: 'open' as const,
    ADMIN_USER: 'admin',
    ADMIN_PASSWORD: 'admin password 1',
  };

  it('maps the environment, with a bootstrap admin only while registration is closed', () => {
    expect(apiOptionsFromConfig(config)).toEqual({
      host: '0.0.0.0',
      port: 3000,
      sessionSecret: config.SESSION_SECRET,
      streamUrl: 'http://stream:8000',
      publicStreamUrl: undefined,
      musicDir: '/music',
      dataDir: '/data',
      maxUploadBytes: 500 * 1024 * 1024,
      trashDays: 30,
      trustProxy: false,
      registrationOpen: true,
      bootstrapAdmin: undefined,
    });
    expect(apiOptionsFromConfig({ ...config, REGISTRATION: 'closed' })).toMatchObject({
      registrationOpen: false,
      bootstrapAdmin: { username: 'admin', password: 'admin password 1' },
    });
  });
});
