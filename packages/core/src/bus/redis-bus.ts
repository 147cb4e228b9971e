/**
 * The bus over Redis pub/sub: one connection for PUBLISH/GET/SET and one in subscriber mode.
 *
 * While Redis is down nothing is queued inside ioredis (no offline queue, no retries of
 * in-flight commands): a queue would grow without bound and deliver stale messages late. The
 * engine turns that into the documented behaviour instead (see `Bus`): publish drops, setState
 * keeps the value for the reconnect, request and getState fail at once with BUS_UNAVAILABLE.
 */
import type { Redis, RedisOptions } from 'ioredis';
import { componentLogger, type Logger } from '../logging/logger.ts';
import type { Bus, BusOptionsBase } from './bus.ts';
import { checkTimeout } from './context.ts';
import { BusEngine } from './engine.ts';
import { BusUnavailableError } from './errors.ts';
import { busNames, type ChannelListener, type Transport } from './transport.ts';

export interface RedisBusOptions extends BusOptionsBase {
  /** `redis://[user:password@]host:port[/db]` (or `rediss://`). */
  url: string;
  logger: Logger;
  /** Put before every channel and key name (`<prefix>radio:events`); tests use a random one. */
  prefix?: string;
  /** How long `createRedisBus` waits for the first connection, in ms (10000). */
  connectTimeoutMs?: number;
  /** The longest wait between two reconnection attempts, in ms (2000). */
  maxReconnectDelayMs?: number;
}

const COMMAND_TIMEOUT_MS = 3000;
const QUIT_TIMEOUT_MS = 2000;
/** How long ioredis waits for a socket to close after `disconnect()` before destroying it. */
const DISCONNECT_TIMEOUT_MS = 100;

/** The URL without its password, for logs and error messages. */
function describeUrl(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.toString();
}

class RedisTransport implements Transport {
  readonly kind = 'redis';
  readonly #pub: Redis;
  readonly #sub: Redis;
  readonly #channels: ReadonlyMap<string, ChannelListener>;
  readonly #log: Logger;
  readonly #where: string;
  readonly #listeners = new Set<(connected: boolean) => void>();

  #pubReady = false;
  #subReady = false;
  #connected = false;
  #everConnected = false;
  #closing = false;
  #lostAt = 0;
  #attempts = 0;
  #lastError: Error | null = null;

  constructor(
    RedisClient: typeof Redis,
    url: string,
    channels: ReadonlyMap<string, ChannelListener>,
    log: Logger,
    maxReconnectDelayMs: number,
  ) {
    this.#channels = channels;
    this.#log = log;
    this.#where = describeUrl(url);
    const options: RedisOptions = {
      // Capped exponential backoff with a little jitter, so restarted services do not all
      // reconnect in the same millisecond. ioredis retries for as long as this returns a number.
      retryStrategy: (times) =>
        Math.round(
          Math.min(100 * 2 ** Math.min(times - 1, 10), maxReconnectDelayMs) *
            (0.9 + Math.random() * 0.2),
        ),
      // Fail commands at once while disconnected instead of queueing them without bound, and
      // fail in-flight ones when the connection drops instead of resending them later.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      autoResendUnfulfilledCommands: false,
      // We resubscribe ourselves on 'ready', so we know when the subscription is really back.
      autoResubscribe: false,
      commandTimeout: COMMAND_TIMEOUT_MS,
      connectTimeout: 5000,
      disconnectTimeout: DISCONNECT_TIMEOUT_MS,
    };
    this.#pub = new RedisClient(url, { ...options, connectionName: 'radio-bus' });
    this.#sub = new RedisClient(url, { ...options, connectionName: 'radio-bus-sub' });

    for (const connection of [this.#pub, this.#sub]) {
      // Without an 'error' listener ioredis prints every failed retry to the console.
      connection.on('error', (error: Error) => {
        this.#lastError = error;
        this.#log.debug({ err: error }, 'Redis connection error');
      });
    }
    this.#pub.on('ready', () => {
      this.#pubReady = true;
      this.#update();
    });
    this.#pub.on('close', () => {
      this.#pubReady = false;
      this.#update();
    });
    this.#pub.on('reconnecting', (delay: number) => {
      this.#attempts += 1;
      this.#log.debug({ attempt: this.#attempts, delayMs: delay }, 'reconnecting to Redis');
    });
    this.#sub.on('ready', () => void this.#subscribe());
    this.#sub.on('close', () => {
      this.#subReady = false;
      this.#update();
    });
    this.#sub.on('message', (channel: string, message: string) => {
      try {
        this.#channels.get(channel)?.(message);
      } catch (error) {
        this.#log.error({ err: error, channel }, 'bus channel listener failed');
      }
    });
  }

  async #subscribe(): Promise<void> {
    try {
      await this.#sub.subscribe(...this.#channels.keys());
    } catch (error) {
      if (this.#closing || this.#sub.status !== 'ready') return; // the 'close' path takes over
      this.#log.warn({ err: error }, 'could not subscribe to the bus channels; reconnecting');
      this.#sub.disconnect(true);
      return;
    }
    if (this.#sub.status !== 'ready') return;
    this.#subReady = true;
    this.#update();
  }

  #update(): void {
    const connected = !this.#closing && this.#pubReady && this.#subReady;
    if (connected === this.#connected) return;
    this.#connected = connected;
    if (connected) {
      if (this.#everConnected) {
        this.#log.info(
          { redis: this.#where, downMs: Date.now() - this.#lostAt, attempts: this.#attempts },
          'reconnected to Redis',
        );
      } else {
        this.#log.debug({ redis: this.#where }, 'connected to Redis');
      }
      this.#everConnected = true;
      this.#attempts = 0;
      this.#lastError = null;
    } else if (this.#everConnected && !this.#closing) {
      this.#lostAt = Date.now();
      this.#log.warn(
        { redis: this.#where, err: this.#lastError ?? undefined },
        'lost the connection to Redis; reconnecting',
      );
    }
    for (const listener of this.#listeners) listener(connected);
  }

  isConnected(): boolean {
    return this.#connected;
  }

  onConnectionChange(listener: (connected: boolean) => void): () => void {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }

  /** Resolves on the first connection; rejects after `timeoutMs` with the last error seen. */
  async waitConnected(timeoutMs: number): Promise<void> {
    if (this.#connected) return;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        stop();
        const reason = this.#lastError ? `: ${this.#lastError.message}` : '';
        reject(
          new BusUnavailableError(
            `cannot connect to Redis at ${this.#where} within ${timeoutMs} ms${reason}`,
            { cause: this.#lastError ?? undefined },
          ),
        );
      }, timeoutMs);
      const stop = this.onConnectionChange((connected) => {
        if (!connected) return;
        clearTimeout(timer);
        stop();
        resolve();
      });
    });
  }

  async publish(channel: string, data: string): Promise<void> {
    await this.#pub.publish(channel, data);
  }

  async getKey(key: string): Promise<string | null> {
    return this.#pub.get(key);
  }

  async setKey(key: string, value: string): Promise<void> {
    await this.#pub.set(key, value);
  }

  async close(): Promise<void> {
    if (this.#closing) return;
    this.#closing = true;
    this.#connected = false;
    await Promise.all([quit(this.#pub), quit(this.#sub)]);
  }
}

/** QUIT when connected (so the server sees a clean goodbye), else just stop reconnecting. */
async function quit(connection: Redis): Promise<void> {
  if (connection.status !== 'ready') {
    connection.disconnect();
    if (connection.status === 'reconnecting') {
      // Between attempts ioredis still arms its disconnect timer for the socket that is already
      // closed, and nothing clears it; wait it out so that nothing of ours outlives close().
      await new Promise((resolve) => setTimeout(resolve, DISCONNECT_TIMEOUT_MS + 10));
    }
    return;
  }
  let timer: NodeJS.Timeout | undefined;
  let onEnd = () => {};
  // Bounded: if the server never closes the socket, the disconnect below does.
  const ended = new Promise<void>((resolve) => {
    onEnd = resolve;
    connection.once('end', onEnd);
    timer = setTimeout(resolve, QUIT_TIMEOUT_MS);
  });
  try {
    await connection.quit();
  } catch {
    connection.disconnect();
  }
  await ended;
  clearTimeout(timer);
  connection.off('end', onEnd);
  // Re-read: the status changed while awaiting (TS keeps the narrowing from above).
  if ((connection.status as string) !== 'end') connection.disconnect();
}

/**
 * Connects to Redis and resolves once both connections are up and subscribed, so handlers
 * registered right after receive everything published after that. Rejects with
 * `BusUnavailableError` when Redis cannot be reached within `connectTimeoutMs`.
 */
export async function createRedisBus(options: RedisBusOptions): Promise<Bus> {
  if (!options?.logger) throw new TypeError('createRedisBus: logger is required');
  if (typeof options.url !== 'string' || !URL.canParse(options.url)) {
    throw new TypeError(`createRedisBus: url must be a redis:// URL, got ${String(options.url)}`);
  }
  const protocol = new URL(options.url).protocol;
  if (protocol !== 'redis:' && protocol !== 'rediss:') {
    throw new TypeError(`createRedisBus: url must be a redis:// or rediss:// URL`);
  }
  const connectTimeoutMs = checkTimeout(options.connectTimeoutMs ?? 10_000, 'connectTimeoutMs');
  const maxReconnectDelayMs = checkTimeout(
    options.maxReconnectDelayMs ?? 2000,
    'maxReconnectDelayMs',
  );
  const log = componentLogger(options.logger, 'bus', { transport: 'redis' });
  const engine = new BusEngine({
    kind: 'redis',
    names: busNames(options.prefix ?? ''),
    logger: log,
    requestTimeoutMs: options.requestTimeoutMs,
  });
  // Loaded here, not at the top: embedded mode never pays for ioredis (about 25 MB of heap).
  const { Redis: RedisClient } = await import('ioredis');
  const transport = new RedisTransport(
    RedisClient,
    options.url,
    engine.channelListeners(),
    log,
    maxReconnectDelayMs,
  );
  engine.attach(transport);
  try {
    await transport.waitConnected(connectTimeoutMs);
  } catch (error) {
    await engine.close();
    throw error;
  }
  return engine;
}
