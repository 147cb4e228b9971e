import { describe, expect, it } from '@jest/globals';
import {
  type ConnectionState,
  connectLiveEvents,
  type EventSourceLike,
  type LiveEvent,
} from './events.ts';

/** An EventSource the test drives by hand. */
class FakeEventSource implements EventSourceLike {
  readyState = 0;
  onopen: ((event: Event) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;
  closed = false;
  readonly listeners = new Map<string, (event: MessageEvent) => void>();
  readonly url: string;

  constructor(url: string) {
    this.url = url;
  }

  addEventListener(type: string, listener: (event: MessageEvent) => void): void {
    this.listeners.set(type, listener);
  }

  close(): void {
    this.closed = true;
    this.readyState = 2;
  }

  open(): void {
    this.readyState = 1;
    this.onopen?.(new Event('open'));
  }

  emit(type: string, data: string): void {
    this.listeners.get(type)?.({ data } as MessageEvent);
  }

  fail(readyState: number): void {
    this.readyState = readyState;
    this.onerror?.(new Event('error'));
  }
}

function setup() {
  const sources: FakeEventSource[] = [];
  const timers: { run: () => void; ms: number }[] = [];
  const events: LiveEvent[] = [];
  const states: ConnectionState[] = [];
  const connection = connectLiveEvents((event) => events.push(event), {
    url: '/api/radio/events',
    createEventSource: (url) => {
      const source = new FakeEventSource(url);
      sources.push(source);
      return source;
    },
    onState: (state) => states.push(state),
    minDelayMs: 100,
    maxDelayMs: 350,
    setTimer: (run, ms) => {
      timers.push({ run, ms });
      return timers.length;
    },
    clearTimer: () => {},
  });
  return { sources, timers, events, states, connection };
}

describe('connectLiveEvents', () => {
  it('delivers the named events with their JSON payloads', () => {
    const { sources, events, states } = setup();
    const source = sources[0] as FakeEventSource;
    expect(source.url).toBe('/api/radio/events');
    source.open();
    source.emit('player.state', '{"state":"playing","position":3,"amplify":1}');
    source.emit('ready', '{"at":1000}');
    source.emit('stream.listeners', 'not json');
    expect(events).toEqual([
      { type: 'player.state', payload: { state: 'playing', position: 3, amplify: 1 } },
      { type: 'ready', payload: { at: 1000 } },
    ]);
    expect(states).toEqual(['connecting', 'open']);
  });

  it("leaves a dropped connection to the browser's own retry", () => {
    const { sources, timers, states } = setup();
    (sources[0] as FakeEventSource).open();
    (sources[0] as FakeEventSource).fail(0);
    expect(states.at(-1)).toBe('reconnecting');
    expect(sources).toHaveLength(1);
    expect(timers).toHaveLength(0);
  });

  it('opens a new stream after a refusal, waiting longer each time up to the limit', () => {
    const { sources, timers, states } = setup();
    (sources[0] as FakeEventSource).fail(2);
    expect(timers.map((t) => t.ms)).toEqual([100]);
    (timers[0] as { run: () => void }).run();
    expect(sources).toHaveLength(2);
    (sources[1] as FakeEventSource).fail(2);
    (timers[1] as { run: () => void }).run();
    (sources[2] as FakeEventSource).fail(2);
    (timers[2] as { run: () => void }).run();
    (sources[3] as FakeEventSource).fail(2);
    expect(timers.map((t) => t.ms)).toEqual([100, 200, 350, 350]);
    (timers[3] as { run: () => void }).run();
    (sources[4] as FakeEventSource).open();
    expect(states.at(-1)).toBe('open');
    // Success resets the wait.
    (sources[4] as FakeEventSource).fail(2);
    expect(timers.at(-1)?.ms).toBe(100);
  });

  it('stops for good on close, including a pending reconnect', () => {
    const { sources, timers, connection } = setup();
    (sources[0] as FakeEventSource).fail(2);
    connection.close();
    (timers[0] as { run: () => void }).run();
    expect(sources).toHaveLength(1);
    expect((sources[0] as FakeEventSource).closed).toBe(true);
  });
});
