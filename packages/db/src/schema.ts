import type { Generated, Insertable, Selectable, Updateable } from 'kysely';
import type {
  ListenerHourlyTable,
  ListenerSessionsTable,
  ListenerSketchesTable,
  PlayListenersTable,
} from './schema-audience.ts';

/*
 * The one description of the station's tables. Both dialects store and return the same
 * JavaScript values, so a row looks the same whether it came from SQLite or PostgreSQL:
 *
 * - Timestamps (`*_at`) are ISO-8601 UTC text with milliseconds, exactly what
 *   `new Date().toISOString()` (and `nowIso()`) produce: `2026-11-21T10:53:00.123Z`.
 *   The fixed width makes text order equal time order, so `order by started_at` and range
 *   filters work on both dialects. Columns with a default are filled by the database in that
 *   same format. PostgreSQL stores them as `text`, not `timestamptz`, so pg never turns them
 *   into `Date` objects that SQLite could not give back.
 * - Booleans are integers 0/1 on both (a CHECK keeps them to those values), typed `Flag`.
 * - Epoch milliseconds (`mtime`, `expires_at`) and byte sizes are `bigint` columns read back
 *   as JavaScript numbers (exact up to 2^53, far beyond any date or file size we store).
 * - Ids are integers the database assigns (SQLite AUTOINCREMENT, PostgreSQL identity), so an
 *   id is never reused after a delete.
 * - Nullable columns are `T | null`; they may be left out of an insert.
 */

/** ISO-8601 UTC timestamp text, e.g. `2026-11-21T10:53:00.123Z`. */
export type Timestamp = string;

/** Milliseconds since the Unix epoch. */
export type EpochMs = number;

/** A boolean stored as an integer: 0 = false, 1 = true. */
export type Flag = 0 | 1;

export type UserRole = 'admin' | 'dj' | 'listener';
export type TrackStatus = 'ok' | 'invalid' | 'missing';
export type AnalysisStatus = 'pending' | 'done' | 'failed';
export type PlaySource = 'request' | 'rotation' | 'playlist' | 'new';
export type PlaylistKind =
  | 'rotation'
  | 'every_n_songs'
  | 'every_n_minutes'
  | 'hourly_at'
  | 'once_at';
export type PlayOrder = 'shuffle' | 'random' | 'sequential';
export type StartMode = 'after_track' | 'interrupt';
export type SongRequestStatus = 'pending' | 'played' | 'removed';

export interface UsersTable {
  id: Generated<number>;
  /** Shown as typed; unique regardless of case (a unique index on `lower(username)`). */
  username: string;
  password_hash: string;
  role: UserRole;
  disabled: Generated<Flag>;
  created_at: Generated<Timestamp>;
  updated_at: Generated<Timestamp>;
  last_login_at: Timestamp | null;
}

export interface TracksTable {
  id: Generated<number>;
  /** Relative to MUSIC_DIR, with `/` separators; unique. */
  path: string;
  title: string;
  artist: string | null;
  album: string | null;
  genre: string | null;
  /** The recording's ISRC tag (ID3 TSRC, Vorbis/FLAC ISRC, MP4), when the file has one. */
  isrc: string | null;
  year: number | null;
  track_no: number | null;
  /** Seconds. */
  duration: number | null;
  /** Container or codec name in lower case: `mp3`, `flac`, … */
  format: string;
  /** Bits per second. */
  bitrate: number | null;
  /** Hertz. */
  sample_rate: number | null;
  channels: number | null;
  has_cover: Generated<Flag>;
  /** File size in bytes. */
  size: number;
  /** The file's modification time, to skip unchanged files on a rescan. */
  mtime: EpochMs;
  status: Generated<TrackStatus>;
  /** Why the file is `invalid` (or `missing`); null when `ok`. */
  error: string | null;
  added_at: Generated<Timestamp>;
  updated_at: Generated<Timestamp>;
  /** dB, from the file's ReplayGain track tag (reference -18 LUFS); null when untagged. */
  replay_gain: number | null;
  /*
   * Measured once per file version by the background analysis; null until it is done. A
   * changed file goes back to `pending` with these cleared.
   */
  analysis_status: Generated<AnalysisStatus>;
  /** Integrated loudness, LUFS (EBU R128). */
  loudness: number | null;
  /** Loudness range, LU. */
  loudness_range: number | null;
  /** True peak, dBTP. */
  true_peak: number | null;
  /** Seconds from the start of the file: the first audible moment. */
  cue_in: number | null;
  /** Seconds from the start of the file: the end of the last audible moment. */
  cue_out: number | null;
  /** Seconds from the start of the file: where the ending falls away (the next track may start). */
  fade_point: number | null;
  /** Why the analysis failed (the track still plays if it decodes). */
  analysis_error: string | null;
  analyzed_at: Timestamp | null;
  /** Hash of the audio packets alone (tags excluded); null until first needed, and on change. */
  audio_hash: string | null;
  /** The user whose upload the file is (a plain id); null for files put there otherwise. */
  uploaded_by: number | null;
}

export interface PlaylistsTable {
  id: Generated<number>;
  owner_id: number;
  name: string;
  description: string | null;
  is_public: Generated<Flag>;
  created_at: Generated<Timestamp>;
  updated_at: Generated<Timestamp>;
  /** Takes part in programming (rotation, its schedules, its kind's rule); 0: personal only. */
  on_air: Generated<Flag>;
  kind: Generated<PlaylistKind>;
  play_order: Generated<PlayOrder>;
  /** 1-100: its share among the rotation playlists on air. */
  weight: Generated<number>;
  /** Played without crossfade, not counted against separation, not in the public history. */
  jingle: Generated<Flag>;
  /** every_n_songs: N songs; every_n_minutes: N minutes; hourly_at: the minute 0-59. */
  interval: number | null;
  /** once_at: when its one track plays. */
  play_at: Timestamp | null;
  /** hourly_at and once_at: wait for the track in progress, or fade it out at the time. */
  start_mode: Generated<StartMode>;
  /** Index into the current round of its order, kept across restarts. */
  cursor: Generated<number>;
  /** The round (seeds the shuffle of each round). */
  cycle: Generated<number>;
}

export interface PlaylistItemsTable {
  id: Generated<number>;
  playlist_id: number;
  track_id: number;
  /** Order within the playlist, ascending. Not unique, so a reorder can rewrite rows freely. */
  position: number;
  added_at: Generated<Timestamp>;
}

export interface PlayHistoryTable {
  id: Generated<number>;
  /** Null once the track has been removed from the library; title and artist remain. */
  track_id: number | null;
  title: string;
  artist: string | null;
  started_at: Generated<Timestamp>;
  ended_at: Timestamp | null;
  source: PlaySource;
  request_id: string | null;
  /** The playlist it came from (scheduled, rotation or a rule's); a plain id, not a key. */
  playlist_id: number | null;
  jingle: Generated<Flag>;
  /** The listener's request it answered. */
  song_request_id: number | null;
}

/** One entry of the station's week: a playlist or a DJ's show slot, in STATION_TIMEZONE. */
export interface SchedulesTable {
  id: Generated<number>;
  /** Exactly one of playlist_id and dj_user_id is set. */
  playlist_id: number | null;
  dj_user_id: number | null;
  title: string | null;
  /** Bit 0 Monday … bit 6 Sunday: the days a span starts on. */
  days: number;
  /** HH:MM local; an end before the start crosses midnight. */
  start_time: string;
  end_time: string;
  /** YYYY-MM-DD, inclusive, of the day a span starts; null: open. */
  start_date: string | null;
  end_date: string | null;
  priority: Generated<number>;
  start_mode: Generated<StartMode>;
  created_at: Generated<Timestamp>;
  updated_at: Generated<Timestamp>;
}

/** A listener's request for a library track. */
export interface SongRequestsTable {
  id: Generated<number>;
  user_id: number;
  track_id: number;
  status: Generated<SongRequestStatus>;
  requested_at: Generated<Timestamp>;
  /** The earliest it may play (requested_at plus the minimum delay). */
  not_before: Timestamp;
  /** Where the scheduler's plan has it now. */
  planned_at: Timestamp | null;
  played_at: Timestamp | null;
  /** Why it was removed. */
  reason: string | null;
}

export type * from './schema-audience.ts';

export interface SessionsTable {
  sid: string;
  /** The serialised session, JSON. */
  data: string;
  expires_at: EpochMs;
}

export interface SettingsTable {
  key: string;
  /** JSON. */
  value: string;
  updated_at: Generated<Timestamp>;
}

/** A file deleted from the library, kept under DATA_DIR/trash until restored or expired. */
export interface TrashTable {
  id: Generated<number>;
  /** The track row the file had; null once that row is gone. */
  track_id: number | null;
  /** Where it was, relative to MUSIC_DIR. */
  original_path: string;
  /** Its file name under DATA_DIR/trash. */
  stored_name: string;
  title: string;
  artist: string | null;
  size: number;
  deleted_by: number | null;
  deleted_at: Generated<Timestamp>;
  expires_at: Timestamp;
}

/** Who did what to the library (uploads, tag edits, moves, deletes, restores). */
export interface AuditLogTable {
  id: Generated<number>;
  at: Generated<Timestamp>;
  user_id: number | null;
  /** Copied, so the entry reads right after the account is gone. */
  username: string | null;
  /** e.g. `track.upload`, `track.tags`, `track.move`, `track.delete`, `track.restore`. */
  action: string;
  /** What it acted on, e.g. the track's path. */
  target: string | null;
  /** JSON. */
  details: string | null;
}

export type WebhookFormat = 'generic' | 'discord';
export type WebhookDeliveryStatus = 'pending' | 'delivered' | 'failed' | 'retrying';

/** An address the station tells about its events (song changes, dead air, …). */
export interface WebhooksTable {
  id: Generated<number>;
  name: string;
  /** http(s) only. */
  url: string;
  /** JSON list of event names, e.g. `["song.changed"]`. */
  events: string;
  /** The HMAC-SHA256 key of the `X-Radio-Signature` header. */
  secret: string;
  format: WebhookFormat;
  enabled: Generated<Flag>;
  created_by: number | null;
  created_at: Generated<Timestamp>;
  updated_at: Generated<Timestamp>;
}

/** One event sent (or being sent) to one webhook; the last 200 per webhook are kept. */
export interface WebhookDeliveriesTable {
  id: Generated<number>;
  webhook_id: number;
  event: string;
  /** One occurrence of the event (unique per webhook), so several api processes queue it once. */
  event_key: string | null;
  /** The exact JSON body sent, so a retry sends the same bytes. */
  payload: string;
  status: WebhookDeliveryStatus;
  attempts: Generated<number>;
  /** When the next try is due; null once delivered or failed. */
  next_attempt_at: Timestamp | null;
  /** While set and in the future, one api process is sending it and others leave it alone. */
  claimed_until: Timestamp | null;
  last_status_code: number | null;
  last_error: string | null;
  latency_ms: number | null;
  created_at: Generated<Timestamp>;
  delivered_at: Timestamp | null;
}

/** A DJ's broadcast credentials for the live input (one per user with the `dj` role). */
export interface DjAccountsTable {
  user_id: number;
  /** Lower case, unique; the source client's user name. */
  broadcast_username: string;
  /** scrypt, the same format as `users.password_hash`; not the login password. */
  password_hash: string;
  /** Shown on air as `Live: <display_name>` when the DJ sends no title. */
  display_name: string;
  enabled: Generated<Flag>;
  record_shows: Generated<Flag>;
  created_at: Generated<Timestamp>;
  updated_at: Generated<Timestamp>;
}

/** A one-time password the api mints for the browser's go-live connection to the live input. */
export interface LiveTokensTable {
  /** SHA-256 hex of the token; the token itself is never stored. */
  token_hash: string;
  user_id: number;
  expires_at: Timestamp;
  used: Generated<Flag>;
  created_at: Generated<Timestamp>;
}

/** One live show: who, when, its audience peak and its recording. */
export interface LiveShowsTable {
  id: Generated<number>;
  /** Null once the account is gone; `dj_name` remains. */
  user_id: number | null;
  dj_name: string;
  started_at: Generated<Timestamp>;
  /** Null while the show is on air (or if the scheduler stopped before it ended). */
  ended_at: Timestamp | null;
  peak_listeners: Generated<number>;
  /** Relative to DATA_DIR/recordings; null when not recorded. */
  recording_file: string | null;
  recording_bytes: number | null;
  /** Why the recording stopped early (e.g. a full disk); the show itself went on. */
  recording_error: string | null;
}

export interface Database {
  users: UsersTable;
  tracks: TracksTable;
  playlists: PlaylistsTable;
  playlist_items: PlaylistItemsTable;
  play_history: PlayHistoryTable;
  sessions: SessionsTable;
  settings: SettingsTable;
  trash: TrashTable;
  audit_log: AuditLogTable;
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  dj_accounts: DjAccountsTable;
  live_tokens: LiveTokensTable;
  live_shows: LiveShowsTable;
  schedules: SchedulesTable;
  song_requests: SongRequestsTable;
  listener_sessions: ListenerSessionsTable;
  listener_hourly: ListenerHourlyTable;
  listener_sketches: ListenerSketchesTable;
  play_listeners: PlayListenersTable;
}

export type User = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;

export type Track = Selectable<TracksTable>;
export type NewTrack = Insertable<TracksTable>;
export type TrackUpdate = Updateable<TracksTable>;

export type Playlist = Selectable<PlaylistsTable>;
export type NewPlaylist = Insertable<PlaylistsTable>;
export type PlaylistUpdate = Updateable<PlaylistsTable>;

export type PlaylistItem = Selectable<PlaylistItemsTable>;
export type NewPlaylistItem = Insertable<PlaylistItemsTable>;
export type PlaylistItemUpdate = Updateable<PlaylistItemsTable>;

export type PlayHistoryEntry = Selectable<PlayHistoryTable>;
export type NewPlayHistoryEntry = Insertable<PlayHistoryTable>;
export type PlayHistoryUpdate = Updateable<PlayHistoryTable>;

export type Session = Selectable<SessionsTable>;
export type NewSession = Insertable<SessionsTable>;
export type SessionUpdate = Updateable<SessionsTable>;

export type Setting = Selectable<SettingsTable>;
export type NewSetting = Insertable<SettingsTable>;
export type SettingUpdate = Updateable<SettingsTable>;

export type TrashEntry = Selectable<TrashTable>;
export type NewTrashEntry = Insertable<TrashTable>;

export type AuditEntry = Selectable<AuditLogTable>;
export type NewAuditEntry = Insertable<AuditLogTable>;

export type Webhook = Selectable<WebhooksTable>;
export type NewWebhook = Insertable<WebhooksTable>;
export type WebhookUpdate = Updateable<WebhooksTable>;

export type WebhookDelivery = Selectable<WebhookDeliveriesTable>;
export type NewWebhookDelivery = Insertable<WebhookDeliveriesTable>;
export type WebhookDeliveryUpdate = Updateable<WebhookDeliveriesTable>;

export type DjAccount = Selectable<DjAccountsTable>;
export type NewDjAccount = Insertable<DjAccountsTable>;
export type DjAccountUpdate = Updateable<DjAccountsTable>;

export type LiveToken = Selectable<LiveTokensTable>;
export type NewLiveToken = Insertable<LiveTokensTable>;

export type LiveShow = Selectable<LiveShowsTable>;
export type NewLiveShow = Insertable<LiveShowsTable>;
export type LiveShowUpdate = Updateable<LiveShowsTable>;

export type Schedule = Selectable<SchedulesTable>;
export type NewSchedule = Insertable<SchedulesTable>;
export type ScheduleUpdate = Updateable<SchedulesTable>;

export type SongRequest = Selectable<SongRequestsTable>;
export type NewSongRequest = Insertable<SongRequestsTable>;

export type ListenerSession = Selectable<ListenerSessionsTable>;
export type NewListenerSession = Insertable<ListenerSessionsTable>;
