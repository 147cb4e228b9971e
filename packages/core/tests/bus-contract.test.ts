/**
 * One contract, two implementations: everything here must hold for the Redis bus (against the
 * real Redis on 127.0.0.1:6379) and for the in-process bus alike.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { Redis } from 'ioredis';
import {
  type Bus,
  BusClosedError,
  BusTimeoutError,
  CommandFailedError,
  type CommandMessage,
  createMemoryBus,
  createMemoryHub,
  createRedisBus,
  type EventMessage,
  type MemoryHub,
  type NowPlaying,
  type PlayerStatus,
  type QueueItem,
} from '../src/bus/index.ts';
import { RadioError } from '../src/errors.ts';
import type { Logger } from '../src/logging/logger.ts';
import { captureLogger, waitFor } from '../src/testing/index.ts';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** How one implementation is set up: buses that see each other, and raw access to the wire. */
interface Harness {
  /** A new bus on the shared transport, like another process. */
  create(options?: { logger?: Logger; requestTimeoutMs?: number }): Promise<Bus>;
  /** Puts raw text on a channel, bypassing every check of the bus. */
  injectRaw(channel: string, data: string): Promise<void>;
  /** Collects whatever arrives on a channel. */
  listenRaw(channel: string): Promise<string[]>;
  setRawKey(key: string, value: string): Promise<void>;
  /** Channel and key names as documented (`<prefix>radio:events`). */
  prefix: string;
  dispose(): Promise<void>;
}

function memoryHarness(): Harness {
  const hub: MemoryHub = createMemoryHub();
  const buses: Bus[] = [];
  const unsubscribes: (() => void)[] = [];
  return {
    prefix: '',
    async create(options = {}) {
      const bus = createMemoryBus({
        logger: options.logger ?? captureLogger().logger,
        hub,
        requestTimeoutMs: options.requestTimeoutMs,
      });
      buses.push(bus);
      return bus;
    },
    async injectRaw(channel, data) {
      hub.publish(channel, data);
    },
    async listenRaw(channel) {
      const received: string[] = [];
      unsubscribes.push(hub.subscribe(channel, (data) => received.push(data)));
      return received;
    },
    async setRawKey(key, value) {
      hub.set(key, value);
    },
    async dispose() {
      for (const unsubscribe of unsubscribes) unsubscribe();
      await Promise.all(buses.map((bus) => bus.close()));
    },
  };
}

function redisHarness(): Harness {
  const prefix = `test:${randomUUID()}:`;
  const buses: Bus[] = [];
  const raw = new Redis(REDIS_URL, { lazyConnect: true });
  let rawSub: Redis | null = null;
  return {
    prefix,
    async create(options = {}) {
      const bus = await createRedisBus({
        url: REDIS_URL,
        prefix,
        logger: options.logger ?? captureLogger().logger,
        requestTimeoutMs: options.requestTimeoutMs,
      });
      buses.push(bus);
      return bus;
    },
    async injectRaw(channel, data) {
      await raw.publish(channel, data);
    },
    async listenRaw(channel) {
      const received: string[] = [];
      rawSub ??= new Redis(REDIS_URL);
      rawSub.on('message', (from: string, data: string) => {
        if (from === channel) received.push(data);
      });
      await rawSub.subscribe(channel);
      return received;
    },
    async setRawKey(key, value) {
      await raw.set(key, value);
    },
    async dispose() {
      await Promise.all(buses.map((bus) => bus.close()));
      const keys = await raw.keys(`${prefix}*`);
      if (keys.length > 0) await raw.del(...keys);
      await raw.quit();
      await rawSub?.quit();
    },
  };
}

const nowPlaying: NowPlaying = {
  trackId: 7,
  requestId: 'r-1',
  path: 'artist/album/01 song.flac',
  title: 'Song',
  artist: 'Artist',
  album: 'Album',
  duration: 201.5,
  startedAt: 1_700_000_000_000,
  source: 'rotation',
};

const status: PlayerStatus = { state: 'playing', nowPlaying, position: 12.25, amplify: 1 };

const queueItem: QueueItem = {
  requestId: 'r-2',
  trackId: 9,
  path: 'a/b.mp3',
  title: 'B',
  artist: null,
  duration: null,
  kind: 'request',
};

describe.each([
  ['memory', memoryHarness],
  ['redis', redisHarness],
] as const)('%s bus', (name, makeHarness) => {
  let harness: Harness;

  beforeEach(() => {
    harness = makeHarness();
  });

  afterEach(async () => {
    await harness.dispose();
  });

  describe('events', () => {
    it('delivers validated events to every subscriber, honouring type filters', async () => {
      const a = await harness.create();
      const b = await harness.create();
      const all: EventMessage[] = [];
      const states: EventMessage<'player.state'>[] = [];
      a.onEvent((event) => void all.push(event));
      b.onEvent((event) => void states.push(event), ['player.state']);

      await a.publish('player.state', { state: 'playing', position: 1.5, amplify: 1 });
      await a.publish('queue.changed', { items: [queueItem] });
      await a.publish('player.state', { state: 'paused', position: 2, amplify: 1.5 });

      await waitFor('3 events on a', () => all.length === 3);
      await waitFor('2 events on b', () => states.length === 2);
      expect(all.map((event) => event.type)).toEqual([
        'player.state',
        'queue.changed',
        'player.state',
      ]);
      // Channel order is kept, so b would have seen queue.changed before the second state.
      expect(states.map((event) => event.payload.state)).toEqual(['playing', 'paused']);
      const first = all[0];
      expect(first).toEqual({
        type: 'player.state',
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        ts: expect.any(Number),
        payload: { state: 'playing', position: 1.5, amplify: 1 },
      });
      expect(all[1]?.payload).toEqual({ items: [queueItem] });
    });

    it('never runs handlers inside the publisher and hands out copies', async () => {
      const bus = await harness.create();
      const received: EventMessage<'library.changed'>[] = [];
      bus.onEvent((event) => void received.push(event), ['library.changed']);
      const payload = { added: 1, updated: 0, removed: 0, invalid: 0, paths: ['x.mp3'] };
      const publishing = bus.publish('library.changed', payload);
      expect(received).toHaveLength(0);
      await publishing;
      payload.paths.push('mutated-after-publish.mp3');
      await waitFor('the event', () => received.length === 1);
      expect(received[0]?.payload.paths).toEqual(['x.mp3']);
    });

    it('stops delivering after unsubscribe', async () => {
      const bus = await harness.create();
      const unsubscribed: EventMessage[] = [];
      const marker: EventMessage[] = [];
      const off = bus.onEvent((event) => void unsubscribed.push(event));
      bus.onEvent((event) => void marker.push(event), ['stream.source']);
      off();
      await bus.publish('player.state', { state: 'stopped', position: null, amplify: 1 });
      await bus.publish('stream.source', { mount: '/radio.mp3', connected: true });
      await waitFor('the marker event', () => marker.length === 1);
      expect(unsubscribed).toHaveLength(0);
    });

    it('keeps delivering when a handler throws or rejects', async () => {
      const { logger, lines } = captureLogger();
      const bus = await harness.create({ logger });
      const received: EventMessage[] = [];
      bus.onEvent(() => {
        throw new Error('sync boom');
      });
      bus.onEvent(async () => {
        throw new Error('async boom');
      });
      bus.onEvent((event) => void received.push(event));
      await bus.publish('stream.listeners', {
        mounts: [{ mount: '/radio.mp3', listeners: 2, peak: 3 }],
        total: 2,
      });
      await bus.publish('stream.listeners', { mounts: [], total: 0 });
      await waitFor('both events', () => received.length === 2);
      await waitFor(
        'four error lines',
        () => lines.filter((line) => line.msg === 'event handler failed').length >= 4,
      );
      expect(lines.some((line) => line.level === 'error')).toBe(true);
    });

    it('rejects an invalid payload before sending it', async () => {
      const bus = await harness.create();
      const received: EventMessage[] = [];
      bus.onEvent((event) => void received.push(event));
      await expect(
        bus.publish('player.state', {
          // @ts-expect-error: not a playback state
          state: 'dancing',
          position: null,
          amplify: 1,
        }),
      ).rejects.toMatchObject({ code: 'BUS_INVALID_MESSAGE' });
      await expect(
        bus.publish('player.state', { state: 'playing', position: null, amplify: 9 }),
      ).rejects.toThrow(/amplify/);
      // @ts-expect-error: not an event type
      await expect(bus.publish('player.exploded', {})).rejects.toMatchObject({
        code: 'BUS_INVALID_MESSAGE',
      });
      await bus.publish('stream.source', { mount: '/radio.aac', connected: false });
      await waitFor('the valid event', () => received.length === 1);
      expect(received[0]?.type).toBe('stream.source');
    });
  });

  describe('commands', () => {
    it('answers a request from another bus with a typed result', async () => {
      const scheduler = await harness.create();
      const api = await harness.create();
      const seen: CommandMessage[] = [];
      scheduler.handleCommands({
        'queue.push': async (payload, command) => {
          seen.push(command);
          return { requestId: 'r-2', item: { ...queueItem, trackId: payload.trackId ?? null } };
        },
        'player.status': () => status,
      });
      const pushed = await api.request('queue.push', { trackId: 9 });
      expect(pushed).toEqual({ requestId: 'r-2', item: queueItem });
      expect(pushed.item.kind).toBe('request');
      expect(await api.request('player.status', {})).toEqual(status);
      expect(seen[0]).toMatchObject({
        type: 'queue.push',
        payload: { trackId: 9 },
        replyTo: expect.stringMatching(new RegExp(`^${harness.prefix}radio:reply:`)),
      });
      expect(api.health().pendingRequests).toBe(0);
    });

    it('lets a bus answer its own requests, with a single function handler', async () => {
      const bus = await harness.create();
      const off = bus.handleCommands(
        async (command) => {
          if (command.type === 'amplify.set') return { amplify: command.payload.value };
          return { amplify: 1 };
        },
        ['amplify.get', 'amplify.set'],
      );
      expect(await bus.request('amplify.set', { value: 2.5 })).toEqual({ amplify: 2.5 });
      expect(await bus.request('amplify.get', {})).toEqual({ amplify: 1 });
      off();
      await expect(bus.request('amplify.get', {}, { timeoutMs: 100 })).rejects.toBeInstanceOf(
        BusTimeoutError,
      );
    });

    it('times out with a clear error when no handler answers', async () => {
      const bus = await harness.create();
      const other = await harness.create();
      other.handleCommands({ 'player.skip': async () => status });
      const error = await bus.request('queue.list', {}, { timeoutMs: 150 }).catch((e) => e);
      expect(error).toBeInstanceOf(BusTimeoutError);
      expect(error).toMatchObject({
        code: 'BUS_TIMEOUT',
        commandType: 'queue.list',
        timeoutMs: 150,
      });
      expect((error as Error).message).toMatch(
        /no handler answered command "queue\.list" within 150 ms/,
      );
      expect(bus.health().pendingRequests).toBe(0);
    });

    it('uses the bus default timeout', async () => {
      const bus = await harness.create({ requestTimeoutMs: 120 });
      const started = Date.now();
      await expect(bus.request('player.status', {})).rejects.toMatchObject({
        code: 'BUS_TIMEOUT',
        timeoutMs: 120,
      });
      expect(Date.now() - started).toBeGreaterThanOrEqual(100);
    });

    it('turns a handler error into CommandFailedError with its code', async () => {
      const scheduler = await harness.create();
      const api = await harness.create();
      scheduler.handleCommands({
        'queue.push': async (payload) => {
          throw new RadioError('SCHEDULER_TRACK_NOT_FOUND', `track ${payload.trackId} not found`);
        },
        'player.skip': async () => {
          throw new TypeError('cannot read properties of undefined');
        },
        'library.rescan': async () => {
          throw 'a string, not an error';
        },
      });
      const failed = await api.request('queue.push', { trackId: 42 }).catch((e) => e);
      expect(failed).toBeInstanceOf(CommandFailedError);
      expect(failed).toBeInstanceOf(RadioError);
      expect(failed).toMatchObject({
        code: 'SCHEDULER_TRACK_NOT_FOUND',
        message: 'track 42 not found',
        commandType: 'queue.push',
      });
      await expect(api.request('player.skip', {})).rejects.toMatchObject({
        code: 'INTERNAL',
        message: 'cannot read properties of undefined',
      });
      await expect(api.request('library.rescan', {})).rejects.toMatchObject({ code: 'INTERNAL' });
      // The handler side is still alive.
      scheduler.handleCommands({ 'amplify.get': async () => ({ amplify: 1 }) });
      expect(await api.request('amplify.get', {})).toEqual({ amplify: 1 });
    });

    it('refuses a malformed result on the handler side', async () => {
      const { logger, lines } = captureLogger();
      const scheduler = await harness.create({ logger });
      const api = await harness.create();
      scheduler.handleCommands(
        async () => ({ queued: -1 }) /* a wrong answer for every command */,
        ['playlist.play', 'queue.list'],
      );
      await expect(
        api.request('playlist.play', { playlistId: 3, mode: 'append' }),
      ).rejects.toMatchObject({ code: 'BUS_INVALID_MESSAGE', commandType: 'playlist.play' });
      await expect(api.request('queue.list', {})).rejects.toThrow(/items/);
      expect(lines.some((line) => line.msg === 'command handler failed')).toBe(true);
    });

    it('rejects an invalid request payload before sending it', async () => {
      const bus = await harness.create();
      let called = false;
      bus.handleCommands(async () => {
        called = true;
        return status;
      });
      await expect(
        bus.request('queue.push', { trackId: 1, uri: 'http://x/y.mp3' }),
      ).rejects.toThrow(/exactly one of trackId and uri/);
      await expect(bus.request('queue.push', {})).rejects.toMatchObject({
        code: 'BUS_INVALID_MESSAGE',
      });
      await expect(
        // @ts-expect-error: mode is required
        bus.request('playlist.play', { playlistId: 1 }),
      ).rejects.toMatchObject({ code: 'BUS_INVALID_MESSAGE' });
      expect(called).toBe(false);
    });

    it('allows one handler per command type', async () => {
      const bus = await harness.create();
      const off = bus.handleCommands({ 'player.play': async () => status });
      expect(() => bus.handleCommands({ 'player.play': async () => status })).toThrow(
        expect.objectContaining({ code: 'BUS_HANDLER_CONFLICT' }),
      );
      expect(() => bus.handleCommands(async () => status)).toThrow(/already registered/);
      bus.handleCommands({ 'player.stop': async () => ({ ...status, state: 'stopped' as const }) });
      off();
      bus.handleCommands({ 'player.play': async () => ({ ...status, state: 'paused' as const }) });
      expect((await bus.request('player.play', { trackId: 1 })).state).toBe('paused');
      expect((await bus.request('player.stop', {})).state).toBe('stopped');
    });

    it('ignores an answer that comes after the timeout', async () => {
      const { logger, lines } = captureLogger();
      const api = await harness.create({ logger });
      const scheduler = await harness.create();
      let answered = false;
      scheduler.handleCommands({
        'library.rescan': async () => {
          await new Promise((resolve) => setTimeout(resolve, 200));
          answered = true;
          return { scanId: 's-1' };
        },
      });
      await expect(api.request('library.rescan', {}, { timeoutMs: 50 })).rejects.toBeInstanceOf(
        BusTimeoutError,
      );
      await waitFor('the late answer', () =>
        lines.some((line) => line.msg === 'reply to no pending request'),
      );
      expect(answered).toBe(true);
      expect(await api.request('library.rescan', {})).toEqual({ scanId: 's-1' });
    });

    it('stops waiting when the signal aborts', async () => {
      const bus = await harness.create();
      const controller = new AbortController();
      const pending = bus.request('player.status', {}, { signal: controller.signal });
      controller.abort(new Error('client went away'));
      await expect(pending).rejects.toThrow('client went away');
      await expect(
        bus.request('player.status', {}, { signal: AbortSignal.abort() }),
      ).rejects.toMatchObject({ name: 'AbortError' });
      expect(bus.health().pendingRequests).toBe(0);
    });
  });

  describe('malformed messages', () => {
    it('logs and drops garbage on the channels, and keeps working', async () => {
      const { logger, lines } = captureLogger();
      const bus = await harness.create({ logger });
      const events: EventMessage[] = [];
      const commands: CommandMessage[] = [];
      bus.onEvent((event) => void events.push(event));
      bus.handleCommands(async (command) => {
        commands.push(command);
        return status;
      });
      const eventsChannel = `${harness.prefix}radio:events`;
      const commandsChannel = `${harness.prefix}radio:commands`;
      const envelope = { id: randomUUID(), ts: Date.now() };
      await harness.injectRaw(eventsChannel, 'this is not json {');
      await harness.injectRaw(eventsChannel, JSON.stringify([1, 2, 3]));
      await harness.injectRaw(
        eventsChannel,
        JSON.stringify({ ...envelope, type: 'player.exploded', payload: {} }),
      );
      await harness.injectRaw(
        eventsChannel,
        JSON.stringify({ ...envelope, type: 'player.state', payload: { state: 'loud' } }),
      );
      await harness.injectRaw(commandsChannel, '\u0000\u0001garbage');
      await harness.injectRaw(
        commandsChannel,
        JSON.stringify({ ...envelope, type: 'player.status', payload: {} }), // no replyTo
      );
      await harness.injectRaw(
        commandsChannel,
        JSON.stringify({
          ...envelope,
          type: 'player.status',
          replyTo: `${harness.prefix}radio:events`, // not a reply channel
          payload: {},
        }),
      );

      await waitFor('7 warnings', () => bus.health().invalidMessages === 7);
      const warnings = lines.filter((line) => line.msg === 'dropped a malformed bus message');
      expect(warnings.every((line) => line.level === 'warn')).toBe(true);
      const reasons = warnings.map((line) => String(line.reason));
      expect(reasons).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/^not JSON/),
          expect.stringMatching(/^not an event envelope/),
          'unknown event type "player.exploded"',
          expect.stringMatching(/^invalid payload for event "player.state": state: /),
          expect.stringMatching(/^not a command envelope: replyTo/),
          expect.stringMatching(/is not a reply channel/),
        ]),
      );
      expect(warnings.some((line) => String(line.raw).startsWith('this is not json'))).toBe(true);
      expect(events).toHaveLength(0);
      expect(commands).toHaveLength(0);

      await bus.publish('player.state', { state: 'playing', position: 0, amplify: 1 });
      await waitFor('a valid event', () => events.length === 1);
      expect(await bus.request('player.status', {})).toEqual(status);
    });

    it('answers a command whose payload is malformed, so the sender fails fast', async () => {
      const bus = await harness.create();
      bus.handleCommands({ 'amplify.set': async ({ value }) => ({ amplify: value }) });
      const replyTo = `${harness.prefix}radio:reply:raw-${randomUUID()}`;
      const replies = await harness.listenRaw(replyTo);
      const id = randomUUID();
      await harness.injectRaw(
        `${harness.prefix}radio:commands`,
        JSON.stringify({
          type: 'amplify.set',
          id,
          ts: Date.now(),
          replyTo,
          payload: { value: 99 },
        }),
      );
      await waitFor('the error reply', () => replies.length === 1);
      expect(JSON.parse(replies[0] ?? '')).toMatchObject({
        type: 'reply',
        inReplyTo: id,
        payload: { ok: false, error: { code: 'BUS_INVALID_MESSAGE', message: /value/ } },
      });
    });

    it('drops a malformed reply and rejects the request it answers', async () => {
      const bus = await harness.create();
      const commands = await harness.listenRaw(`${harness.prefix}radio:commands`);
      const pending = bus.request('amplify.get', {}, { timeoutMs: 3000 });
      const rejected = expect(pending).rejects.toMatchObject({ code: 'BUS_INVALID_MESSAGE' });
      await waitFor('the command on the wire', () => commands.length === 1);
      const command = JSON.parse(commands[0] ?? '') as { id: string; replyTo: string };
      await harness.injectRaw(command.replyTo, '{"type":"reply"');
      await harness.injectRaw(
        command.replyTo,
        JSON.stringify({
          type: 'reply',
          id: randomUUID(),
          ts: Date.now(),
          inReplyTo: command.id,
          payload: { ok: true, result: { amplify: 'loud' } },
        }),
      );
      await rejected;
      expect(bus.health().invalidMessages).toBe(2);
    });
  });

  describe('state', () => {
    it('keeps the latest value per key for newcomers', async () => {
      const scheduler = await harness.create();
      expect(await scheduler.getState('now-playing')).toBeNull();
      await scheduler.setState('now-playing', { ...nowPlaying, title: 'first' });
      await scheduler.setState('now-playing', nowPlaying);
      await scheduler.setState('player-state', { state: 'paused', position: 3, amplify: 0.5 });
      const newcomer = await harness.create();
      expect(await newcomer.getState('now-playing')).toEqual(nowPlaying);
      const playerState = await newcomer.getState('player-state');
      expect(playerState?.state).toBe('paused');
      expect(await newcomer.getState('listeners')).toBeNull();
    });

    it('publishes a stateful event and stores its payload under its state key', async () => {
      const scheduler = await harness.create();
      const listener = await harness.create();
      const heard: EventMessage[] = [];
      listener.onEvent((event) => void heard.push(event), ['player.now-playing']);
      await scheduler.publishState('player.now-playing', nowPlaying);
      await waitFor('the event', () => heard.length === 1);
      expect(heard[0]?.payload).toEqual(nowPlaying);
      const newcomer = await harness.create();
      expect(await newcomer.getState('now-playing')).toEqual(nowPlaying);
    });

    it('validates values on both sides', async () => {
      const { logger, lines } = captureLogger();
      const bus = await harness.create({ logger });
      await expect(
        // @ts-expect-error: total is required
        bus.setState('listeners', { mounts: [] }),
      ).rejects.toMatchObject({ code: 'BUS_INVALID_MESSAGE' });
      await harness.setRawKey(`${harness.prefix}radio:state:queue`, '{"items":[{"title":1}]}');
      await harness.setRawKey(`${harness.prefix}radio:state:library-scan`, 'nope');
      expect(await bus.getState('queue')).toBeNull();
      expect(await bus.getState('library-scan')).toBeNull();
      expect(
        lines.filter(
          (line) => line.msg === 'dropped a malformed bus message' && line.level === 'warn',
        ),
      ).toHaveLength(2);
    });
  });

  describe('close', () => {
    it('rejects pending requests, refuses new calls and is idempotent', async () => {
      const bus = await harness.create();
      const other = await harness.create();
      const received: EventMessage[] = [];
      bus.onEvent((event) => void received.push(event));
      const pending = bus.request('player.status', {}, { timeoutMs: 10_000 });
      const first = bus.close();
      const second = bus.close();
      expect(second).toBe(first);
      await expect(pending).rejects.toBeInstanceOf(BusClosedError);
      await expect(pending).rejects.toMatchObject({
        code: 'BUS_CLOSED',
        message: expect.stringContaining('player.status'),
      });
      await first;
      await bus.close();

      const closed = { code: 'BUS_CLOSED' };
      await expect(
        bus.publish('stream.source', { mount: '/radio.mp3', connected: true }),
      ).rejects.toMatchObject(closed);
      await expect(bus.request('player.status', {})).rejects.toMatchObject(closed);
      await expect(bus.setState('queue', { items: [] })).rejects.toMatchObject(closed);
      await expect(bus.getState('queue')).rejects.toMatchObject(closed);
      expect(() => bus.onEvent(() => {})).toThrow(BusClosedError);
      expect(() => bus.handleCommands(async () => status)).toThrow(BusClosedError);
      expect(bus.health()).toMatchObject({ connected: false, closed: true, pendingRequests: 0 });

      // The others carry on, and the closed bus hears nothing more.
      const heard: EventMessage[] = [];
      other.onEvent((event) => void heard.push(event));
      await other.publish('stream.source', { mount: '/radio.mp3', connected: true });
      await waitFor('the event on the open bus', () => heard.length === 1);
      expect(received).toHaveLength(0);
    });

    it('reports health', async () => {
      const bus = await harness.create();
      expect(bus.health()).toEqual({
        kind: name,
        connected: true,
        closed: false,
        disconnectedSince: null,
        pendingRequests: 0,
        droppedEvents: 0,
        invalidMessages: 0,
      });
    });
  });
});
