import { API_BASE } from './paths.ts';
import type { LiveEventMap, LiveEventName } from './types.ts';

export const LIVE_EVENT_NAMES: readonly LiveEventName[] = [
  'player.now-playing',
  'player.state',
  'queue.changed',
  'stream.listeners',
  'stream.source',
  'library.scan',
  'library.changed',
  'library.analysis',
  'playout.dead_air',
  'live.state',
  'timeline',
  'request',
  'ready',
];

export type LiveEvent = {
  [K in LiveEventName]: { type: K; payload: LiveEventMap[K] };
}[LiveEventName];

export type ConnectionState = 'connecting' | 'open' | 'reconnecting';

/** What an EventSource needs to look like here; tests pass a fake. */
export interface EventSourceLike {
  readonly readyState: number;
  onopen: ((event: Event) => void) | null;
  onerror: ((event: Event) => void) | null;
  addEventListener(type: string, listener: (event: MessageEvent) => void): void;
  close(): void;
}

export interface LiveEventsOptions {
  url?: string;
  createEventSource?: (url: string) => EventSourceLike;
  onState?: (state: ConnectionState) => void;
  /** First wait before reconnecting after the server refused the stream (ms). */
  minDelayMs?: number;
  maxDelayMs?: number;
  setTimer?: (run: () => void, ms: number) => unknown;
  clearTimer?: (timer: unknown) => void;
}

const CLOSED = 2;

/**
 * Follows `GET /api/radio/events`. The browser's EventSource reconnects by itself after a
 * dropped connection, but gives up for good when the server answers with an error (a 503
 * while the api restarts): then we open a new one, waiting longer each time up to a limit.
 */
export function connectLiveEvents(
  onEvent: (event: LiveEvent) => void,
  options: LiveEventsOptions = {},
): { close(): void } {
  const url = options.url ?? `${API_BASE}/events`;
  const create = options.createEventSource ?? ((target: string) => new EventSource(target));
  const minDelay = options.minDelayMs ?? 1000;
  const maxDelay = options.maxDelayMs ?? 30_000;
  const setTimer = options.setTimer ?? ((run: () => void, ms: number) => setTimeout(run, ms));
  const clearTimer =
    options.clearTimer ??
    ((timer: unknown) => clearTimeout(timer as ReturnType<typeof setTimeout>));

  let source: EventSourceLike | null = null;
  let timer: unknown = null;
  let delay = minDelay;
  let closed = false;
  let state: ConnectionState | null = null;

  const setState = (next: ConnectionState) => {
    if (state === next) return;
    state = next;
    options.onState?.(next);
  };

  const open = () => {
    timer = null;
    if (closed) return;
    const es = create(url);
    source = es;
    es.onopen = () => {
      delay = minDelay;
      setState('open');
    };
    es.onerror = () => {
      if (closed || source !== es) return;
      if (es.readyState === CLOSED) {
        es.close();
        source = null;
        setState('reconnecting');
        timer = setTimer(open, delay);
        delay = Math.min(maxDelay, delay * 2);
      } else {
        setState('reconnecting');
      }
    };
    for (const type of LIVE_EVENT_NAMES) {
      es.addEventListener(type, (message: MessageEvent) => {
        if (source !== es) return;
        let payload: unknown;
        try {
          payload = JSON.parse(String(message.data));
        } catch {
          return;
        }
        if (payload === null || typeof payload !== 'object') return;
        onEvent({ type, payload } as LiveEvent);
      });
    }
  };

  setState('connecting');
  open();

  return {
    close() {
      closed = true;
      if (timer !== null) clearTimer(timer);
      timer = null;
      source?.close();
      source = null;
    },
  };
}
