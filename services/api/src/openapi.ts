import { z } from 'zod';
import { errorResponse } from './dtos/common.dto.ts';
import type { Method, RegisteredRoute, RouteDoc } from './routing.ts';

/*
 * The OpenAPI 3.1 document, built from the same route table and zod schemas that serve and
 * validate the requests. OpenAPI 3.1 schemas are JSON Schema 2020-12, which is what
 * z.toJSONSchema produces, so no conversion is needed.
 */

type JsonSchema = Record<string, unknown>;

export interface OpenApiOptions {
  version: string;
  /** Where the routes are mounted: `/api/radio`. */
  basePath: string;
  cookieName: string;
}

/** Query integers travel as text but are documented as the integers they stand for. */
function integerQueries(node: unknown): void {
  if (typeof node !== 'object' || node === null) return;
  for (const value of Object.values(node)) integerQueries(value);
  const schema = node as JsonSchema;
  const integer = schema.integerQuery as JsonSchema | undefined;
  if (integer === undefined) return;
  delete schema.integerQuery;
  delete schema.pattern;
  Object.assign(schema, { type: 'integer', ...integer });
}

function schemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const json = z.toJSONSchema(schema, {
    io,
    unrepresentable: 'any',
    target: 'draft-2020-12',
  }) as JsonSchema;
  delete json.$schema;
  integerQueries(json);
  return json;
}

/** `/tracks/:id` → `/tracks/{id}`. */
/** Prometheus's scrape endpoint: outside the API's base path, not JSON, behind the admin login. */
const METRICS_TAG = 'Monitoring';
const METRICS_OPERATION = {
  tags: [METRICS_TAG],
  summary: "The api's Prometheus metrics (text format)",
  description:
    'Request latency per route pattern, listener sessions stored, bus round trip and Node ' +
    'process metrics (README "Monitoring"). Served beside /api/radio, not under it.',
  responses: {
    '200': {
      description: 'Prometheus text exposition format 0.0.4',
      content: { 'text/plain': { schema: { type: 'string' } } },
    },
    '401': { description: 'Missing or wrong admin login' },
  },
  security: [{ adminLogin: [] }],
};

export function toOpenApiPath(basePath: string, path: string): string {
  return basePath + path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

function parametersOf(schema: z.ZodType, where: 'path' | 'query'): JsonSchema[] {
  const json = schemaOf(schema, 'input');
  const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json.required ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => {
    const { description, ...rest } = property;
    return {
      name,
      in: where,
      required: where === 'path' || required.has(name),
      ...(typeof description === 'string' && { description }),
      schema: rest,
    };
  });
}

const ERROR_TEXT: Record<number, string> = {
  400: 'Invalid input (API_VALIDATION, API_INVALID_JSON)',
  401: 'Not logged in (API_UNAUTHENTICATED) or wrong credentials',
  403: 'Not allowed: role, origin, or account state',
  404: 'Not found',
  409: 'Conflicts with the current state',
  410: 'Gone',
  412: 'Precondition failed',
  413: 'Body too large (API_PAYLOAD_TOO_LARGE)',
  415: 'Body is not JSON (API_UNSUPPORTED_MEDIA_TYPE)',
  422: 'The content cannot be used',
  429: 'Rate-limited (API_RATE_LIMITED); see Retry-After',
  500: 'Internal error (API_INTERNAL)',
  502: 'The scheduler failed (API_SCHEDULER_ERROR)',
  503: 'A service did not answer (API_SCHEDULER_UNAVAILABLE, API_BUS_UNAVAILABLE)',
  507: 'No space left on the music volume',
};

function errorStatuses(method: Method, doc: RouteDoc): number[] {
  const statuses = new Set(doc.errors ?? []);
  if (doc.access !== 'public') statuses.add(401);
  if (doc.access === 'dj' || doc.access === 'admin') statuses.add(403);
  if (doc.params || doc.query || doc.body) statuses.add(400);
  if (method !== 'get' && method !== 'head' && method !== 'options') {
    statuses.add(403); // another origin
    statuses.add(413);
    statuses.add(415);
  }
  statuses.add(500);
  return [...statuses].sort((a, b) => a - b);
}

function headerParameters(doc: RouteDoc): JsonSchema[] {
  return (doc.headers ?? [])
    .filter((header) => header.in === 'request')
    .map((header) => ({
      name: header.name,
      in: 'header',
      required: header.required ?? false,
      description: header.description,
      schema: { type: 'string' },
    }));
}

function responseHeaders(doc: RouteDoc): JsonSchema | undefined {
  const headers = (doc.headers ?? []).filter((header) => header.in === 'response');
  if (headers.length === 0) return undefined;
  return Object.fromEntries(
    headers.map((header) => [
      header.name,
      { description: header.description, schema: { type: 'string' } },
    ]),
  );
}

function operationId(method: Method, path: string): string {
  const words = path
    .split('/')
    .filter(Boolean)
    .map((part) => (part.startsWith(':') ? `by-${part.slice(1)}` : part))
    .flatMap((part) => part.split(/[^A-Za-z0-9]+/))
    .filter(Boolean);
  return [method, ...words]
    .map((w, i) => (i === 0 ? w : w[0]?.toUpperCase() + w.slice(1)))
    .join('');
}

export function buildOpenApi(
  routes: readonly RegisteredRoute[],
  options: OpenApiOptions,
): JsonSchema {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const { method, path, doc } of routes) {
    const parameters = [
      ...(doc.params ? parametersOf(doc.params, 'path') : []),
      ...(doc.query ? parametersOf(doc.query, 'query') : []),
      ...headerParameters(doc),
    ];
    const status = doc.status ?? 200;
    const success: Record<string, unknown> = {
      description: doc.produces?.description ?? 'Success',
    };
    if (doc.response)
      success.content = { 'application/json': { schema: schemaOf(doc.response, 'output') } };
    else if (doc.produces) success.content = { [doc.produces.contentType]: { schema: {} } };
    const answerHeaders = responseHeaders(doc);
    if (answerHeaders) success.headers = answerHeaders;
    const responses: Record<string, unknown> = { [String(status)]: success };
    if (path.endsWith('/cover')) responses['304'] = { description: 'Not modified (If-None-Match)' };
    for (const code of errorStatuses(method, doc)) {
      responses[String(code)] = {
        description: ERROR_TEXT[code] ?? 'Error',
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
      };
    }
    const operation: Record<string, unknown> = {
      operationId: operationId(method, path),
      tags: [doc.tag],
      summary: doc.summary,
      ...(doc.description && { description: doc.description }),
      'x-access': doc.access,
      ...(parameters.length > 0 && { parameters }),
      ...(doc.body && {
        requestBody: {
          required: false,
          content: { 'application/json': { schema: schemaOf(doc.body, 'input') } },
        },
      }),
      ...(doc.consumes && {
        requestBody: {
          required: true,
          description: doc.consumes.description,
          content: { [doc.consumes.contentType]: { schema: { type: 'string', format: 'binary' } } },
        },
      }),
      responses,
      security: doc.access === 'public' ? [] : [{ session: [] }],
    };
    const key = toOpenApiPath(options.basePath, path);
    paths[key] ??= {};
    (paths[key] as Record<string, unknown>)[method] = operation;
  }

  paths['/metrics'] = { get: METRICS_OPERATION };
  const tags = [...new Set(routes.map((route) => route.doc.tag))].map((name) => ({ name }));
  tags.push({ name: METRICS_TAG });
  return {
    openapi: '3.1.0',
    info: {
      title: 'Radio API',
      version: options.version,
      description:
        'The JSON REST API of the radio station. Errors are `{"error":{"code","message"}}`. ' +
        'State-changing requests from another origin are refused; bodies are JSON only.',
    },
    servers: [{ url: '/' }],
    tags,
    paths,
    components: {
      schemas: { Error: schemaOf(errorResponse, 'output') },
      securitySchemes: {
        session: {
          type: 'apiKey',
          in: 'cookie',
          name: options.cookieName,
          description: 'Set by POST /auth/login',
        },
        adminLogin: {
          type: 'http',
          scheme: 'basic',
          description: "ADMIN_USER and ADMIN_PASSWORD, as the stream server's /admin/",
        },
      },
    },
  };
}
