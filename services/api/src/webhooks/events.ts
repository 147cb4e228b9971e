/*
 * What a webhook can be told. Each event's `data` is typed here; the bus events they come from
 * are followed in event-sources.ts. Times are ISO-8601 UTC text, as in the REST api.
 */

export const WEBHOOK_EVENTS = [
  'song.changed',
  'live.connected',
  'live.disconnected',
  'playout.dead_air',
  'station.offline',
  'station.online',
  'listeners.peak',
] as const;

export type WebhookEventName = (typeof WEBHOOK_EVENTS)[number];

export interface SongChangedData {
  trackId: number | null;
  title: string;
  artist: string | null;
  album: string | null;
  /** Seconds; null when unknown. */
  duration: number | null;
  startedAt: string;
  source: string;
}

export interface LiveData {
  dj: { id: number; name: string };
  mount: string;
  at: string;
}

export interface DeadAirData {
  silentSeconds: number;
  trackId: number | null;
  title: string | null;
  action: string;
  at: string;
}

export interface StationOfflineData {
  mount: string;
  /** When the source left. */
  since: string;
  /** How long the mount had been without a source when this was sent. */
  offlineSeconds: number;
}

export interface StationOnlineData {
  mount: string;
  at: string;
  /** How long the mount was without a source. */
  offlineSeconds: number;
}

export interface ListenersPeakData {
  /** `all-time`: the audience just beat its record; `daily`: the peak of a finished UTC day. */
  kind: 'all-time' | 'daily';
  listeners: number;
  at: string;
  /** all-time: the record it beat; daily: the UTC date (YYYY-MM-DD) the peak belongs to. */
  previous?: number;
  date?: string;
}

export interface TestData {
  message: string;
}

export interface WebhookEventData {
  'song.changed': SongChangedData;
  'live.connected': LiveData;
  'live.disconnected': LiveData;
  'playout.dead_air': DeadAirData;
  'station.offline': StationOfflineData;
  'station.online': StationOnlineData;
  'listeners.peak': ListenersPeakData;
  test: TestData;
}

/** One occurrence of an event, before it is queued for the webhooks that want it. */
export type WebhookEvent = {
  [K in keyof WebhookEventData]: {
    event: K;
    data: WebhookEventData[K];
    /** When it happened. */
    at: Date;
    /**
     * Names this occurrence the same way in every api process (all of them follow the bus),
     * so it is queued once per webhook however many processes saw it.
     */
    key: string;
  };
}[keyof WebhookEventData];

/** The generic JSON body: what is stored and signed. */
export interface WebhookBody {
  event: keyof WebhookEventData;
  timestamp: string;
  data: unknown;
}
