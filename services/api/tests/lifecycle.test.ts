import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { apiSpec, type Bus, createMemoryBus, loadConfig, silentLogger } from '@radio/core';
import { waitFor } from '@radio/core/testing';
import { createDb, type DbHandle, migrateToLatest } from '@radio/db';
import request from 'supertest';
import { type ApiOptions, apiOptionsFromConfig, createApi } from '../src/index.ts';
import { resolveApiOptions } from '../src/options.ts';
import { BASE, loginAll, startTestApi } from './helpers/test-api.ts';
import { WebhookReceiver } from './helpers/webhook-receiver.ts';

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

  it('looks the names in trustedProxies up at start', async () => {
    const api = createApi(
      { ...options, trustedProxies: ['localhost'] },
      { db, bus, logger: silentLogger() },
    );
    const overHttps = () =>
      request(api.app).get(`${BASE}/auth-status`).set('X-Forwarded-Proto', 'https');
    try {
      expect((await overHttps()).headers['strict-transport-security']).toBeUndefined();
      await api.start();
      expect((await overHttps()).headers['strict-transport-security']).toBeDefined();
    } finally {
      await api.close();
    }
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
    TRUSTED_PROXIES: ['web'],
    PUBLIC_URL: 'https://radio.example',
    ALLOWED_ORIGINS: ['https://studio.example'],
    SETUP_CODE: undefined,
    REGISTRATION: 'open' as const,
    ADMIN_USER: 'admin',
    ADMIN_PASSWORD: 'admin password 1',
    LISTENER_PRIVACY: 'hashed' as const,
    LISTENER_RETENTION_DAYS: 400,
    WEBHOOK_OFFLINE_SECONDS: 30,
  };

  it('maps the environment, with a bootstrap admin only while registration is closed', () => {
    expect(apiOptionsFromConfig(config)).toEqual({
      host: '0.0.0.0',
      port: 3000,
      sessionSecret: config.SESSION_SECRET,
      streamUrl: 'http://stream:8000',
      // The mounts are on the station's origin behind its TLS proxy.
      publicStreamUrl: 'https://radio.example',
      musicDir: '/music',
      dataDir: '/data',
      maxUploadBytes: 500 * 1024 * 1024,
      trashDays: 30,
      trustedProxies: ['web'],
      publicUrl: 'https://radio.example',
      allowedOrigins: ['https://studio.example'],
      setupCode: undefined,
      registrationOpen: true,
      bootstrapAdmin: undefined,
      audience: { privacy: 'hashed', retentionDays: 400 },
      webhooks: { offlineAfterMs: 30_000 },
      metricsLogin: { user: 'admin', password: 'admin password 1' },
    });
    expect(apiOptionsFromConfig({ ...config, REGISTRATION: 'closed' })).toMatchObject({
      registrationOpen: false,
      bootstrapAdmin: { username: 'admin', password: 'admin password 1' },
    });
    expect(apiOptionsFromConfig({ ...config, SETUP_CODE: 'a code of mine' }).setupCode).toBe(
      'a code of mine',
    );
  });

  it('refuses proxies, a public URL or origins it cannot use', () => {
    const resolve = (extra: Partial<ApiOptions>) => () =>
      resolveApiOptions({ ...options, ...extra }, false);
    expect(resolve({ trustedProxies: ['10.0.0.0/33'] })).toThrow(/trustedProxies/);
    expect(resolve({ publicUrl: 'https://radio.example/station' })).toThrow(/publicUrl/);
    expect(resolve({ publicUrl: 'radio.example' })).toThrow(/publicUrl/);
    expect(resolve({ allowedOrigins: ['studio.example'] })).toThrow(/allowedOrigins/);
    expect(resolve({ setupCode: 'short' })).toThrow(/setupCode/);
    expect(resolve({ events: { maxPerClient: 0 } })).toThrow(/maxPerClient/);
    expect(
      resolveApiOptions({ ...options, publicUrl: 'HTTPS://Radio.Example:443/' }, false).publicUrl,
    ).toBe('https://radio.example');
  });

  it('passes the station time zone and the separation minutes on to programming', () => {
    const options = apiOptionsFromConfig({
      ...config,
      STATION_TIMEZONE: 'Europe/Berlin',
      ARTIST_SEPARATION_MINUTES: 45,
      TRACK_SEPARATION_MINUTES: 240,
    });
    expect(options).toMatchObject({
      stationTimezone: 'Europe/Berlin',
      artistSeparationMinutes: 45,
      trackSeparationMinutes: 240,
    });
    expect(resolveApiOptions(options, false).programming).toEqual({
      timeZone: 'Europe/Berlin',
      artistSeparationMinutes: 45,
      trackSeparationMinutes: 240,
    });
    expect(() => resolveApiOptions({ ...options, stationTimezone: 'Mars/Olympus' }, false)).toThrow(
      'stationTimezone is not a time zone: Mars/Olympus',
    );
  });

  it('gives WEBHOOK_OFFLINE_SECONDS to the webhooks: station.offline after that long', async () => {
    const env = loadConfig(apiSpec, {
      DATABASE_URL: 'sqlite:x',
      SESSION_SECRET: config.SESSION_SECRET,
      ADMIN_PASSWORD: config.ADMIN_PASSWORD,
      WEBHOOK_OFFLINE_SECONDS: '2',
    });
    const fromEnv = apiOptionsFromConfig(env);
    expect(fromEnv.webhooks).toEqual({ offlineAfterMs: 2000 });
    expect(resolveApiOptions(fromEnv, false).webhooks.offlineAfterMs).toBe(2000);
    // Unset: the default of 30 s.
    const { WEBHOOK_OFFLINE_SECONDS: _, ...without } = config;
    expect(resolveApiOptions(apiOptionsFromConfig(without), false).webhooks.offlineAfterMs).toBe(
      30_000,
    );

    // On a running api: a mount without a source is announced after 2 s, not before, and
    // long before the default 30 s. Loopback receivers and a short poll are test-only options.
    const t = await startTestApi(
      { dialect: 'sqlite', sessions: 'db' },
      { webhooks: { ...fromEnv.webhooks, allowLoopback: true, pollMs: 50 } },
    );
    const hook = await new WebhookReceiver().start();
    try {
      const { admin } = await loginAll(t);
      await admin
        .post(`${BASE}/webhooks`)
        .send({ name: 'offline', url: hook.url, events: ['station.offline'] })
        .expect(201);
      const left = performance.now();
      await t.bus.publish('stream.source', { mount: '/radio.mp3', connected: false });
      const received = await waitFor('station.offline', () => hook.received[0], 15_000);
      const body = JSON.parse(received.body);
      expect(body).toMatchObject({ event: 'station.offline', data: { mount: '/radio.mp3' } });
      expect(body.data.offlineSeconds).toBeGreaterThanOrEqual(2);
      expect(received.at - left).toBeGreaterThanOrEqual(1900);
      expect(received.at - left).toBeLessThan(15_000);
    } finally {
      await hook.stop();
      await t.close();
    }
  });
});
