import { ApiError } from './errors.ts';
import {
  API_BASE,
  type BodyOf,
  type Method,
  type ParamsOf,
  type QueryOf,
  type ResponseOf,
  type RouteOf,
} from './paths.ts';

type Query = Record<string, string | number | boolean | null | undefined>;

/** `?a=1&b=x` from the set values only; empty strings count as unset. */
export function queryString(query: Query | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '') continue;
    params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

function parseRetryAfter(value: string | null): number | null {
  if (!value) return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds);
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, (date - Date.now()) / 1000);
}

/** `/tracks/{id}` with `{ id: 3 }` → `/tracks/3`. */
function fillRoute(route: string, params: Record<string, string | number> | undefined): string {
  return route.replace(/\{(\w+)\}/g, (_, name: string) => String(params?.[name]));
}

/** The error a failed answer stands for: the api's own error shape when it sent one. */
function answerError(response: Response, json: unknown): ApiError {
  const retryAfter = parseRetryAfter(response.headers.get('retry-after'));
  const error = (json as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
  if (error && typeof error.code === 'string') {
    return new ApiError(
      response.status,
      error.code,
      String(error.message ?? error.code),
      retryAfter,
    );
  }
  return new ApiError(
    response.status,
    `WEB_HTTP_${response.status}`,
    response.status === 502 || response.status === 504
      ? 'the api is not reachable'
      : `the api answered ${response.status} ${response.statusText}`.trim(),
    retryAfter,
  );
}

/** The parsed JSON of an answer (undefined when it has none), or the ApiError it stands for. */
async function readAnswer(response: Response): Promise<{ json: unknown } | { error: ApiError }> {
  if (response.status === 204 || response.status === 205) return { json: undefined };
  const text = await response.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  if (!response.ok) return { error: answerError(response, json) };
  if (json === undefined && text) {
    return {
      error: new ApiError(
        response.status,
        'WEB_BAD_RESPONSE',
        'the api answered with something that is not JSON',
      ),
    };
  }
  return { json };
}

export interface HttpOptions {
  /** Prefix of every URL; empty in the browser (same origin), absolute in tests. */
  baseUrl?: string;
  fetch?: typeof fetch;
  /** Called when a request that needs a session is answered 401 (the session ended). */
  onUnauthenticated?: () => void;
}

interface CallInit<M extends Method, R extends RouteOf<M>> {
  query?: QueryOf<M, R>;
  body?: BodyOf<M, R>;
  signal?: AbortSignal | undefined;
}

/** A route with `{…}` in it needs its parameters; the others take none. */
type CallArgs<M extends Method, R extends RouteOf<M>> = [ParamsOf<M, R>] extends [never]
  ? [init?: CallInit<M, R>]
  : [init: CallInit<M, R> & { params: ParamsOf<M, R> }];

interface AnyCall {
  params?: Record<string, string | number>;
  query?: Query;
  body?: unknown;
  signal?: AbortSignal | undefined;
}

/** Requests to the api by route, typed by its OpenAPI document; every failure is an ApiError. */
export interface Http {
  call<M extends Method, R extends RouteOf<M>>(
    method: M,
    route: R,
    ...args: CallArgs<M, R>
  ): Promise<ResponseOf<M, R>>;
  /** The address of a route, for what the browser loads itself (images). */
  url<R extends RouteOf<'get'>>(route: R, params: ParamsOf<'get', R>): string;
}

export function createHttp(options: HttpOptions = {}): Http {
  const baseUrl = options.baseUrl ?? '';
  const doFetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const url = (route: string, params?: Record<string, string | number>) =>
    `${baseUrl}${API_BASE}${fillRoute(route, params)}`;

  async function send(method: Method, route: string, init: AnyCall = {}): Promise<unknown> {
    const headers: Record<string, string> = { Accept: 'application/json' };
    let body: string | Blob | undefined;
    if (init.body instanceof Blob) {
      // A file's bytes as they are (a cover picture), typed by the file.
      headers['Content-Type'] = init.body.type || 'application/octet-stream';
      body = init.body;
    } else if (init.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(init.body);
    }
    let response: Response;
    try {
      response = await doFetch(`${url(route, init.params)}${queryString(init.query)}`, {
        method: method.toUpperCase(),
        headers,
        body,
        credentials: 'same-origin',
        signal: init.signal ?? null,
      });
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError') throw error;
      throw new ApiError(0, 'WEB_NETWORK', 'the station cannot be reached');
    }
    const answer = await readAnswer(response);
    if ('json' in answer) return answer.json;
    if (answer.error.status === 401 && answer.error.code === 'API_UNAUTHENTICATED') {
      options.onUnauthenticated?.();
    }
    throw answer.error;
  }

  return {
    // An answer is taken to be what the document says the route answers, unchecked: the
    // api's handlers are typed by the same schemas the document is made from.
    call: (method, route, ...[init]) =>
      send(method, route, init as AnyCall | undefined) as Promise<never>,
    url: (route, params) => url(route, params as Record<string, string | number>),
  };
}
