import type { Bus, EventMessage, EventType, Logger, StateKey } from '@radio/core';
import type { Request, Response } from 'express';
import { ApiError } from '../errors.ts';
import { frame, framesOf, timelineFor, type Viewer, viewerOf } from './event-audience.ts';
import { PerClientCount } from './per-client-count.ts';

/** The bus events relayed to browsers. */
export const RELAYED_EVENTS = [
  'player.now-playing',
  'player.state',
  'queue.changed',
  'stream.listeners',
  'stream.source',
  'library.scan',
  'library.changed',
  'library.analysis',
  'playout.dead_air',
  'live.connected',
  'live.disconnected',
  'live.silent',
  'live.resumed',
  'live.state',
  'schedule.timeline',
  'requests.updated',
] as const satisfies readonly EventType[];

/** State keys sent first to every new client, under the name of the event that updates them. */
const SNAPSHOT: ReadonlyArray<[StateKey, EventType]> = [
  ['player-state', 'player.state'],
  ['now-playing', 'player.now-playing'],
  ['queue', 'queue.changed'],
  ['listeners', 'stream.listeners'],
  ['library-scan', 'library.scan'],
  ['library-analysis', 'library.analysis'],
  ['live-state', 'live.state'],
];

export interface LiveEventsOptions {
  /** A comment line this often keeps proxies from closing an idle stream (ms). */
  heartbeatMs: number;
  maxClients: number;
  /** Streams one client address (through the trusted proxies) may hold at once. */
  maxPerClient: number;
  /** A client whose unsent data grows beyond this is too slow and is dropped (bytes). */
  maxBufferedBytes: number;
  /** What browsers wait before reconnecting (ms), sent as `retry:`. */
  retryMs: number;
  logger: Logger;
}

interface Client {
  res: Response;
  /** Whose stream it is: request updates and requesters' names depend on it. */
  viewer: Viewer | null;
  /** Events that arrived while the snapshot was being read; sent right after it. */
  pending: string[] | null;
}

/**
 * GET /events: one bus subscription for the whole api, fanned out to every connected client
 * as Server-Sent Events. A client gets `retry:`, the current state of each key (so a
 * reconnecting page is up to date at once), a `ready` event, then live events.
 */
export class LiveEvents {
  readonly #bus: Bus;
  readonly #options: LiveEventsOptions;
  readonly #clients = new Set<Client>();
  readonly #perClient: PerClientCount;
  #unsubscribe: (() => void) | null = null;
  #heartbeat: NodeJS.Timeout | null = null;
  #closed = false;

  constructor(bus: Bus, options: LiveEventsOptions) {
    this.#bus = bus;
    this.#options = options;
    this.#perClient = new PerClientCount(options.maxPerClient);
  }

  get clients(): number {
    return this.#clients.size;
  }

  start(): void {
    this.#unsubscribe = this.#bus.onEvent((event) => this.#broadcast(event), RELAYED_EVENTS);
    this.#heartbeat = setInterval(() => {
      for (const client of this.#clients) this.#write(client, ': ping\n\n');
    }, this.#options.heartbeatMs);
    this.#heartbeat.unref();
  }

  async attach(req: Request, res: Response): Promise<void> {
    if (this.#closed) throw new ApiError('API_BUS_UNAVAILABLE', 'the api is shutting down');
    if (this.#clients.size >= this.#options.maxClients) {
      throw new ApiError('API_TOO_MANY_LISTENERS', undefined, { headers: { 'Retry-After': '30' } });
    }
    const address = req.ip ?? '';
    if (!this.#perClient.take(address)) {
      throw new ApiError('API_TOO_MANY_STREAMS', undefined, { headers: { 'Retry-After': '30' } });
    }
    const client: Client = { res, viewer: viewerOf(req.user), pending: [] };
    this.#clients.add(client);
    const log = req.log;
    // The response's close: the client went away (or the stream was ended here).
    res.on('close', () => {
      this.#perClient.release(address);
      this.#clients.delete(client);
      log.debug({ clients: this.#clients.size }, 'event stream closed');
    });

    res.status(200);
    res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
    res.setHeader('Cache-Control', 'no-cache, no-transform');
    res.setHeader('Connection', 'keep-alive');
    // nginx and similar proxies buffer responses unless told not to.
    res.setHeader('X-Accel-Buffering', 'no');
    res.flushHeaders();
    res.write(`retry: ${this.#options.retryMs}\n\n`);

    const snapshot = await Promise.all(
      SNAPSHOT.map(async ([key, event]) => {
        try {
          return { event, value: await this.#bus.getState(key) };
        } catch (error) {
          log.debug({ err: error, key }, 'state unavailable for a new event stream');
          return { event, value: null };
        }
      }),
    );
    let text = '';
    for (const { event, value } of snapshot) if (value !== null) text += frame(event, value);
    text += await this.#timelineSnapshot(client, log);
    text += frame('ready', { at: Date.now() });
    for (const line of client.pending ?? []) text += line;
    client.pending = null;
    this.#write(client, text);
    log.debug({ clients: this.#clients.size }, 'event stream opened');
  }

  /** The latest plan as this client may see it (event `timeline`), or '' before any. */
  async #timelineSnapshot(client: Client, log: Request['log']): Promise<string> {
    try {
      const timeline = await this.#bus.getState('timeline');
      return timeline
        ? frame('timeline', timelineFor(timeline, client.viewer?.staff ?? false))
        : '';
    } catch (error) {
      log.debug({ err: error }, 'timeline unavailable for a new event stream');
      return '';
    }
  }

  #broadcast(event: EventMessage): void {
    const framesFor = framesOf(event);
    for (const client of this.#clients) {
      const text = framesFor(client.viewer);
      if (text === null) continue;
      if (client.pending) client.pending.push(text);
      else this.#write(client, text);
    }
  }

  #write(client: Client, text: string): void {
    const { res } = client;
    if (res.writableEnded || res.destroyed) {
      this.#clients.delete(client);
      return;
    }
    res.write(text);
    if (res.writableLength > this.#options.maxBufferedBytes) {
      this.#options.logger.warn(
        { buffered: res.writableLength },
        'dropping a slow event stream client',
      );
      this.#clients.delete(client);
      res.destroy();
    }
  }

  /** Ends every stream; idempotent. */
  close(): void {
    this.#closed = true;
    this.#unsubscribe?.();
    this.#unsubscribe = null;
    if (this.#heartbeat) clearInterval(this.#heartbeat);
    this.#heartbeat = null;
    for (const client of this.#clients) client.res.end();
    this.#clients.clear();
  }
}
