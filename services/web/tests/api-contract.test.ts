import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createMemoryBus, silentLogger } from '@radio/core';
import { createWebServer, type WebServer } from '../server/index.ts';
import { type ApiClient, createApiClient } from '../src/api/client.ts';

/*
 * The web app's client against the api's own OpenAPI document, fetched through the web
 * server's proxy: every call the app makes must be a documented route.
 */

// biome-ignore lint/suspicious/noExplicitAny: the api's factories are typed in their own package
type AnyFunction = (...args: any[]) => any;

let dir: string;
let web: WebServer;
interface Operation {
  parameters?: { name: string; in: string }[];
  requestBody?: { content: Record<string, { schema: Schema }> };
}
interface Schema {
  properties?: Record<string, unknown>;
  anyOf?: Schema[];
  oneOf?: Schema[];
}
let document: { paths: Record<string, Record<string, Operation>> };
const stops: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'radio-web-contract-'));
  await writeFile(join(dir, 'index.html'), '<!doctype html><div id="root"></div>');
  // Loaded by name: the api's sources are type-checked by its own package.
  const load = (name: string): Promise<unknown> => import(name);
  const { createDb, migrateToLatest } = (await load('@radio/db')) as {
    createDb: (url: string) => Promise<{ db: unknown; close(): Promise<void> }>;
    migrateToLatest: AnyFunction;
  };
  const { createApi } = (await load('@radio/api')) as { createApi: AnyFunction };
  const db = await createDb(`sqlite:${join(dir, 'radio.db')}`);
  stops.push(() => db.close());
  await migrateToLatest(db.db);
  const bus = createMemoryBus({ logger: silentLogger() });
  stops.push(() => bus.close());
  const api = createApi(
    {
      sessionSecret: randomBytes(24).toString('hex'),
      streamUrl: 'http://127.0.0.1:9',
      musicDir: dir,
      dataDir: dir,
    },
    { db, bus, logger: silentLogger() },
  );
  stops.push(() => api.close());
  await api.start();
  web = createWebServer(
    { apiUrl: api.url, port: 0, host: '127.0.0.1', distDir: dir },
    { logger: silentLogger() },
  );
  stops.push(() => web.close());
  await web.start();

  const response = await fetch(`${web.url}/api/radio/openapi.json`);
  expect(response.status).toBe(200);
  document = (await response.json()) as typeof document;
}, 60_000);

afterAll(async () => {
  for (const stop of stops.reverse()) await stop().catch(() => {});
  await rm(dir, { recursive: true, force: true });
});

/** Every call of the client, with sample arguments. */
function everyCall(api: ApiClient): (() => Promise<unknown>)[] {
  return [
    () => api.status(),
    () => api.authStatus(),
    () => api.streamingStatus(),
    () => api.register('someone', 'a password'),
    () => api.login('someone', 'a password'),
    () => api.logout(),
    () => api.setUp('a setup code', 'someone', 'a password'),
    () => api.me(),
    () => api.updateMe({ username: 'other' }),
    () => api.users({ q: 'a' }),
    () => api.createUser({ username: 'dj1', password: 'a password', role: 'dj' }),
    () => api.updateUser(1, { role: 'dj' }),
    () => api.deleteUser(1),
    () => api.tracks({ q: 'a', sort: 'title' }),
    () => api.track(1),
    () => fetchPath(api.coverUrl(1)),
    () => api.artists(),
    () => api.albums({ artist: 'x' }),
    () => api.playlists({ scope: 'mine' }),
    () => api.playlist(1),
    () => api.createPlaylist({ name: 'x' }),
    () => api.updatePlaylist(1, { name: 'y' }),
    () => api.deletePlaylist(1),
    () => api.addToPlaylist(1, [2]),
    () => api.removeFromPlaylist(1, 2),
    () => api.reorderPlaylist(1, [2, 3]),
    () => api.playPlaylist(1, 'append'),
    () => api.player(),
    () => api.play(),
    () => api.pause(),
    () => api.stop(),
    () => api.resume(),
    () => api.skip(),
    () => api.enqueue({ trackId: 1 }),
    () => api.queue(),
    () => api.history(),
    () => api.setAmplify(1),
    () => api.startScan(),
    () => api.scanStatus(),
    () => api.system(),
    () => api.listenersReport({ from: '2026-01-01T00:00:00Z', mount: '/radio.mp3', client: 'app' }),
    () => api.tracksReport({ from: '2026-01-01T00:00:00Z', to: '2026-01-02T00:00:00Z' }),
    () => fetchPath(api.playsCsvUrl({ to: '2026-01-02T00:00:00Z' })),
  ];
}

let fetchPath: (url: string) => Promise<unknown> = async () => undefined;

interface Sent {
  method: string;
  path: string;
  query: string[];
  body: string[];
}

/** Every call of the client as it reached fetch: method, path, query names, body fields. */
async function sendEveryCall(): Promise<Sent[]> {
  const calls: Sent[] = [];
  const recording: typeof fetch = async (input, init) => {
    const url = new URL(String(input), 'http://web.invalid');
    calls.push({
      method: (init?.method ?? 'GET').toLowerCase(),
      path: url.pathname,
      query: [...url.searchParams.keys()],
      body: typeof init?.body === 'string' ? Object.keys(JSON.parse(init.body)) : [],
    });
    return new Response('{}', { status: 200, headers: { 'Content-Type': 'application/json' } });
  };
  fetchPath = async (path) => recording(path, { method: 'GET' });
  const api = createApiClient({ fetch: recording });
  for (const call of everyCall(api)) await call();
  return calls;
}

/** The documented operation a call was made to. */
function operationOf(call: { method: string; path: string }): Operation | undefined {
  for (const [template, operations] of Object.entries(document.paths)) {
    const pattern = new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`);
    if (pattern.test(call.path) && operations[call.method]) return operations[call.method];
  }
  return undefined;
}

/** The top-level fields a body schema names, through its alternatives. */
function fieldsOf(schema: Schema | undefined): string[] {
  if (!schema) return [];
  return [
    ...Object.keys(schema.properties ?? {}),
    ...[...(schema.anyOf ?? []), ...(schema.oneOf ?? [])].flatMap(fieldsOf),
  ];
}

describe('the client and the api contract', () => {
  it('calls only routes the OpenAPI document has', async () => {
    const calls = await sendEveryCall();
    const missing = calls.filter((call) => operationOf(call) === undefined);
    expect(missing).toEqual([]);
    expect(calls.length).toBe(everyCall(createApiClient()).length);
  });

  it('sends only the query parameters and body fields the document names', async () => {
    const unknown = (await sendEveryCall()).flatMap((call) => {
      const operation = operationOf(call);
      const queries = new Set(
        (operation?.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name),
      );
      const fields = new Set(fieldsOf(operation?.requestBody?.content['application/json']?.schema));
      return [
        ...call.query.filter((name) => !queries.has(name)).map((name) => `query ${name}`),
        ...call.body.filter((name) => !fields.has(name)).map((name) => `body ${name}`),
      ].map((what) => `${call.method} ${call.path}: ${what}`);
    });
    expect(unknown).toEqual([]);
  });

  it('has the live event stream the app follows', () => {
    expect(document.paths['/api/radio/events']?.get).toBeDefined();
  });
});
