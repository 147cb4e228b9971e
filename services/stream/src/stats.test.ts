import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { type Bus, type ListenerCounts, silentLogger } from '@radio/core';
import { ListenerCountPublisher, ServerStats } from './stats.ts';

describe('ListenerCountPublisher', () => {
  let published: number[];
  let total: number;
  let publisher: ListenerCountPublisher;

  beforeEach(() => {
    jest.useFakeTimers({ now: 1_000_000 });
    published = [];
    total = 0;
    // Only the call the publisher makes; the rest of the bus is not used.
    const bus = {
      publishState: async () => {
        published.push(Date.now());
      },
    } as unknown as Bus;
    const counts = (): ListenerCounts => ({ mounts: [], total });
    publisher = new ListenerCountPublisher(bus, silentLogger(), counts);
  });

  afterEach(() => {
    publisher.close();
    jest.useRealTimers();
  });

  it('publishes the first change at once and folds later ones into one a second later', () => {
    total = 1;
    publisher.changed();
    total = 2;
    publisher.changed();
    total = 3;
    publisher.changed();
    expect(published).toEqual([1_000_000]);
    jest.advanceTimersByTime(1000);
    expect(published).toEqual([1_000_000, 1_001_000]);
  });

  it('never publishes twice within a second, even when its timer fires early', () => {
    total = 1;
    publisher.changed();
    total = 2;
    publisher.changed();
    // A busy event loop: timers run on a cached clock that lags the wall clock, here by 20 ms.
    jest.setSystemTime(Date.now() - 20);
    jest.advanceTimersByTime(1000);
    expect(published).toHaveLength(1);
    jest.advanceTimersByTime(20);
    expect(published).toHaveLength(2);
    expect((published[1] as number) - (published[0] as number)).toBeGreaterThanOrEqual(1000);
  });
});

describe('ServerStats', () => {
  it('changes the counters only by the events it is told', () => {
    const stats = new ServerStats();
    stats.record('connection-opened');
    stats.record('request-read');
    stats.record('listener-connected');
    stats.record('connection-opened');
    stats.record('request-read');
    stats.record('source-connected');
    stats.record('slow-listener-dropped');
    stats.record('listener-left');
    stats.record('connection-closed');
    expect(stats.listeners).toBe(0);
    expect(stats.sources).toBe(1);
    expect(stats.counters).toEqual({
      connections: 2,
      clientConnections: 2,
      listenerConnections: 1,
      sourceClientConnections: 1,
      fileConnections: 0,
      clients: 1,
      slowListeners: 1,
    });
  });

  it('hands out a copy of the counters', () => {
    const stats = new ServerStats();
    const before = stats.counters;
    stats.record('connection-opened');
    expect(before.connections).toBe(0);
    expect(stats.counters.connections).toBe(1);
  });
});
