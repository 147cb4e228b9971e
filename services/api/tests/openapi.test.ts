import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { ROUTE_SETUPS } from './helpers/databases.ts';
import { expressRoutes } from './helpers/express-routes.ts';
import { BASE, startTestApi, type TestApi } from './helpers/test-api.ts';

type Operation = {
  operationId: string;
  summary: string;
  'x-access': string;
  parameters?: Array<{
    name: string;
    in: string;
    required: boolean;
    schema: Record<string, unknown>;
  }>;
  requestBody?: { content: Record<string, { schema: Record<string, unknown> }> };
  responses: Record<string, unknown>;
};
type Document = {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: Record<string, unknown>;
};

describe('GET /openapi.json', () => {
  let t: TestApi;
  let doc: Document;

  beforeAll(async () => {
    t = await startTestApi(ROUTE_SETUPS[0] as (typeof ROUTE_SETUPS)[0]);
    const res = await request(t.app).get(`${BASE}/openapi.json`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    doc = res.body as Document;
  });
  afterAll(() => t.close());

  const documented = () =>
    Object.entries(doc.paths)
      .flatMap(([path, methods]) =>
        Object.keys(methods).map(
          (method) => `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`,
        ),
      )
      .sort();

  it('is OpenAPI 3.1 without a session', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.components).toHaveProperty('schemas.Error');
    expect(doc.components).toHaveProperty('securitySchemes.session');
  });

  it('documents every route express serves, and nothing else', () => {
    const served = expressRoutes(t.app);
    expect(served.length).toBeGreaterThan(40);
    expect(documented()).toEqual(served);
  });

  it('covers the capability areas of the issue', () => {
    const all = documented();
    for (const route of [
      'GET /api/radio/status',
      'GET /api/radio/auth-status',
      'GET /api/radio/streaming-status',
      'POST /api/radio/auth/register',
      'POST /api/radio/auth/login',
      'POST /api/radio/auth/logout',
      'GET /api/radio/auth/me',
      'PATCH /api/radio/auth/me',
      'GET /api/radio/users',
      'POST /api/radio/users',
      'GET /api/radio/users/:id',
      'PATCH /api/radio/users/:id',
      'DELETE /api/radio/users/:id',
      'GET /api/radio/tracks',
      'GET /api/radio/tracks/:id',
      'GET /api/radio/tracks/:id/cover',
      'GET /api/radio/artists',
      'GET /api/radio/albums',
      'GET /api/radio/playlists',
      'POST /api/radio/playlists',
      'GET /api/radio/playlists/:id',
      'PATCH /api/radio/playlists/:id',
      'DELETE /api/radio/playlists/:id',
      'POST /api/radio/playlists/:id/tracks',
      'DELETE /api/radio/playlists/:id/tracks/:itemId',
      'PUT /api/radio/playlists/:id/tracks',
      'POST /api/radio/playlists/:id/play',
      'GET /api/radio/player',
      'POST /api/radio/player/play',
      'POST /api/radio/player/pause',
      'POST /api/radio/player/stop',
      'POST /api/radio/player/resume',
      'POST /api/radio/player/skip',
      'POST /api/radio/player/queue',
      'GET /api/radio/player/queue',
      'GET /api/radio/player/history',
      'PUT /api/radio/player/amplify',
      'POST /api/radio/admin/library/scan',
      'GET /api/radio/admin/library/scan',
      'GET /api/radio/admin/system',
      'GET /api/radio/events',
      'GET /api/radio/openapi.json',
      'GET /api/radio/schedules',
      'GET /api/radio/schedules/occurrences',
      'POST /api/radio/schedules',
      'PATCH /api/radio/schedules/:id',
      'DELETE /api/radio/schedules/:id',
      'GET /api/radio/schedule/timeline',
      'GET /api/radio/schedule/next',
      'POST /api/radio/requests',
      'GET /api/radio/requests/mine',
      'GET /api/radio/requests',
      'DELETE /api/radio/requests/:id',
      'GET /api/radio/settings/requests',
      'PUT /api/radio/settings/requests',
    ]) {
      expect(all).toContain(route);
    }
  });

  it('documents the playout fields: track analysis, analysis progress, the fallback on air', () => {
    const schema = (path: string) => JSON.stringify(doc.paths[path]?.get?.responses['200'] ?? null);
    const track = schema('/api/radio/tracks/{id}');
    for (const field of ['loudness', 'loudnessRange', 'truePeak', 'cueIn', 'cueOut', 'fadePoint']) {
      expect(track).toContain(`"${field}"`);
    }
    expect(track).toContain('"replayGain"');
    expect(schema('/api/radio/tracks')).toContain('"fadePoint"');
    const scan = schema('/api/radio/admin/library/scan');
    expect(scan).toContain('"analysis"');
    expect(scan).toContain('"pending"');
    expect(schema('/api/radio/status')).toContain('"empty-library"');
    expect(schema('/api/radio/streaming-status')).toContain('"no-playable-tracks"');
  });

  it('documents programming: playlist fields, refusals, the timeline and its events', () => {
    const response = (path: string, method: string, status = '200') =>
      JSON.stringify(doc.paths[path]?.[method]?.responses[status] ?? null);
    const playlist = response('/api/radio/playlists/{id}', 'get');
    for (const field of [
      'onAir',
      'kind',
      'order',
      'weight',
      'jingle',
      'interval',
      'playAt',
      'startMode',
    ]) {
      expect(playlist).toContain(`"${field}"`);
    }
    const create = doc.paths['/api/radio/requests']?.post as Operation;
    expect(Object.keys(create.responses)).toEqual(
      expect.arrayContaining(['201', '403', '404', '409', '429']),
    );
    expect(JSON.stringify(create)).toContain('Retry-After');
    expect(Object.keys(doc.paths['/api/radio/schedules']?.post?.responses ?? {})).toContain('409');
    expect(response('/api/radio/schedule/timeline', 'get')).toContain('"revision"');
    expect(response('/api/radio/schedule/next', 'get')).toContain('"entries"');
    const events = doc.paths['/api/radio/events']?.get as Operation & { description: string };
    expect(events.description).toMatch(/`timeline`[\s\S]*`request`/);
  });

  it('describes parameters, bodies, successes and errors from the zod schemas', () => {
    const list = doc.paths['/api/radio/tracks']?.get as Operation;
    expect(list['x-access']).toBe('session');
    const limit = list.parameters?.find((p) => p.name === 'limit');
    expect(limit).toMatchObject({ in: 'query', required: false, schema: { default: 50 } });
    expect(list.parameters?.find((p) => p.name === 'sort')?.schema).toMatchObject({
      enum: expect.arrayContaining(['artist', 'title']),
    });
    expect(list.responses).toHaveProperty('200.content.application/json.schema.properties.items');
    expect(list.responses).toHaveProperty('401');

    const byId = doc.paths['/api/radio/users/{id}']?.patch as Operation;
    expect(byId.parameters?.[0]).toMatchObject({ name: 'id', in: 'path', required: true });
    expect(byId.requestBody?.content['application/json']?.schema).toMatchObject({
      type: 'object',
      properties: { role: { enum: ['admin', 'dj', 'listener'] } },
    });
    expect(Object.keys(byId.responses)).toEqual(
      expect.arrayContaining(['200', '400', '401', '403', '404', '409']),
    );

    const login = doc.paths['/api/radio/auth/login']?.post as Operation;
    expect(Object.keys(login.responses)).toEqual(
      expect.arrayContaining(['200', '401', '415', '429']),
    );
    const events = doc.paths['/api/radio/events']?.get as Operation;
    expect(events.responses).toHaveProperty(['200', 'content', 'text/event-stream']);
    expect(events).toMatchObject({
      description: expect.stringMatching(/library\.analysis[\s\S]*playout\.dead_air/),
    });
    const ids = Object.values(doc.paths).flatMap((methods) =>
      Object.values(methods).map((op) => op.operationId),
    );
    expect(new Set(ids).size).toBe(ids.length);
  });
});
