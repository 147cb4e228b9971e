import { afterAll, describe, expect, test } from '@jest/globals';
import { type Bus, createMemoryBus, type EventMessage, silentLogger } from '@radio/core';
import { waitFor } from '@radio/core/testing';
import { pushSine, Resources, StreamListener } from './helpers.ts';

const resources = new Resources();
afterAll(() => resources.dispose());

describe('bus', () => {
  test('publishes source events and listener counts, and keeps the counts in a state key', async () => {
    const bus: Bus = createMemoryBus({ logger: silentLogger() });
    resources.onCleanup(() => bus.close());
    const events: EventMessage[] = [];
    bus.onEvent((event) => {
      events.push(event);
    });
    const server = await resources.server({}, bus);
    const ofType = (type: string) => events.filter((event) => event.type === type);

    // At start: counts of every configured mount, all zero.
    await waitFor('the first listener counts', () => ofType('stream.listeners').length > 0);
    expect(ofType('stream.listeners')[0]?.payload).toEqual({
      mounts: [
        { mount: '/radio.mp3', listeners: 0, peak: 0 },
        { mount: '/radio.aac', listeners: 0, peak: 0 },
        { mount: '/radio-low.mp3', listeners: 0, peak: 0 },
      ],
      total: 0,
    });

    const source = pushSine(resources, server, { mount: '/radio.mp3' });
    await waitFor('the source event', () => ofType('stream.source').length > 0);
    expect(ofType('stream.source')[0]?.payload).toEqual({
      mount: '/radio.mp3',
      connected: true,
      contentType: 'audio/mpeg',
      bitrate: 128,
    });

    const listeners = [1, 2, 3].map(() => new StreamListener(server.port, '/radio.mp3'));
    for (const listener of listeners) resources.socket(listener.socket);
    await waitFor('a count of three listeners', () =>
      ofType('stream.listeners').some((e) => (e.payload as { total: number }).total === 3),
    );
    const three = ofType('stream.listeners').find(
      (e) => (e.payload as { total: number }).total === 3,
    )?.payload as { mounts: { mount: string; listeners: number; peak: number }[] } | undefined;
    expect(three?.mounts[0]).toEqual({ mount: '/radio.mp3', listeners: 3, peak: 3 });
    // At most one update a second: three connects in a burst give at most two updates.
    const times = ofType('stream.listeners').map((e) => e.ts);
    for (let i = 1; i < times.length; i++) {
      expect((times[i] as number) - (times[i - 1] as number)).toBeGreaterThanOrEqual(990);
    }
    await waitFor('the state key', async () => (await bus.getState('listeners'))?.total === 3);

    for (const listener of listeners) listener.close();
    await waitFor(
      'the state key back at zero',
      async () => (await bus.getState('listeners'))?.total === 0,
    );

    await source.dispose();
    await waitFor('the source-left event', () =>
      ofType('stream.source').some(
        (e) => (e.payload as { connected: boolean }).connected === false,
      ),
    );
  });
});
