/**
 * The message catalogue: the schemas services rely on, and (checked by `tsc`, through the
 * `@ts-expect-error` lines) the typing of publish, request, handlers and state by type.
 */
import { describe, expect, it } from '@jest/globals';
import {
  type Bus,
  COMMAND_TYPES,
  type CommandMessage,
  commandPayloadSchemas,
  commandResultSchemas,
  createMemoryBus,
  EVENT_TYPES,
  type EventMessage,
  eventPayloadSchemas,
  STATE_KEYS,
  stateSchemas,
} from '../src/bus/index.ts';
import { silentLogger } from '../src/logging/logger.ts';

describe('bus message catalogue', () => {
  it('lists every event, command and state key', () => {
    expect(EVENT_TYPES).toEqual([
      'stream.listeners',
      'stream.source',
      'edge.listeners',
      'player.now-playing',
      'player.state',
      'queue.changed',
      'library.changed',
      'library.scan',
      'library.analysis',
      'playout.dead_air',
      'live.connected',
      'live.disconnected',
      'live.silent',
      'live.resumed',
      'live.state',
      'user.changed',
      'schedule.timeline',
      'requests.updated',
      'bus.ping',
    ]);
    expect(COMMAND_TYPES).toEqual([
      'player.play',
      'player.pause',
      'player.stop',
      'player.resume',
      'player.skip',
      'player.status',
      'queue.push',
      'queue.list',
      'queue.remove',
      'playlist.play',
      'amplify.get',
      'amplify.set',
      'library.rescan',
      'live.kick',
      'schedule.reload',
      'schedule.timeline',
      'listeners.sessions',
    ]);
    expect(Object.keys(commandResultSchemas)).toEqual(COMMAND_TYPES);
    expect(STATE_KEYS).toEqual([
      'now-playing',
      'player-state',
      'listeners',
      'queue',
      'library-scan',
      'library-analysis',
      'live-state',
      'timeline',
    ]);
  });

  it('accepts exactly one of trackId and uri in queue.push', () => {
    const push = commandPayloadSchemas['queue.push'];
    expect(push.safeParse({ trackId: 1 }).success).toBe(true);
    expect(push.safeParse({ uri: 'http://example.com/a.mp3' }).success).toBe(true);
    expect(push.safeParse({}).success).toBe(false);
    expect(push.safeParse({ trackId: 1, uri: 'x' }).success).toBe(false);
    expect(push.safeParse({ trackId: 0 }).success).toBe(false);
    expect(push.safeParse({ uri: '' }).success).toBe(false);
  });

  it('bounds amplify to 0..4 and refuses play with both a track and a playlist', () => {
    const set = commandPayloadSchemas['amplify.set'];
    expect(set.safeParse({ value: 0 }).success).toBe(true);
    expect(set.safeParse({ value: 4 }).success).toBe(true);
    expect(set.safeParse({ value: 4.01 }).success).toBe(false);
    expect(set.safeParse({ value: -1 }).success).toBe(false);
    const play = commandPayloadSchemas['player.play'];
    expect(play.safeParse({}).success).toBe(true);
    expect(play.safeParse({ playlistId: 2 }).success).toBe(true);
    expect(play.safeParse({ trackId: 1, playlistId: 2 }).success).toBe(false);
  });

  it('describes the live input: on air, waiting, silent, recording, and whom a kick drops', () => {
    const source = { dj: { id: 3, name: 'Ana' }, since: 1, title: null, bytesIn: 0, format: 'mp3' };
    const state = stateSchemas['live-state'];
    expect(
      state.safeParse({ onAir: source, waiting: [], silent: false, recording: true }).success,
    ).toBe(true);
    expect(
      state.safeParse({ onAir: null, waiting: [], silent: false, recording: false }).success,
    ).toBe(true);
    expect(state.safeParse({ onAir: { ...source, title: undefined }, waiting: [] }).success).toBe(
      false,
    );
    const silent = eventPayloadSchemas['live.silent'];
    expect(
      silent.safeParse({ dj: source.dj, mount: '/live', at: 2, silentSeconds: 15 }).success,
    ).toBe(true);
    expect(silent.safeParse({ dj: source.dj, mount: '/live', at: 2 }).success).toBe(false);
    const kick = commandPayloadSchemas['live.kick'];
    expect(kick.safeParse({ target: 'waiting' }).success).toBe(true);
    expect(kick.safeParse({ target: 'everyone' }).success).toBe(false);
    expect(commandResultSchemas['live.kick'].safeParse({ kicked: [source.dj] }).success).toBe(true);
  });

  it('keeps nullable fields present and numbers finite', () => {
    const nowPlaying = eventPayloadSchemas['player.now-playing'];
    const valid = {
      trackId: null,
      requestId: null,
      path: null,
      title: 'Live',
      artist: null,
      album: null,
      duration: null,
      startedAt: 1,
      source: 'playlist',
    };
    expect(nowPlaying.safeParse(valid).success).toBe(true);
    const { album: _album, ...withoutAlbum } = valid;
    expect(nowPlaying.safeParse(withoutAlbum).success).toBe(false);
    expect(nowPlaying.safeParse({ ...valid, duration: Number.POSITIVE_INFINITY }).success).toBe(
      false,
    );
    const listeners = eventPayloadSchemas['stream.listeners'];
    expect(
      listeners.safeParse({ mounts: [{ mount: 'radio.mp3', listeners: 1, peak: 1 }], total: 1 })
        .success,
    ).toBe(false);
    expect(stateSchemas['library-scan'].safeParse({ scanId: 's', state: 'running' }).success).toBe(
      false,
    );
  });

  it('types every call by message type', async () => {
    const bus: Bus = createMemoryBus({ logger: silentLogger() });
    try {
      // Events: the handler's event narrows by type.
      const off = bus.onEvent((event: EventMessage) => {
        if (event.type === 'player.now-playing') {
          const title: string = event.payload.title;
          void title;
        }
      });
      off();
      bus.onEvent(
        (event) => {
          const mounts: { mount: string }[] = event.payload.mounts;
          void mounts;
        },
        ['stream.listeners'],
      );
      // @ts-expect-error: a handler for one type needs the types filter
      bus.onEvent((event: EventMessage<'player.state'>) => void event);

      // Commands: results are typed by command, and handlers must return the right result.
      bus.handleCommands({ 'queue.list': async () => ({ items: [] }) });
      // @ts-expect-error: amplify.get answers { amplify }
      bus.handleCommands({ 'amplify.get': async () => ({ queued: 1 }) });
      bus.handleCommands(
        async (command: CommandMessage) => {
          if (command.type === 'playlist.play') return { queued: command.payload.playlistId };
          return null;
        },
        ['playlist.play'],
      );
      const result = await bus.request('queue.list', {});
      const requestIds: string[] = result.items.map((item) => item.requestId);
      expect(requestIds).toEqual([]);
      await bus.request('amplify.get', {}).catch(() => {});
      // @ts-expect-error: not a command
      await bus.request('queue.clear', {}).catch(() => {});

      // State: values are typed by key.
      const queue = await bus.getState('queue');
      expect(queue).toBeNull();
      // @ts-expect-error: now-playing holds a NowPlaying
      await bus.setState('now-playing', { state: 'playing' }).catch(() => {});
    } finally {
      await bus.close();
    }
  });
});
