import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type Bus,
  createMemoryBus,
  createMemoryHub,
  createRedisBus,
  hashPassword,
  type Logger,
  silentLogger,
} from '@radio/core';
import type { DbHandle, NewTrack, Track, User, UserRole } from '@radio/db';
import type { Express } from 'express';
import request from 'supertest';
import { type Api, type ApiOptions, createApi } from '../../src/index.ts';
import {
  createTestDatabase,
  createTestRedis,
  REDIS_URL,
  type Setup,
  type TestDatabase,
  type TestRedis,
} from './databases.ts';
import { FakeScheduler } from './fake-scheduler.ts';

export const BASE = '/api/radio';
export const PASSWORD = 'correct horse battery';
const SCRYPT_COST = 10;

export interface TestApi {
  readonly setup: Setup;
  api: Api;
  app: Express;
  db: DbHandle;
  bus: Bus;
  scheduler: FakeScheduler | null;
  readonly database: TestDatabase;
  readonly redis: TestRedis | null;
  readonly musicDir: string;
  readonly dataDir: string;
  readonly options: ApiOptions;
  /** Closes the api and builds a new one on the same database and Redis (a restart). */
  restart(): Promise<void>;
  close(): Promise<void>;
}

export interface StartOptions {
  /** Answer scheduler commands with a FakeScheduler on the same in-process bus. Default true. */
  scheduler?: boolean;
  /** The bus between the api and the scheduler: in-process (default) or real Redis. */
  bus?: 'memory' | 'redis';
  /** Where the api and the buses log; silent by default. */
  logger?: Logger;
}

export async function startTestApi(
  setup: Setup,
  overrides: Partial<ApiOptions> = {},
  start: StartOptions = {},
): Promise<TestApi> {
  const database = await createTestDatabase(setup.dialect);
  const redis =
    setup.sessions === 'redis' || start.bus === 'redis' ? await createTestRedis() : null;
  const musicDir = await mkdtemp(join(tmpdir(), 'radio-api-music-'));
  const dataDir = await mkdtemp(join(tmpdir(), 'radio-api-data-'));
  const options: ApiOptions = {
    sessionSecret: 'test-session-secret-0123456789',
    // Port 9 (discard) refuses at once: no stream server in these tests.
    streamUrl: 'http://127.0.0.1:9',
    musicDir,
    dataDir,
    scryptCost: SCRYPT_COST,
    trackIndexRefreshMs: 0,
    commandTimeoutMs: 2000,
    health: { timeoutMs: 500, cacheMs: 0 },
    sessionStore: setup.sessions,
    redisPrefix: redis?.prefix,
    ...overrides,
  };

  const build = async () => {
    const db = await database.open();
    const logger = start.logger ?? silentLogger();
    let bus: Bus;
    let schedulerBus: Bus;
    if (start.bus === 'redis' && redis) {
      // Two connection pairs, as two processes would have.
      bus = await createRedisBus({ url: REDIS_URL, logger, prefix: redis.prefix });
      schedulerBus = await createRedisBus({ url: REDIS_URL, logger, prefix: redis.prefix });
    } else {
      const hub = createMemoryHub();
      bus = createMemoryBus({ logger, hub });
      schedulerBus = createMemoryBus({ logger, hub });
    }
    const scheduler =
      start.scheduler === false ? null : new FakeScheduler(schedulerBus, db).start();
    // The api gets the Redis client only when its sessions live there.
    const sessionRedis = setup.sessions === 'redis' ? redis?.redis : undefined;
    const api = createApi(options, { db, bus, logger, redis: sessionRedis });
    await api.start();
    return { db, bus, schedulerBus, scheduler, api };
  };

  let parts: Awaited<ReturnType<typeof build>>;
  try {
    parts = await build();
  } catch (error) {
    await redis?.cleanup();
    await database.drop();
    await rm(musicDir, { recursive: true, force: true });
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
  const stop = async () => {
    await parts.api.close();
    parts.scheduler?.stop();
    await parts.schedulerBus.close();
    await parts.bus.close();
  };

  const test: TestApi = {
    setup,
    api: parts.api,
    app: parts.api.app,
    db: parts.db,
    bus: parts.bus,
    scheduler: parts.scheduler,
    database,
    redis,
    musicDir,
    dataDir,
    options,
    async restart() {
      await stop();
      parts = await build();
      test.api = parts.api;
      test.app = parts.api.app;
      test.db = parts.db;
      test.bus = parts.bus;
      test.scheduler = parts.scheduler;
    },
    async close() {
      await stop();
      await redis?.cleanup();
      await database.drop();
      await rm(musicDir, { recursive: true, force: true });
      await rm(dataDir, { recursive: true, force: true });
    },
  };
  return test;
}

export async function createUser(
  db: DbHandle,
  username: string,
  role: UserRole = 'listener',
  password = PASSWORD,
  disabled = false,
): Promise<User> {
  return db.db
    .insertInto('users')
    .values({
      username,
      password_hash: await hashPassword(password, SCRYPT_COST),
      role,
      disabled: disabled ? 1 : 0,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** A supertest agent that keeps the session cookie of a login. */
export async function login(app: Express, username: string, password = PASSWORD) {
  const agent = request.agent(app);
  const res = await agent.post(`${BASE}/auth/login`).send({ username, password });
  if (res.status !== 200)
    throw new Error(`login of ${username} failed: ${res.status} ${JSON.stringify(res.body)}`);
  return agent;
}

export type Agent = Awaited<ReturnType<typeof login>>;

/** Users of every role, logged in. */
export async function loginAll(t: TestApi) {
  await createUser(t.db, 'admin', 'admin');
  await createUser(t.db, 'dj', 'dj');
  await createUser(t.db, 'listener', 'listener');
  return {
    admin: await login(t.app, 'admin'),
    dj: await login(t.app, 'dj'),
    listener: await login(t.app, 'listener'),
  };
}

let trackCounter = 0;

export function track(fields: Partial<NewTrack> = {}): NewTrack {
  trackCounter += 1;
  return {
    path: `music/track-${trackCounter}.mp3`,
    title: `Track ${trackCounter}`,
    artist: null,
    album: null,
    format: 'mp3',
    size: 1000,
    mtime: 1_700_000_000_000,
    duration: 180,
    // Every column spelled out: a multi-row insert on SQLite sends NULL for a column that only
    // some rows give, where PostgreSQL would use the default.
    genre: null,
    year: null,
    track_no: null,
    has_cover: 0,
    status: 'ok',
    error: null,
    ...fields,
  };
}

export async function insertTracks(db: DbHandle, rows: NewTrack[]): Promise<Track[]> {
  if (rows.length === 0) return [];
  const inserted: Track[] = [];
  for (let i = 0; i < rows.length; i += 200) {
    inserted.push(
      ...(await db.db
        .insertInto('tracks')
        .values(rows.slice(i, i + 200))
        .returningAll()
        .execute()),
    );
  }
  return inserted.sort((a, b) => a.id - b.id);
}

/** Asserts the error shape and code of a response. */
export function expectError(res: request.Response, status: number, code?: string): void {
  if (res.status !== status || !res.body?.error) {
    throw new Error(
      `expected ${status} ${code ?? ''}, got ${res.status} ${JSON.stringify(res.body)}`,
    );
  }
  const { error } = res.body as { error: Record<string, unknown> };
  if (typeof error.code !== 'string' || typeof error.message !== 'string') {
    throw new Error(`bad error shape: ${JSON.stringify(res.body)}`);
  }
  if (Object.keys(res.body).length !== 1 || Object.keys(error).sort().join() !== 'code,message') {
    throw new Error(`extra fields in the error: ${JSON.stringify(res.body)}`);
  }
  if (code !== undefined && error.code !== code) {
    throw new Error(`expected code ${code}, got ${String(error.code)}: ${String(error.message)}`);
  }
  if (JSON.stringify(res.body).includes('    at '))
    throw new Error('a stack trace reached the client');
}
