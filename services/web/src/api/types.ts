/*
 * The shapes the api answers with, as its OpenAPI document (`GET /api/radio/openapi.json`)
 * describes them. The web app imports no workspace code at run time (DESIGN.md), so they are
 * written out here; `client.test.ts` checks the routes against a live document when one is
 * reachable.
 */

export type Role = 'admin' | 'dj' | 'listener';

export interface User {
  id: number;
  username: string;
  role: Role;
  disabled: boolean;
  createdAt: string;
  updatedAt: string;
  lastLoginAt: string | null;
}

export interface AuthStatus {
  authenticated: boolean;
  user?: User;
}

export interface Page<T> {
  items: T[];
  total: number;
  page: number;
  limit: number;
}

export type TrackStatus = 'ok' | 'invalid' | 'missing';

export interface Track {
  id: number;
  path: string;
  title: string;
  artist: string | null;
  album: string | null;
  genre: string | null;
  year: number | null;
  trackNo: number | null;
  duration: number | null;
  format: string;
  bitrate: number | null;
  sampleRate: number | null;
  channels: number | null;
  hasCover: boolean;
  coverUrl: string | null;
  size: number;
  status: TrackStatus;
  error: string | null;
  addedAt: string;
  updatedAt: string;
}

export const TRACK_SORTS = [
  'artist',
  'album',
  'title',
  'genre',
  'year',
  'duration',
  'added',
] as const;
export type TrackSort = (typeof TRACK_SORTS)[number];
export type SortOrder = 'asc' | 'desc';

export interface TrackQuery {
  q?: string;
  artist?: string;
  album?: string;
  genre?: string;
  status?: TrackStatus | 'all';
  sort?: TrackSort;
  order?: SortOrder;
  page?: number;
  limit?: number;
}

export interface Artist {
  name: string;
  tracks: number;
  albums: number;
}

export interface Album {
  name: string;
  artist: string | null;
  tracks: number;
  year: number | null;
  duration: number;
}

export interface Playlist {
  id: number;
  name: string;
  description: string | null;
  isPublic: boolean;
  owner: { id: number; username: string };
  itemCount: number;
  duration: number;
  createdAt: string;
  updatedAt: string;
}

export interface PlaylistItem {
  id: number;
  position: number;
  addedAt: string;
  track: Track;
}

export interface PlaylistDetail extends Playlist {
  items: PlaylistItem[];
}

export type TrackSource = 'request' | 'rotation' | 'playlist' | 'new';
export type PlaybackState = 'playing' | 'paused' | 'stopped';

export interface NowPlaying {
  trackId: number | null;
  requestId: string | null;
  path: string | null;
  title: string;
  artist: string | null;
  album: string | null;
  /** Seconds. */
  duration: number | null;
  /** Epoch milliseconds (server clock) when the track went on air. */
  startedAt: number;
  source: TrackSource;
}

export interface QueueItem {
  requestId: string;
  trackId: number | null;
  path: string;
  title: string;
  artist: string | null;
  duration: number | null;
  kind: TrackSource;
}

export interface PlayerStatus {
  state: PlaybackState;
  nowPlaying: NowPlaying | null;
  position: number | null;
  amplify: number;
}

export interface Player extends PlayerStatus {
  queue: QueueItem[];
}

export interface PlayerStateEvent {
  state: PlaybackState;
  position: number | null;
  amplify: number;
}

export interface HistoryEntry {
  id: number;
  trackId: number | null;
  title: string;
  artist: string | null;
  startedAt: string;
  endedAt: string | null;
  source: TrackSource;
  requestId: string | null;
}

export interface MountStatus {
  mount: string;
  format: 'mp3' | 'aac';
  bitrate: number;
  quality: 'high' | 'low';
  url: string;
  listeners: number | null;
  peak: number | null;
  sourceConnected: boolean | null;
}

export interface StreamingStatus {
  mounts: MountStatus[];
  totalListeners: number | null;
  nowPlaying: NowPlaying | null;
}

export interface Check {
  ok: boolean;
  latencyMs: number | null;
  error: string | null;
}

export interface Health {
  db: Check & { dialect: string };
  bus: Check & { kind: string };
  stream: Check;
  scheduler: Check;
}

export interface ApiStatus {
  service: 'api';
  version: string;
  uptime: number;
  status: 'ok' | 'degraded';
  health: Health;
}

export interface LibraryScan {
  scanId: string;
  state: 'running' | 'done' | 'failed';
  done: number;
  total: number;
  indexed: number;
  invalid: number;
  missing: number;
  startedAt: number;
  finishedAt: number | null;
  error: string | null;
}

export interface LibrarySize {
  total: number;
  ok: number;
  invalid: number;
  missing: number;
  duration: number;
  size: number;
}

export interface ScanStatus {
  scan: LibraryScan | null;
  library: LibrarySize;
}

export interface SystemInfo {
  versions: { api: string; node: string; platform: string };
  uptime: { process: number; api: number };
  memory: { rss: number; heapUsed: number; heapTotal: number; external: number };
  health: Health;
  library: LibrarySize;
  db: { dialect: string; target: string; ok: boolean; latencyMs: number };
  redis: { used: boolean; ok: boolean | null; latencyMs: number | null; error: string | null };
  sessions: { store: 'redis' | 'db' };
  sse: { clients: number };
}

export interface MountListeners {
  mount: string;
  listeners: number;
  peak: number;
}

export interface ListenerCounts {
  mounts: MountListeners[];
  total: number;
}

export interface StreamSourceEvent {
  mount: string;
  connected: boolean;
  contentType?: string;
  bitrate?: number;
}

export interface LibraryChanges {
  added: number;
  updated: number;
  removed: number;
  invalid: number;
  paths?: string[];
}

/** What `GET /events` sends, by event name. */
export interface LiveEventMap {
  'player.now-playing': NowPlaying;
  'player.state': PlayerStateEvent;
  'queue.changed': { items: QueueItem[] };
  'stream.listeners': ListenerCounts;
  'stream.source': StreamSourceEvent;
  'library.scan': LibraryScan;
  'library.changed': LibraryChanges;
  ready: { at: number };
}
export type LiveEventName = keyof LiveEventMap;
