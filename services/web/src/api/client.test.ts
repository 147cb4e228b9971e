import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { createApiClient } from './client.ts';
import { ApiError, describeError } from './errors.ts';
import { queryString } from './http.ts';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** A stand-in api: each test sets how it answers and reads back what it was sent. */
let answer: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.end('{}');
const seen: Seen[] = [];
let server: Server;
let baseUrl: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      body += chunk;
    });
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      answer(req, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

function json(status: number, body: unknown, headers: Record<string, string> = {}) {
  return (_req: IncomingMessage, res: ServerResponse) => {
    res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };
}

describe('createApiClient', () => {
  it('builds URLs under /api/radio with only the set query values', async () => {
    answer = json(200, { items: [], total: 0, page: 2, limit: 25 });
    const api = createApiClient({ baseUrl });
    const page = await api.tracks({
      q: 'día & noche',
      artist: '',
      page: 2,
      limit: 25,
      sort: 'title',
    });
    expect(page.page).toBe(2);
    const request = seen.at(-1) as Seen;
    expect(request.method).toBe('GET');
    const url = new URL(request.url, baseUrl);
    expect(url.pathname).toBe('/api/radio/tracks');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      q: 'día & noche',
      page: '2',
      limit: '25',
      sort: 'title',
    });
    expect(request.headers.accept).toBe('application/json');
  });

  it('sends JSON bodies with their content type', async () => {
    answer = json(201, { id: 9, name: 'Mix', items: [] });
    const api = createApiClient({ baseUrl });
    const created = await api.createPlaylist({ name: 'Mix', isPublic: true });
    expect(created.id).toBe(9);
    const request = seen.at(-1) as Seen;
    expect(request.method).toBe('POST');
    expect(request.url).toBe('/api/radio/playlists');
    expect(request.headers['content-type']).toBe('application/json');
    expect(JSON.parse(request.body)).toEqual({ name: 'Mix', isPublic: true });
  });

  it('uses the route shapes of the api for changes', async () => {
    answer = json(200, {});
    const api = createApiClient({ baseUrl });
    await api.reorderPlaylist(4, [3, 1, 2]);
    expect(seen.at(-1)).toMatchObject({ method: 'PUT', url: '/api/radio/playlists/4/tracks' });
    expect(JSON.parse((seen.at(-1) as Seen).body)).toEqual({ itemIds: [3, 1, 2] });
    await api.addToPlaylist(4, [8]);
    expect(JSON.parse((seen.at(-1) as Seen).body)).toEqual({ trackId: 8 });
    await api.addToPlaylist(4, [8, 9], 0);
    expect(JSON.parse((seen.at(-1) as Seen).body)).toEqual({ trackIds: [8, 9], position: 0 });
    await api.playPlaylist(4, 'append');
    expect(seen.at(-1)).toMatchObject({ method: 'POST', url: '/api/radio/playlists/4/play' });
    await api.setAmplify(1.5);
    expect(seen.at(-1)).toMatchObject({ method: 'PUT', url: '/api/radio/player/amplify' });
    expect(JSON.parse((seen.at(-1) as Seen).body)).toEqual({ value: 1.5 });
    await api.enqueue({ trackId: 3 });
    expect(seen.at(-1)).toMatchObject({ method: 'POST', url: '/api/radio/player/queue' });
    await api.startScan();
    expect(seen.at(-1)).toMatchObject({ method: 'POST', url: '/api/radio/admin/library/scan' });
  });

  it('answers undefined for 204', async () => {
    answer = (_req, res) => {
      res.writeHead(204);
      res.end();
    };
    const api = createApiClient({ baseUrl });
    await expect(api.logout()).resolves.toBeUndefined();
    await expect(api.deletePlaylist(3)).resolves.toBeUndefined();
    expect(seen.at(-1)).toMatchObject({ method: 'DELETE', url: '/api/radio/playlists/3' });
  });

  it("turns the api's error shape into an ApiError with status, code and Retry-After", async () => {
    answer = json(
      429,
      { error: { code: 'API_RATE_LIMITED', message: 'too many attempts' } },
      { 'Retry-After': '120' },
    );
    const api = createApiClient({ baseUrl });
    const error = (await api.login('a', 'b').catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(429);
    expect(error.code).toBe('API_RATE_LIMITED');
    expect(error.retryAfter).toBe(120);
    expect(describeError(error)).toBe('Too many attempts. Try again in 2 min.');
  });

  it('sends the setup code with the first admin, and names each refusal of it', async () => {
    const api = createApiClient({ baseUrl });
    const refusal = async (status: number, code: string, headers: Record<string, string> = {}) => {
      answer = json(status, { error: { code, message: code.toLowerCase() } }, headers);
      return describeError(await api.setUp('K7QM-2XPA', 'boss', 'long enough').catch((e) => e));
    };
    expect(await refusal(403, 'API_SETUP_CODE_INVALID')).toBe(
      'That setup code is not right. Copy it again from the station’s console or log.',
    );
    expect(seen.at(-1)).toMatchObject({ method: 'POST', url: '/api/radio/auth/setup' });
    expect(JSON.parse(seen.at(-1)?.body ?? '')).toEqual({
      code: 'K7QM-2XPA',
      username: 'boss',
      password: 'long enough',
    });
    expect(await refusal(409, 'API_SETUP_DONE')).toBe(
      'This station already has an admin. Sign in with that account.',
    );
    expect(await refusal(429, 'API_RATE_LIMITED', { 'Retry-After': '30' })).toBe(
      'Too many attempts. Try again in 30 s.',
    );
  });

  it('tells the session when a request finds it ended', async () => {
    answer = json(401, { error: { code: 'API_UNAUTHENTICATED', message: 'log in first' } });
    const onUnauthenticated = jest.fn();
    const api = createApiClient({ baseUrl, onUnauthenticated });
    await expect(api.tracks()).rejects.toMatchObject({ status: 401, code: 'API_UNAUTHENTICATED' });
    expect(onUnauthenticated).toHaveBeenCalledTimes(1);
    // A wrong password is a 401 too, but not an ended session.
    answer = json(401, {
      error: { code: 'API_INVALID_CREDENTIALS', message: 'wrong user name or password' },
    });
    await expect(api.login('x', 'y')).rejects.toMatchObject({ code: 'API_INVALID_CREDENTIALS' });
    expect(onUnauthenticated).toHaveBeenCalledTimes(1);
  });

  it('names a non-JSON failure and an unreachable api', async () => {
    answer = (_req, res) => {
      res.writeHead(502, { 'Content-Type': 'text/html' });
      res.end('<h1>Bad gateway</h1>');
    };
    const api = createApiClient({ baseUrl });
    await expect(api.status()).rejects.toMatchObject({ status: 502, code: 'WEB_HTTP_502' });

    const nowhere = createApiClient({ baseUrl: 'http://127.0.0.1:1' });
    const error = (await nowhere.status().catch((e: unknown) => e)) as ApiError;
    expect(error.code).toBe('WEB_NETWORK');
    expect(describeError(error)).toMatch(/Cannot reach the station/);
  });

  it('passes an abort through as an AbortError, not an ApiError', async () => {
    answer = (_req, res) => setTimeout(() => res.end('{}'), 200);
    const api = createApiClient({ baseUrl });
    const controller = new AbortController();
    const pending = api.player(controller.signal);
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });
});

describe('describeError', () => {
  it('has clear words for the sign-in failures', () => {
    expect(describeError(new ApiError(401, 'API_INVALID_CREDENTIALS', 'x'))).toBe(
      'Wrong user name or password.',
    );
    expect(describeError(new ApiError(409, 'API_USERNAME_TAKEN', 'x'))).toMatch(/taken/);
    expect(describeError(new ApiError(429, 'API_RATE_LIMITED', 'x', 30))).toBe(
      'Too many attempts. Try again in 30 s.',
    );
    expect(describeError(new ApiError(403, 'API_ACCOUNT_DISABLED', 'x'))).toMatch(/disabled/);
  });
  it("falls back to the api's message as a sentence", () => {
    expect(describeError(new ApiError(400, 'API_VALIDATION', 'body.name: must not be empty'))).toBe(
      'Name: must not be empty.',
    );
    expect(describeError(new ApiError(404, 'API_TRACK_NOT_FOUND', 'no such track'))).toBe(
      'No such track.',
    );
  });
});

describe('queryString', () => {
  it('skips unset values and encodes the rest', () => {
    expect(queryString(undefined)).toBe('');
    expect(queryString({ a: undefined, b: null, c: '' })).toBe('');
    expect(queryString({ q: 'a b', n: 0, f: false })).toBe('?q=a+b&n=0&f=false');
  });
});
