import { createHttp, type Http, type HttpOptions, queryString } from './http.ts';
import type { BodyOf, QueryOf } from './paths.ts';
import type { LiveKickTarget, PlayMode, TagEdit, TrackQuery } from './types.ts';

/*
 * The one place the app talks to the api: every call is a method named for what it does, on
 * the api's route of that name (see paths.ts), and every failure is an ApiError.
 */

type Signal = AbortSignal | undefined;

function statusCalls(http: Http) {
  return {
    status: (signal?: Signal) => http.call('get', '/status', { signal }),
    authStatus: (signal?: Signal) => http.call('get', '/auth-status', { signal }),
    streamingStatus: (signal?: Signal) => http.call('get', '/streaming-status', { signal }),
  };
}

function authCalls(http: Http) {
  return {
    register: (username: string, password: string) =>
      http.call('post', '/auth/register', { body: { username, password } }),
    login: (username: string, password: string) =>
      http.call('post', '/auth/login', { body: { username, password } }),
    logout: () => http.call('post', '/auth/logout'),
    /** The first admin, with the setup code the station printed at start. */
    setUp: (code: string, username: string, password: string) =>
      http.call('post', '/auth/setup', { body: { code, username, password } }),
    me: () => http.call('get', '/auth/me'),
    updateMe: (changes: BodyOf<'patch', '/auth/me'>) =>
      http.call('patch', '/auth/me', { body: changes }),
  };
}

function userCalls(http: Http) {
  return {
    users: (query: QueryOf<'get', '/users'> = {}, signal?: Signal) =>
      http.call('get', '/users', { query, signal }),
    createUser: (user: BodyOf<'post', '/users'>) => http.call('post', '/users', { body: user }),
    updateUser: (id: number, changes: BodyOf<'patch', '/users/{id}'>) =>
      http.call('patch', '/users/{id}', { params: { id }, body: changes }),
    deleteUser: (id: number) => http.call('delete', '/users/{id}', { params: { id } }),
  };
}

function libraryCalls(http: Http) {
  return {
    tracks: (query: TrackQuery = {}, signal?: Signal) =>
      http.call('get', '/tracks', { query: { ...query }, signal }),
    track: (id: number, signal?: Signal) =>
      http.call('get', '/tracks/{id}', { params: { id }, signal }),
    coverUrl: (id: number) => http.url('/tracks/{id}/cover', { id }),
    artists: (query: QueryOf<'get', '/artists'> = {}, signal?: Signal) =>
      http.call('get', '/artists', { query, signal }),
    albums: (query: QueryOf<'get', '/albums'> = {}, signal?: Signal) =>
      http.call('get', '/albums', { query, signal }),
  };
}

/** Changing the library's files: tags, covers, folders, moves, the trash (DJs and admins). */
function libraryEditCalls(http: Http) {
  return {
    editTags: (id: number, tags: TagEdit) =>
      http.call('patch', '/tracks/{id}/tags', { params: { id }, body: tags }),
    editTagsMany: (ids: number[], tags: TagEdit) =>
      http.call('patch', '/tracks/tags', { body: { ids, tags } }),
    // The picture's own bytes, not JSON: http sends a Blob as it is, typed by the file.
    setCover: (id: number, image: Blob) =>
      http.call('put', '/tracks/{id}/cover', {
        params: { id },
        body: image as unknown as BodyOf<'put', '/tracks/{id}/cover'>,
      }),
    removeCover: (id: number) => http.call('delete', '/tracks/{id}/cover', { params: { id } }),
    folders: (signal?: Signal) => http.call('get', '/library/folders', { signal }),
    createFolder: (path: string) => http.call('post', '/library/folders', { body: { path } }),
    moveTracks: (ids: number[], folder: string) =>
      http.call('post', '/tracks/move', { body: { ids, folder } }),
    deleteTrack: (id: number) => http.call('delete', '/tracks/{id}', { params: { id } }),
    trash: (query: QueryOf<'get', '/trash'> = {}, signal?: Signal) =>
      http.call('get', '/trash', { query, signal }),
    restoreTrash: (id: number) => http.call('post', '/trash/{id}/restore', { params: { id } }),
    purgeTrash: (id: number) => http.call('delete', '/trash/{id}', { params: { id } }),
  };
}

function playlistCalls(http: Http) {
  return {
    playlists: (query: QueryOf<'get', '/playlists'> = {}, signal?: Signal) =>
      http.call('get', '/playlists', { query, signal }),
    playlist: (id: number, signal?: Signal) =>
      http.call('get', '/playlists/{id}', { params: { id }, signal }),
    createPlaylist: (playlist: BodyOf<'post', '/playlists'>) =>
      http.call('post', '/playlists', { body: playlist }),
    updatePlaylist: (id: number, changes: BodyOf<'patch', '/playlists/{id}'>) =>
      http.call('patch', '/playlists/{id}', { params: { id }, body: changes }),
    deletePlaylist: (id: number) => http.call('delete', '/playlists/{id}', { params: { id } }),
    addToPlaylist: (id: number, trackIds: number[], position?: number) =>
      http.call('post', '/playlists/{id}/tracks', {
        params: { id },
        body: {
          ...(trackIds.length === 1 ? { trackId: trackIds[0] } : { trackIds }),
          ...(position === undefined ? {} : { position }),
        },
      }),
    removeFromPlaylist: (id: number, itemId: number) =>
      http.call('delete', '/playlists/{id}/tracks/{itemId}', { params: { id, itemId } }),
    reorderPlaylist: (id: number, itemIds: number[]) =>
      http.call('put', '/playlists/{id}/tracks', { params: { id }, body: { itemIds } }),
    playPlaylist: (id: number, mode: PlayMode = 'replace') =>
      http.call('post', '/playlists/{id}/play', { params: { id }, body: { mode } }),
  };
}

function playerCalls(http: Http) {
  return {
    player: (signal?: Signal) => http.call('get', '/player', { signal }),
    play: (target: BodyOf<'post', '/player/play'> = {}) =>
      http.call('post', '/player/play', { body: target }),
    pause: () => http.call('post', '/player/pause'),
    stop: () => http.call('post', '/player/stop'),
    resume: () => http.call('post', '/player/resume'),
    skip: () => http.call('post', '/player/skip'),
    enqueue: (target: BodyOf<'post', '/player/queue'>) =>
      http.call('post', '/player/queue', { body: target }),
    queue: (signal?: Signal) => http.call('get', '/player/queue', { signal }),
    history: (query: QueryOf<'get', '/player/history'> = {}, signal?: Signal) =>
      http.call('get', '/player/history', { query, signal }),
    setAmplify: (value: number) => http.call('put', '/player/amplify', { body: { value } }),
  };
}

function adminCalls(http: Http) {
  return {
    startScan: () => http.call('post', '/admin/library/scan'),
    scanStatus: (signal?: Signal) => http.call('get', '/admin/library/scan', { signal }),
    system: (signal?: Signal) => http.call('get', '/admin/system', { signal }),
    storage: (signal?: Signal) => http.call('get', '/admin/storage', { signal }),
    audit: (query: QueryOf<'get', '/admin/audit'> = {}, signal?: Signal) =>
      http.call('get', '/admin/audit', { query, signal }),
  };
}

/** The station's webhooks and their deliveries (admins). */
function webhookCalls(http: Http) {
  return {
    webhooks: (signal?: Signal) => http.call('get', '/webhooks', { signal }),
    createWebhook: (webhook: BodyOf<'post', '/webhooks'>) =>
      http.call('post', '/webhooks', { body: webhook }),
    updateWebhook: (id: number, changes: BodyOf<'patch', '/webhooks/{id}'>) =>
      http.call('patch', '/webhooks/{id}', { params: { id }, body: changes }),
    deleteWebhook: (id: number) => http.call('delete', '/webhooks/{id}', { params: { id } }),
    webhookDeliveries: (id: number, signal?: Signal) =>
      http.call('get', '/webhooks/{id}/deliveries', { params: { id }, query: {}, signal }),
    testWebhook: (id: number) => http.call('post', '/webhooks/{id}/test', { params: { id } }),
  };
}

/** Live shows: broadcast credentials, the live input, kicks, recordings. */
function liveCalls(http: Http) {
  return {
    djAccounts: (signal?: Signal) => http.call('get', '/dj-accounts', { signal }),
    createDjAccount: (account: BodyOf<'post', '/dj-accounts'>) =>
      http.call('post', '/dj-accounts', { body: account }),
    updateDjAccount: (userId: number, changes: BodyOf<'patch', '/dj-accounts/{userId}'>) =>
      http.call('patch', '/dj-accounts/{userId}', { params: { userId }, body: changes }),
    regenerateDjPassword: (userId: number) =>
      http.call('post', '/dj-accounts/{userId}/password', { params: { userId } }),
    deleteDjAccount: (userId: number) =>
      http.call('delete', '/dj-accounts/{userId}', { params: { userId } }),
    myDjAccount: (signal?: Signal) => http.call('get', '/dj/me', { signal }),
    regenerateMyDjPassword: () => http.call('post', '/dj/me/password'),
    live: (signal?: Signal) => http.call('get', '/live', { signal }),
    kickLive: (target: LiveKickTarget) => http.call('post', '/live/kick', { body: { target } }),
    recordings: (query: QueryOf<'get', '/recordings'> = {}, signal?: Signal) =>
      http.call('get', '/recordings', { query, signal }),
    recordingUrl: (id: number) => http.url('/recordings/{id}/file', { id }),
    deleteRecording: (id: number) => http.call('delete', '/recordings/{id}', { params: { id } }),
  };
}

/** Programming: schedule entries, their occurrences, the scheduler's plan (admins and DJs). */
function scheduleCalls(http: Http) {
  return {
    schedules: (signal?: Signal) => http.call('get', '/schedules', { signal }),
    occurrences: (query: QueryOf<'get', '/schedules/occurrences'>, signal?: Signal) =>
      http.call('get', '/schedules/occurrences', { query, signal }),
    createSchedule: (schedule: BodyOf<'post', '/schedules'>) =>
      http.call('post', '/schedules', { body: schedule }),
    updateSchedule: (id: number, changes: BodyOf<'patch', '/schedules/{id}'>) =>
      http.call('patch', '/schedules/{id}', { params: { id }, body: changes }),
    deleteSchedule: (id: number) => http.call('delete', '/schedules/{id}', { params: { id } }),
    timeline: (hours: number, signal?: Signal) =>
      http.call('get', '/schedule/timeline', { query: { hours }, signal }),
    comingUp: (signal?: Signal) => http.call('get', '/schedule/next', { signal }),
  };
}

/** Listener requests and their settings. */
function requestCalls(http: Http) {
  return {
    requestTrack: (trackId: number) => http.call('post', '/requests', { body: { trackId } }),
    myRequests: (signal?: Signal) => http.call('get', '/requests/mine', { signal }),
    requests: (query: QueryOf<'get', '/requests'> = {}, signal?: Signal) =>
      http.call('get', '/requests', { query, signal }),
    removeRequest: (id: number) => http.call('delete', '/requests/{id}', { params: { id } }),
    requestSettings: (signal?: Signal) => http.call('get', '/settings/requests', { signal }),
    saveRequestSettings: (settings: BodyOf<'put', '/settings/requests'>) =>
      http.call('put', '/settings/requests', { body: settings }),
  };
}

/** The audience reports (DJs and admins). */
function reportCalls(http: Http) {
  return {
    listenersReport: (query: QueryOf<'get', '/reports/listeners'>, signal?: Signal) =>
      http.call('get', '/reports/listeners', { query, signal }),
    tracksReport: (query: QueryOf<'get', '/reports/tracks'>, signal?: Signal) =>
      http.call('get', '/reports/tracks', { query, signal }),
    /** The play log's CSV, for a download link (the browser fetches it with the session). */
    playsCsvUrl: (query: QueryOf<'get', '/reports/plays.csv'>) =>
      `${http.url('/reports/plays.csv', {} as never)}${queryString(query)}`,
  };
}

export type ApiClientOptions = HttpOptions;

export function createApiClient(options: ApiClientOptions = {}) {
  const http = createHttp(options);
  return {
    ...statusCalls(http),
    ...authCalls(http),
    ...userCalls(http),
    ...libraryCalls(http),
    ...libraryEditCalls(http),
    ...playlistCalls(http),
    ...playerCalls(http),
    ...adminCalls(http),
    ...webhookCalls(http),
    ...liveCalls(http),
    ...reportCalls(http),
    ...scheduleCalls(http),
    ...requestCalls(http),
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
