import { type ConnectionState, connectLiveEvents, type LiveEvent } from './events.ts';
import type {
  DeadAirEvent,
  LibraryAnalysis,
  LibraryScan,
  ListenerCounts,
  LiveInput,
  NowPlaying,
  PlayerStateEvent,
  PlayerStatus,
  PlayoutFallback,
  QueueItem,
  SongRequestUpdate,
  TimelineEvent,
} from './types.ts';

export interface ListenerSample {
  /** Browser clock, ms. */
  t: number;
  total: number;
  mounts: Record<string, number>;
}

/** A dead-air skip and when this page heard of it (browser clock, ms). */
export type DeadAirSkip = DeadAirEvent & { at: number };

export interface LiveState {
  connection: ConnectionState;
  /**
   * Whether the current connection has passed its `ready` event: what comes before it is the
   * stored state, whose player position is of unknown age.
   */
  ready: boolean;
  /** Server clock minus browser clock (ms), from the `ready` event; 0 until known. */
  clockOffset: number;
  nowPlaying: NowPlaying | null;
  /** `receivedAt` is 0 when `position` cannot be trusted to count on from (a stored snapshot). */
  player: (PlayerStateEvent & { receivedAt: number }) | null;
  queue: QueueItem[] | null;
  listeners: ListenerCounts | null;
  /** Listener counts over time, oldest first, for the chart. */
  listenerSeries: ListenerSample[];
  scan: LibraryScan | null;
  /** The background loudness and cue analysis, as it last reported. */
  analysis: LibraryAnalysis | null;
  /** Why the mounts carry the fallback instead of music; null while music plays. */
  fallback: PlayoutFallback | null;
  /** Dead-air skips since the page opened, newest first. */
  deadAir: DeadAirSkip[];
  /** Tracks seen going on air since the page opened, newest first. */
  recent: NowPlaying[];
  /** Mount → whether a source is connected, as `stream.source` reports it. */
  sources: Record<string, boolean>;
  /** Goes up on every `library.changed`: pages that list tracks reload when it moves. */
  libraryVersion: number;
  /** The live input (a DJ on air, one waiting); null until the scheduler has said. */
  live: LiveInput | null;
  /** The scheduler's latest plan (its first entries); null until one arrives. */
  timeline: TimelineEvent | null;
  /** The newest word on each listener request this page heard of, by request id. */
  requests: Record<number, SongRequestUpdate>;
}

export const MAX_SERIES = 720;
const MAX_RECENT = 20;

export function initialLiveState(): LiveState {
  return {
    connection: 'connecting',
    ready: false,
    clockOffset: 0,
    nowPlaying: null,
    player: null,
    queue: null,
    listeners: null,
    listenerSeries: [],
    scan: null,
    analysis: null,
    fallback: null,
    deadAir: [],
    recent: [],
    sources: {},
    libraryVersion: 0,
    live: null,
    timeline: null,
    requests: {},
  };
}

function sameTrack(a: NowPlaying | null, b: NowPlaying | null): boolean {
  if (!a || !b) return a === b;
  return a.startedAt === b.startedAt && a.title === b.title && a.path === b.path;
}

export function sampleOf(counts: ListenerCounts, t: number): ListenerSample {
  return {
    t,
    total: counts.total,
    mounts: Object.fromEntries(counts.mounts.map((mount) => [mount.mount, mount.listeners])),
  };
}

function appendSample(series: ListenerSample[], sample: ListenerSample): ListenerSample[] {
  const next =
    series.length >= MAX_SERIES ? series.slice(series.length - MAX_SERIES + 1) : series.slice();
  next.push(sample);
  return next;
}

/** The state after one event: a pure function, so it is tested without a browser. */
export function reduceLive(state: LiveState, event: LiveEvent, now: number): LiveState {
  switch (event.type) {
    case 'ready':
      return { ...state, ready: true, clockOffset: event.payload.at - now };
    case 'player.now-playing': {
      if (sameTrack(state.nowPlaying, event.payload)) {
        return { ...state, nowPlaying: event.payload };
      }
      const recent = state.nowPlaying
        ? [state.nowPlaying, ...state.recent.filter((item) => !sameTrack(item, state.nowPlaying))]
        : state.recent;
      // A new track: its start time says where it is, not the old track's position.
      const player = state.player ? { ...state.player, receivedAt: 0 } : null;
      return { ...state, nowPlaying: event.payload, player, recent: recent.slice(0, MAX_RECENT) };
    }
    case 'live.state':
      return { ...state, live: event.payload };
    case 'timeline':
      return { ...state, timeline: event.payload };
    case 'request': {
      const updates = 'requests' in event.payload ? event.payload.requests : [event.payload];
      const requests = { ...state.requests };
      for (const update of updates) requests[update.id] = update;
      return { ...state, requests };
    }
    case 'player.state':
      return {
        ...state,
        player: { ...event.payload, receivedAt: state.ready ? now : 0 },
        fallback: event.payload.fallback ?? null,
      };
    case 'queue.changed':
      return { ...state, queue: event.payload.items };
    case 'stream.listeners':
      return {
        ...state,
        listeners: event.payload,
        listenerSeries: appendSample(state.listenerSeries, sampleOf(event.payload, now)),
      };
    case 'stream.source':
      return {
        ...state,
        sources: { ...state.sources, [event.payload.mount]: event.payload.connected },
      };
    case 'library.scan':
      return { ...state, scan: event.payload };
    case 'library.changed':
      return { ...state, libraryVersion: state.libraryVersion + 1 };
    case 'library.analysis':
      return { ...state, analysis: event.payload };
    case 'playout.dead_air':
      return {
        ...state,
        deadAir: [{ ...event.payload, at: now }, ...state.deadAir].slice(0, MAX_RECENT),
      };
    default:
      return state;
  }
}

/** Seconds into the current track, as the server would say now. */
export function positionNow(state: LiveState, now: number): number | null {
  const { nowPlaying, player } = state;
  if (!nowPlaying) return null;
  if (player && player.state !== 'playing' && player.position !== null) return player.position;
  if (player && player.position !== null && player.receivedAt > 0) {
    // A live position from the scheduler beats clock arithmetic (it knows about pauses).
    return player.position + Math.max(0, now - player.receivedAt) / 1000;
  }
  const elapsed = (now + state.clockOffset - nowPlaying.startedAt) / 1000;
  return Math.max(0, elapsed);
}

type Listener = () => void;

/**
 * One event stream for the whole page, opened when the first component subscribes and
 * closed a while after the last one leaves (so moving between pages keeps it open).
 */
export class LiveStore {
  #state: LiveState = initialLiveState();
  readonly #listeners = new Set<Listener>();
  #connection: { close(): void } | null = null;
  #idle: ReturnType<typeof setTimeout> | null = null;

  getState = (): LiveState => this.#state;

  subscribe = (listener: Listener): (() => void) => {
    this.#listeners.add(listener);
    if (this.#idle) clearTimeout(this.#idle);
    this.#idle = null;
    if (!this.#connection) this.#connect();
    return () => {
      this.#listeners.delete(listener);
      if (this.#listeners.size === 0 && !this.#idle) {
        this.#idle = setTimeout(() => {
          this.#idle = null;
          if (this.#listeners.size === 0) this.#disconnect();
        }, 10_000);
      }
    };
  };

  /** Folds in what a REST answer said (streaming status, player), when the stream has not yet. */
  seed(
    values: Partial<
      Pick<LiveState, 'nowPlaying' | 'queue' | 'listeners' | 'scan' | 'analysis' | 'fallback'>
    > & {
      player?: PlayerStateEvent;
    },
  ): void {
    const next = { ...this.#state };
    if (values.nowPlaying !== undefined && !next.nowPlaying) next.nowPlaying = values.nowPlaying;
    if (values.queue !== undefined && next.queue === null) next.queue = values.queue;
    if (values.listeners && !next.listeners) {
      next.listeners = values.listeners;
      next.listenerSeries = appendSample(
        next.listenerSeries,
        sampleOf(values.listeners, Date.now()),
      );
    }
    if (values.scan !== undefined && !next.scan) next.scan = values.scan;
    if (values.analysis !== undefined && !next.analysis) next.analysis = values.analysis;
    // Once the stream has sent the player's state, its word on the fallback is the newer one.
    if (values.fallback !== undefined && !next.player) next.fallback = values.fallback;
    if (values.player) next.player = { ...values.player, receivedAt: Date.now() };
    this.#set(next);
  }

  /**
   * What `GET /player` or a player command answered: the scheduler's own word on the state.
   * Its position is counted on from only when `trustPosition` says the answer is one snapshot
   * (`GET /player`); a command's answer may pair the old position with the new track (skip).
   */
  applyPlayer(status: PlayerStatus & { queue?: QueueItem[] }, trustPosition = false): void {
    const now = Date.now();
    let next = this.#state;
    if (status.nowPlaying) {
      next = reduceLive(next, { type: 'player.now-playing', payload: status.nowPlaying }, now);
    }
    const { state, position, amplify } = status;
    const current = next.player;
    if (
      !trustPosition &&
      state === 'playing' &&
      current?.state === 'playing' &&
      current.receivedAt > 0
    ) {
      // A live event already said where this track is: keep counting from it.
      next = { ...next, player: { ...current, amplify } };
    } else {
      const anchored = trustPosition || state !== 'playing';
      next = { ...next, player: { state, position, amplify, receivedAt: anchored ? now : 0 } };
    }
    if (status.queue) next = { ...next, queue: status.queue };
    if (status.fallback !== undefined) next = { ...next, fallback: status.fallback };
    this.#set(next);
  }

  setAmplify(amplify: number): void {
    const { player } = this.#state;
    if (player) this.#set({ ...this.#state, player: { ...player, amplify } });
  }

  dispatch(event: LiveEvent): void {
    this.#set(reduceLive(this.#state, event, Date.now()));
  }

  #set(next: LiveState): void {
    this.#state = next;
    for (const listener of this.#listeners) listener();
  }

  #connect(): void {
    this.#connection = connectLiveEvents((event) => this.dispatch(event), {
      onState: (connection) => this.#set({ ...this.#state, connection, ready: false }),
    });
  }

  #disconnect(): void {
    this.#connection?.close();
    this.#connection = null;
  }
}

export const liveStore = new LiveStore();
