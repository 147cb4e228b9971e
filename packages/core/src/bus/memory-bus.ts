/**
 * The in-process bus of embedded mode. Messages still travel as JSON text through a hub that
 * behaves like Redis pub/sub (delivery later, in publish order, to whoever is subscribed at
 * publish time), so services see the same copies, validation and timing in both modes.
 */
import { componentLogger, type Logger } from '../logging/logger.ts';
import type { Bus, BusOptionsBase } from './bus.ts';
import { BusEngine } from './engine.ts';
import { BusClosedError } from './errors.ts';
import { busNames, type ChannelListener, type Transport } from './transport.ts';

/**
 * The in-process stand-in for the Redis server: channels and string keys. Several buses on one
 * hub talk to each other like several processes on one Redis.
 */
export interface MemoryHub {
  /** Queues `data` for the channel's current subscribers; returns how many there are. */
  publish(channel: string, data: string): number;
  subscribe(channel: string, listener: ChannelListener): () => void;
  get(key: string): string | null;
  set(key: string, value: string): void;
}

export function createMemoryHub(): MemoryHub {
  const channels = new Map<string, Set<ChannelListener>>();
  const keys = new Map<string, string>();
  return {
    publish(channel, data) {
      const listeners = channels.get(channel);
      if (!listeners || listeners.size === 0) return 0;
      const receivers = [...listeners];
      // setImmediate, not a microtask: like a network hop, the publisher's whole synchronous
      // work and its awaited continuations finish before anyone receives the message.
      setImmediate(() => {
        let failure: { error: unknown } | null = null;
        for (const listener of receivers) {
          // Unsubscribed since the publish: it would not have been delivered by Redis either.
          if (!channels.get(channel)?.has(listener)) continue;
          try {
            listener(data);
          } catch (error) {
            failure ??= { error };
          }
        }
        // Listeners are the bus's own and do not throw; if one does, it is a bug to surface.
        if (failure) throw failure.error;
      });
      return receivers.length;
    },
    subscribe(channel, listener) {
      let listeners = channels.get(channel);
      if (!listeners) {
        listeners = new Set();
        channels.set(channel, listeners);
      }
      listeners.add(listener);
      return () => {
        const current = channels.get(channel);
        current?.delete(listener);
        if (current?.size === 0) channels.delete(channel);
      };
    },
    get: (key) => keys.get(key) ?? null,
    set: (key, value) => {
      keys.set(key, value);
    },
  };
}

class MemoryTransport implements Transport {
  readonly kind = 'memory';
  readonly #hub: MemoryHub;
  readonly #unsubscribes: (() => void)[] = [];
  #closed = false;

  constructor(hub: MemoryHub, channels: ReadonlyMap<string, ChannelListener>) {
    this.#hub = hub;
    for (const [channel, listener] of channels) {
      this.#unsubscribes.push(hub.subscribe(channel, listener));
    }
  }

  isConnected(): boolean {
    return !this.#closed;
  }

  onConnectionChange(): () => void {
    // An in-process hub never disconnects.
    return () => {};
  }

  async publish(channel: string, data: string): Promise<void> {
    if (this.#closed) throw new BusClosedError();
    this.#hub.publish(channel, data);
  }

  async getKey(key: string): Promise<string | null> {
    return this.#hub.get(key);
  }

  async setKey(key: string, value: string): Promise<void> {
    this.#hub.set(key, value);
  }

  async close(): Promise<void> {
    this.#closed = true;
    for (const unsubscribe of this.#unsubscribes.splice(0)) unsubscribe();
  }
}

export interface MemoryBusOptions extends BusOptionsBase {
  logger: Logger;
  /** Shared with other buses of this process; a private hub when omitted. */
  hub?: MemoryHub;
}

export function createMemoryBus(options: MemoryBusOptions): Bus {
  if (!options?.logger) throw new TypeError('createMemoryBus: logger is required');
  const engine = new BusEngine({
    kind: 'memory',
    names: busNames(),
    logger: componentLogger(options.logger, 'bus', { transport: 'memory' }),
    requestTimeoutMs: options.requestTimeoutMs,
  });
  engine.attach(new MemoryTransport(options.hub ?? createMemoryHub(), engine.channelListeners()));
  return engine;
}
