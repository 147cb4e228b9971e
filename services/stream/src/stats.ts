import type { Bus, ListenerCounts, Logger } from '@radio/core';

/*
 * What the status documents are built from. Mounts and the server fill these plain snapshots;
 * stats.xml, status-json.xsl, the admin page and the bus read them and never touch a mount.
 */

export type MountState = 'live' | 'grace' | 'idle';

export interface MountSnapshot {
  path: string;
  state: MountState;
  configured: boolean;
  contentType: string;
  /** Icecast listeners and HLS sessions together. */
  listeners: number;
  /** Of `listeners`, the HLS sessions (absent: none). */
  hlsListeners?: number;
  peak: number;
  slowListeners: number;
  maxListeners: number | null;
  name: string | null;
  description: string | null;
  genre: string | null;
  url: string | null;
  public: boolean | null;
  quality: string | null;
  audioInfo: string | null;
  bitrate: number | null;
  channels: number | null;
  sampleRate: number | null;
  /** null until a title is set. */
  title: string | null;
  sourceIp: string | null;
  userAgent: string | null;
  /** When the current stream started (epoch ms): the first source after the mount was idle. */
  streamStart: number | null;
  /** When the current source connected (epoch ms). */
  sourceConnectedAt: number | null;
  graceEndsAt: number | null;
  totalBytesRead: number;
  totalBytesSent: number;
  fallback: string | null;
  listenUrl: string;
}

export interface ListenerSnapshot {
  id: number;
  mount: string;
  ip: string;
  userAgent: string;
  connectedAt: number;
  bytesSent: number;
  icy: boolean;
}

/** Icecast's global counters (all totals since start, except `clients`). */
export class ServerCounters {
  /** Accepted TCP connections. */
  connections = 0;
  /** Requests parsed (listeners, sources, admin, status ...). */
  clientConnections = 0;
  listenerConnections = 0;
  sourceClientConnections = 0;
  fileConnections = 0;
  /** Connections open now. */
  clients = 0;
  /** Listeners dropped for falling behind or not reading, all mounts. */
  slowListeners = 0;
}

/** What changes the server-wide counters; the module where it happens reports it. */
export type StatsEvent =
  | 'connection-opened'
  | 'connection-closed'
  | 'request-read'
  | 'source-connected'
  | 'source-left'
  | 'listener-connected'
  | 'listener-left'
  | 'slow-listener-dropped';

type Tally = keyof ServerCounters | 'listeners' | 'sources';

/** What each event adds to (1) or takes from (-1). */
const CHANGES: Readonly<Record<StatsEvent, Partial<Record<Tally, 1 | -1>>>> = {
  'connection-opened': { connections: 1, clients: 1 },
  'connection-closed': { clients: -1 },
  'request-read': { clientConnections: 1 },
  'source-connected': { sources: 1, sourceClientConnections: 1 },
  'source-left': { sources: -1 },
  'listener-connected': { listeners: 1, listenerConnections: 1 },
  'listener-left': { listeners: -1 },
  'slow-listener-dropped': { slowListeners: 1 },
};

/**
 * The server-wide counters and the numbers of sources and listeners connected now. They change
 * only through `record`, as Icecast's modules call `stats_event`: connections, sources,
 * listeners and mounts each report their own events, and nothing else writes the counters.
 */
export class ServerStats {
  readonly startedAt = Date.now();
  readonly #tallies: Record<Tally, number> = { ...new ServerCounters(), listeners: 0, sources: 0 };

  record(event: StatsEvent): void {
    const changes = CHANGES[event];
    for (const name of Object.keys(changes) as Tally[]) this.#tallies[name] += changes[name] ?? 0;
  }

  /** Listeners connected now, all mounts. */
  get listeners(): number {
    return this.#tallies.listeners;
  }

  /** Sources connected now. */
  get sources(): number {
    return this.#tallies.sources;
  }

  /** The counters as they are now (a copy: a snapshot does not change afterwards). */
  get counters(): ServerCounters {
    const counters = new ServerCounters();
    for (const name of Object.keys(counters) as (keyof ServerCounters)[]) {
      counters[name] = this.#tallies[name];
    }
    return counters;
  }
}

export interface ServerSnapshot {
  serverId: string;
  admin: string;
  host: string;
  location: string;
  serverStart: number;
  counters: ServerCounters;
  listeners: number;
  sources: number;
  mounts: MountSnapshot[];
  /** An origin's edges as they last reported (absent on an edge). */
  edges?: EdgeSnapshot[];
}

/** An edge as the origin's status documents list it. */
export interface EdgeSnapshot {
  node: string;
  url: string;
  listeners: number;
  maxListeners: number | null;
  mounts: { mount: string; listeners: number }[];
  /** When its last report arrived (epoch ms). */
  reportedAt: number;
}

/**
 * Publishes listener counts on the bus when they change, at most once a second: the first
 * change goes out at once, later ones within the second are folded into one trailing update.
 * The same payload is kept in the `listeners` state key for services that start later.
 */
export class ListenerCountPublisher {
  readonly #bus: Bus | null;
  readonly #log: Logger;
  readonly #read: () => ListenerCounts;
  #lastAt = 0;
  #timer: NodeJS.Timeout | null = null;
  #lastPayload = '';
  #closed = false;

  constructor(bus: Bus | null, log: Logger, read: () => ListenerCounts) {
    this.#bus = bus;
    this.#log = log;
    this.#read = read;
  }

  changed(): void {
    if (this.#bus === null || this.#closed || this.#timer !== null) return;
    const wait = this.#lastAt + 1000 - Date.now();
    if (wait <= 0) {
      this.#publish();
    } else {
      // Checked again when it fires: timers count from the event loop's cached clock, which
      // lags Date.now() on a busy loop, so the timer can fire before a full second has passed.
      this.#timer = setTimeout(() => {
        this.#timer = null;
        this.changed();
      }, wait);
      this.#timer.unref();
    }
  }

  /** Publishes the current counts now (at start, so the state key is never stale). */
  publishNow(): void {
    if (this.#bus !== null && !this.#closed) this.#publish();
  }

  close(): void {
    this.#closed = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
  }

  #publish(): void {
    const bus = this.#bus;
    if (bus === null) return;
    const payload = this.#read();
    const text = JSON.stringify(payload);
    if (text === this.#lastPayload) return;
    this.#lastPayload = text;
    this.#lastAt = Date.now();
    bus.publishState('stream.listeners', payload).catch((error: unknown) => {
      this.#log.warn({ err: error }, 'cannot publish listener counts');
    });
  }
}
