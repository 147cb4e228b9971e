import type {
  Album,
  ApiStatus,
  Artist,
  AuthStatus,
  HistoryEntry,
  Page,
  Player,
  PlayerStatus,
  Playlist,
  PlaylistDetail,
  QueueItem,
  Role,
  ScanStatus,
  StreamingStatus,
  SystemInfo,
  Track,
  TrackQuery,
  User,
} from './types.ts';

export const API_BASE = '/api/radio';

/**
 * A failed request: the api's `{"error":{"code","message"}}` with its status, or one of our
 * own codes when the api could not be reached (`WEB_NETWORK`) or answered something else.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: number;
  readonly code: string;
  /** Seconds from `Retry-After`, when the answer had one (429, 503). */
  readonly retryAfter: number | null;

  constructor(status: number, code: string, message: string, retryAfter: number | null = null) {
    super(message);
    this.status = status;
    this.code = code;
    this.retryAfter = retryAfter;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/** Words a person can act on, for any error a request may end with. */
export function describeError(error: unknown): string {
  if (!(error instanceof ApiError)) {
    if (error instanceof DOMException && error.name === 'AbortError') return 'Cancelled.';
    return error instanceof Error ? error.message : 'Something went wrong.';
  }
  const wait = error.retryAfter !== null ? ` Try again in ${formatWait(error.retryAfter)}.` : '';
  switch (error.code) {
    case 'WEB_NETWORK':
      return 'Cannot reach the station. Check your connection and try again.';
    case 'API_INVALID_CREDENTIALS':
      return 'Wrong user name or password.';
    case 'API_WRONG_PASSWORD':
      return 'The current password is wrong.';
    case 'API_USERNAME_TAKEN':
      return 'That user name is taken. Pick another one.';
    case 'API_RATE_LIMITED':
      return `Too many attempts.${wait || ' Wait a few minutes and try again.'}`;
    case 'API_ACCOUNT_DISABLED':
      return 'This account is disabled. Ask an admin to enable it.';
    case 'API_REGISTRATION_CLOSED':
      return 'Registration is closed on this station. Ask an admin for an account.';
    case 'API_UNAUTHENTICATED':
      return 'Your session has ended. Sign in again.';
    case 'API_FORBIDDEN':
      return 'Your role does not allow this.';
    case 'API_LAST_ADMIN':
      return 'The station needs at least one active admin.';
    case 'API_SCHEDULER_UNAVAILABLE':
    case 'API_BUS_UNAVAILABLE':
      return `The player is not answering right now.${wait || ' Try again in a moment.'}`;
    case 'API_VALIDATION':
      // `body.name: must not be empty` names the field as the form shows it.
      return sentence(error.message.replace(/\b(body|query|params)\./g, ''));
    default:
      return sentence(error.message);
  }
}

function formatWait(seconds: number): string {
  if (seconds < 90) return `${Math.max(1, Math.round(seconds))} s`;
  return `${Math.round(seconds / 60)} min`;
}

function sentence(text: string): string {
  const trimmed = text.trim();
  if (!trimmed) return 'Something went wrong.';
  const capital = trimmed[0]?.toUpperCase() + trimmed.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}

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

export interface RequestOptions {
  query?: Query;
  body?: unknown;
  signal?: AbortSignal | undefined;
}

export interface ApiClientOptions {
  /** Prefix of every URL; empty in the browser (same origin), absolute in tests. */
  baseUrl?: string;
  fetch?: typeof fetch;
  /** Called when a request that needs a session is answered 401 (the session ended). */
  onUnauthenticated?: () => void;
}

export type PlaylistScope = 'all' | 'mine' | 'public';

/**
 * The one place the app talks to the api: every call is a typed method, and every failure is
 * an ApiError.
 */
export function createApiClient(options: ApiClientOptions = {}) {
  const baseUrl = options.baseUrl ?? '';
  const doFetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));

  async function request<T>(method: string, path: string, init: RequestOptions = {}): Promise<T> {
    const headers: Record<string, string> = { Accept: 'application/json' };
    let body: string | undefined;
    if (init.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(init.body);
    }
    let response: Response;
    try {
      response = await doFetch(`${baseUrl}${API_BASE}${path}${queryString(init.query)}`, {
        method,
        headers,
        body,
        credentials: 'same-origin',
        signal: init.signal ?? null,
      });
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError') throw error;
      throw new ApiError(0, 'WEB_NETWORK', 'the station cannot be reached');
    }
    if (response.status === 204 || response.status === 205) return undefined as T;
    const text = await response.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    if (response.ok) {
      if (json === undefined && text) {
        throw new ApiError(
          response.status,
          'WEB_BAD_RESPONSE',
          'the api answered with something that is not JSON',
        );
      }
      return json as T;
    }
    const retryAfter = parseRetryAfter(response.headers.get('retry-after'));
    const error = (json as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
    const apiError =
      error && typeof error.code === 'string'
        ? new ApiError(response.status, error.code, String(error.message ?? error.code), retryAfter)
        : new ApiError(
            response.status,
            `WEB_HTTP_${response.status}`,
            response.status === 502 || response.status === 504
              ? 'the api is not reachable'
              : `the api answered ${response.status} ${response.statusText}`.trim(),
            retryAfter,
          );
    if (apiError.status === 401 && apiError.code === 'API_UNAUTHENTICATED')
      options.onUnauthenticated?.();
    throw apiError;
  }

  const get = <T>(path: string, query?: Query, signal?: AbortSignal) =>
    request<T>('GET', path, { query, signal });
  const send = <T>(method: string, path: string, body?: unknown) =>
    request<T>(method, path, { body });

  return {
    request,

    // status
    status: (signal?: AbortSignal) => get<ApiStatus>('/status', undefined, signal),
    authStatus: (signal?: AbortSignal) => get<AuthStatus>('/auth-status', undefined, signal),
    streamingStatus: (signal?: AbortSignal) =>
      get<StreamingStatus>('/streaming-status', undefined, signal),

    // auth
    register: (username: string, password: string) =>
      send<{ user: User }>('POST', '/auth/register', { username, password }),
    login: (username: string, password: string) =>
      send<{ user: User }>('POST', '/auth/login', { username, password }),
    logout: () => send<void>('POST', '/auth/logout'),
    me: () => get<{ user: User }>('/auth/me'),
    updateMe: (changes: { username?: string; password?: string; currentPassword?: string }) =>
      send<{ user: User }>('PATCH', '/auth/me', changes),

    // users (admin)
    users: (
      query: { q?: string; role?: Role; page?: number; limit?: number } = {},
      signal?: AbortSignal,
    ) => get<Page<User>>('/users', query, signal),
    createUser: (user: { username: string; password: string; role: Role; disabled?: boolean }) =>
      send<User>('POST', '/users', user),
    updateUser: (
      id: number,
      changes: { username?: string; role?: Role; disabled?: boolean; password?: string },
    ) => send<User>('PATCH', `/users/${id}`, changes),
    deleteUser: (id: number) => send<void>('DELETE', `/users/${id}`),

    // library
    tracks: (query: TrackQuery = {}, signal?: AbortSignal) =>
      get<Page<Track>>('/tracks', { ...query }, signal),
    track: (id: number, signal?: AbortSignal) => get<Track>(`/tracks/${id}`, undefined, signal),
    coverUrl: (id: number) => `${baseUrl}${API_BASE}/tracks/${id}/cover`,
    artists: (query: { q?: string; page?: number; limit?: number } = {}, signal?: AbortSignal) =>
      get<Page<Artist>>('/artists', query, signal),
    albums: (
      query: { q?: string; artist?: string; page?: number; limit?: number } = {},
      signal?: AbortSignal,
    ) => get<Page<Album>>('/albums', query, signal),

    // playlists
    playlists: (
      query: { scope?: PlaylistScope; q?: string; page?: number; limit?: number } = {},
      signal?: AbortSignal,
    ) => get<Page<Playlist>>('/playlists', query, signal),
    playlist: (id: number, signal?: AbortSignal) =>
      get<PlaylistDetail>(`/playlists/${id}`, undefined, signal),
    createPlaylist: (playlist: { name: string; description?: string | null; isPublic?: boolean }) =>
      send<PlaylistDetail>('POST', '/playlists', playlist),
    updatePlaylist: (
      id: number,
      changes: { name?: string; description?: string | null; isPublic?: boolean },
    ) => send<PlaylistDetail>('PATCH', `/playlists/${id}`, changes),
    deletePlaylist: (id: number) => send<void>('DELETE', `/playlists/${id}`),
    addToPlaylist: (id: number, trackIds: number[], position?: number) =>
      send<PlaylistDetail>('POST', `/playlists/${id}/tracks`, {
        ...(trackIds.length === 1 ? { trackId: trackIds[0] } : { trackIds }),
        ...(position === undefined ? {} : { position }),
      }),
    removeFromPlaylist: (id: number, itemId: number) =>
      send<void>('DELETE', `/playlists/${id}/tracks/${itemId}`),
    reorderPlaylist: (id: number, itemIds: number[]) =>
      send<PlaylistDetail>('PUT', `/playlists/${id}/tracks`, { itemIds }),
    playPlaylist: (id: number, mode: 'replace' | 'append' = 'replace') =>
      send<{ queued: number }>('POST', `/playlists/${id}/play`, { mode }),

    // player
    player: (signal?: AbortSignal) => get<Player>('/player', undefined, signal),
    play: (target: { trackId?: number; playlistId?: number } = {}) =>
      send<PlayerStatus>('POST', '/player/play', target),
    pause: () => send<PlayerStatus>('POST', '/player/pause'),
    stop: () => send<PlayerStatus>('POST', '/player/stop'),
    resume: () => send<PlayerStatus>('POST', '/player/resume'),
    skip: () => send<PlayerStatus>('POST', '/player/skip'),
    enqueue: (target: { trackId: number } | { uri: string }) =>
      send<{ requestId: string; item: QueueItem }>('POST', '/player/queue', target),
    queue: (signal?: AbortSignal) =>
      get<{ items: QueueItem[] }>('/player/queue', undefined, signal),
    history: (query: { page?: number; limit?: number } = {}, signal?: AbortSignal) =>
      get<Page<HistoryEntry>>('/player/history', query, signal),
    setAmplify: (value: number) => send<{ amplify: number }>('PUT', '/player/amplify', { value }),

    // admin
    startScan: () => send<{ scanId: string }>('POST', '/admin/library/scan'),
    scanStatus: (signal?: AbortSignal) => get<ScanStatus>('/admin/library/scan', undefined, signal),
    system: (signal?: AbortSignal) => get<SystemInfo>('/admin/system', undefined, signal),
  };
}

export type ApiClient = ReturnType<typeof createApiClient>;

const unauthenticatedListeners = new Set<() => void>();

/** Runs `listener` whenever a request finds that the session has ended. */
export function onUnauthenticated(listener: () => void): () => void {
  unauthenticatedListeners.add(listener);
  return () => unauthenticatedListeners.delete(listener);
}

/** The app's client: same origin, cookies sent by the browser. */
export const api: ApiClient = createApiClient({
  onUnauthenticated: () => {
    for (const listener of unauthenticatedListeners) listener();
  },
});
