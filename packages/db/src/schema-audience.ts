/** The listener sessions and the sums the reports keep of them (see schema.ts). */
import type { Generated } from 'kysely';

/** Epoch milliseconds (see schema.ts). */
type EpochMs = number;

export type ListenerTransport = 'icecast' | 'hls';
export type ListenerClient = 'browser' | 'app' | 'player' | 'bot' | 'other';

/** One finished listener connection (times in epoch ms). */
export interface ListenerSessionsTable {
  id: Generated<number>;
  /** The stream server's id of the session; unique, so a batch sent twice is stored once. */
  session_key: string;
  mount: string;
  transport: ListenerTransport;
  node: string;
  started_ms: EpochMs;
  ended_ms: EpochMs;
  duration_ms: number;
  bytes: number;
  user_agent: string | null;
  client: ListenerClient;
  client_name: string | null;
  /** ISO 3166-1 alpha-2, or null. */
  country: string | null;
  /** As LISTENER_PRIVACY says: salted hash, the address, or null. */
  listener: string | null;
}

/** Sessions summed per hour, mount, country ('' unknown) and client: kept past retention. */
export interface ListenerHourlyTable {
  hour_ms: EpochMs;
  mount: string;
  country: string;
  client: string;
  sessions: number;
  listening_ms: number;
  peak: number;
  /** Sessions under way at some time in the hour (or starting in it). */
  present: number;
  /** Over the hour's four quarter hours, the sessions that listened ≥ 5 min in each. */
  quarter_listeners: number;
  /** The whole length of the sessions started in the hour. */
  started_duration_ms: number;
  /** The whole length of the sessions counted in `present`. */
  present_duration_ms: number;
}

export type ListenerSketchSpan = 'hour' | 'day';

/** A HyperLogLog sketch of the listeners of an hour or day per mount, country and client. */
export interface ListenerSketchesTable {
  span: ListenerSketchSpan;
  /** The hour's or day's start (epoch ms). */
  start_ms: EpochMs;
  mount: string;
  /** '' when unknown. */
  country: string;
  client: string;
  sketch: Uint8Array;
}

/** A play's audience, counted once the hours it spans are summed (see the audience rollup). */
export interface PlayListenersTable {
  /** play_history.id */
  play_id: number;
  listeners_at_start: number;
  listeners_at_end: number;
  /** Sessions that ended while it played. */
  left_during: number;
  /** Sessions that heard some of it. */
  listeners: number;
}
