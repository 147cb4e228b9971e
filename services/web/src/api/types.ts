import type { BodyOf, QueryOf, ResponseOf } from './paths.ts';

/*
 * Names for the shapes the app shows, all read from the api's OpenAPI document (paths.ts):
 * only what the document does not describe, the live events, is written out here.
 */

export type User = ResponseOf<'get', '/auth/me'>['user'];
export type Role = User['role'];
export type AuthStatus = ResponseOf<'get', '/auth-status'>;

/** One page of a list: the api pages every list the same way. */
export type Page<T> = Omit<ResponseOf<'get', '/tracks'>, 'items'> & { items: T[] };

export type Track = ResponseOf<'get', '/tracks/{id}'>;
export type TrackStatus = Track['status'];
export type TrackAnalysis = Track['analysis'];
export type TrackQuery = QueryOf<'get', '/tracks'>;
export type TrackSort = NonNullable<TrackQuery['sort']>;
export type SortOrder = NonNullable<TrackQuery['order']>;
export const TRACK_SORTS = [
  'artist',
  'album',
  'title',
  'genre',
  'year',
  'duration',
  'added',
] as const satisfies readonly TrackSort[];

export type TagEdit = BodyOf<'patch', '/tracks/{id}/tags'>;
export type Folder = ResponseOf<'get', '/library/folders'>['folders'][number];
export type DeleteResult = ResponseOf<'delete', '/tracks/{id}'>;
export type TrashEntry = ResponseOf<'get', '/trash'>['items'][number];
export type BulkFailure = ResponseOf<'patch', '/tracks/tags'>['failed'][number];

export type Artist = ResponseOf<'get', '/artists'>['items'][number];
export type Album = ResponseOf<'get', '/albums'>['items'][number];

export type Playlist = ResponseOf<'get', '/playlists'>['items'][number];
export type PlaylistScope = NonNullable<QueryOf<'get', '/playlists'>['scope']>;
export type PlaylistDetail = ResponseOf<'get', '/playlists/{id}'>;
export type PlaylistItem = PlaylistDetail['items'][number];
export type PlayMode = NonNullable<BodyOf<'post', '/playlists/{id}/play'>['mode']>;

export type Player = ResponseOf<'get', '/player'>;
export type PlayerStatus = ResponseOf<'post', '/player/pause'>;
export type PlaybackState = Player['state'];
export type NowPlaying = NonNullable<Player['nowPlaying']>;
export type TrackSource = NowPlaying['source'];
export type QueueItem = Player['queue'][number];
export type HistoryEntry = ResponseOf<'get', '/player/history'>['items'][number];

export type StreamingStatus = ResponseOf<'get', '/streaming-status'>;
export type MountStatus = StreamingStatus['mounts'][number];

/** Why the mounts carry the fallback instead of music. */
export type PlayoutFallback = NonNullable<StreamingStatus['fallback']>;

export type ApiStatus = ResponseOf<'get', '/status'>;

export type Storage = ResponseOf<'get', '/admin/storage'>;
export type AuditEntry = ResponseOf<'get', '/admin/audit'>['items'][number];
export type Health = ApiStatus['health'];
export type Check = Health['stream'];

export type Webhook = ResponseOf<'get', '/webhooks'>['items'][number];
export type WebhookEventName = Webhook['events'][number];
export type WebhookFormat = Webhook['format'];
export type WebhookDelivery = ResponseOf<'get', '/webhooks/{id}/deliveries'>['items'][number];

export type DjAccount = ResponseOf<'get', '/dj-accounts'>['items'][number];
export type DjAccountWithPassword = ResponseOf<'post', '/dj-accounts'>;
export type MyDjAccount = ResponseOf<'get', '/dj/me'>;
export type LiveConnection = MyDjAccount['connection'];
/** The live input: who is on air, who waits, silence, recording (`GET /live`, `live.state`). */
export type LiveInput = ResponseOf<'get', '/live'>;
export type LiveSource = NonNullable<LiveInput['onAir']>;
export type LiveKickTarget = NonNullable<BodyOf<'post', '/live/kick'>['target']>;
export type Recording = ResponseOf<'get', '/recordings'>['items'][number];

export type Schedule = ResponseOf<'get', '/schedules'>['schedules'][number];
export type ScheduleInput = BodyOf<'post', '/schedules'>;
export type StartMode = NonNullable<ScheduleInput['startMode']>;
export type Occurrence = ResponseOf<'get', '/schedules/occurrences'>['occurrences'][number];
export type Timeline = ResponseOf<'get', '/schedule/timeline'>;
/** The plan as the event stream carries it (the bus message: no station zone). */
export type TimelineEvent = Omit<Timeline, 'timeZone'>;
export type TimelineEntry = Timeline['entries'][number];
export type TimelineSource = TimelineEntry['source'];
export type ComingUpEntry = ResponseOf<'get', '/schedule/next'>['entries'][number];
export type SongRequest = ResponseOf<'get', '/requests/mine'>['requests'][number];
export type SongRequestStatus = SongRequest['status'];
export type RequestSettings = ResponseOf<'get', '/settings/requests'>;

export type ScanStatus = ResponseOf<'get', '/admin/library/scan'>;
export type LibraryScan = NonNullable<ScanStatus['scan']>;
export type LibraryAnalysis = NonNullable<ScanStatus['analysis']>;
export type LibrarySize = ScanStatus['library'];
export type SystemInfo = ResponseOf<'get', '/admin/system'>;

// The live events (`GET /events`, a text/event-stream) are not in the document: their
// payloads, where the document has no shape of the same name, are written out here.

export type PlayerStateEvent = Pick<PlayerStatus, 'state' | 'position' | 'amplify' | 'fallback'>;

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

/** The dead-air guard found the AutoDJ's output silent and skipped the track. */
export interface DeadAirEvent {
  silentSeconds: number;
  trackId: number | null;
  title: string | null;
  action: 'skipped';
}

/** A listener request's new state (`request`: to its requester, and to admins and DJs). */
export interface SongRequestUpdate {
  id: number;
  userId: number;
  trackId: number;
  status: SongRequestStatus;
  /** Epoch ms: where the plan has a pending request, or null when it is not in the plan yet. */
  plannedAt: number | null;
  playedAt: number | null;
  reason: string | null;
}

/** What `GET /events` sends, by event name. */
export interface LiveEventMap {
  'player.now-playing': NowPlaying;
  'player.state': PlayerStateEvent;
  'queue.changed': ResponseOf<'get', '/player/queue'>;
  'stream.listeners': ListenerCounts;
  'stream.source': StreamSourceEvent;
  'library.scan': LibraryScan;
  'library.changed': LibraryChanges;
  'library.analysis': LibraryAnalysis;
  'playout.dead_air': DeadAirEvent;
  'live.state': LiveInput;
  /** The scheduler's new plan: its first entries. */
  timeline: TimelineEvent;
  /** Changed listener requests, one or a batch. */
  request: SongRequestUpdate | { requests: SongRequestUpdate[] };
  ready: { at: number };
}
export type LiveEventName = keyof LiveEventMap;
