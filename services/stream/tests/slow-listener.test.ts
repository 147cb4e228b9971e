import net from 'node:net';
import { afterAll, describe, expect, jest, test } from '@jest/globals';
import { waitFor } from '@radio/core/testing';
import type { StreamServer } from '../src/index.ts';
import { mp3Frames, Resources, SOURCE_AUTH, StreamListener } from './helpers.ts';

const resources = new Resources();
afterAll(() => resources.dispose());

/**
 * A raw source pushing `bytesPerSecond` of MP3 frames (faster than real time, so the queue
 * limit is reached in seconds). Returns how many bytes it has pushed so far.
 */
async function fastSource(
  server: StreamServer,
  mount: string,
  bytesPerSecond: number,
): Promise<() => number> {
  const frames = mp3Frames(2000);
  const socket = resources.socket(net.connect(server.port, '127.0.0.1'));
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  socket.write(
    `SOURCE ${mount} HTTP/1.0\r\nAuthorization: ${SOURCE_AUTH}\r\nContent-Type: audio/mpeg\r\n\r\n`,
  );
  await new Promise<void>((resolve) => socket.once('data', () => resolve()));
  let offset = 0;
  let pushed = 0;
  const step = Math.round(bytesPerSecond / 20);
  const timer = setInterval(() => {
    if (offset + step > frames.length) offset = 0;
    socket.write(frames.subarray(offset, offset + step));
    offset += step;
    pushed += step;
  }, 50);
  resources.onCleanup(() => clearInterval(timer));
  socket.on('close', () => clearInterval(timer));
  return () => pushed;
}

/** A listener that reads the response head and then nothing more. */
function stuckListener(
  server: StreamServer,
  mount: string,
): { socket: net.Socket; closed: () => boolean } {
  let closed = false;
  const socket = resources.socket(
    net.connect(server.port, '127.0.0.1', () => socket.write(`GET ${mount} HTTP/1.0\r\n\r\n`)),
  );
  socket.once('data', () => socket.pause());
  socket.on('error', () => {});
  socket.on('close', () => {
    closed = true;
  });
  return { socket, closed: () => closed };
}

const slowCount = (server: StreamServer, mount: string): number =>
  server.snapshot().mounts.find((m) => m.path === mount)?.slowListeners ?? -1;

describe('slow listeners', () => {
  jest.setTimeout(120_000);

  test('a listener that falls behind by the queue limit is dropped; the others keep their rate', async () => {
    const server = await resources.server({
      queueLimit: 128 * 1024,
      stallTimeoutMs: 600_000,
      sweepIntervalMs: 200,
    });
    const pushed = await fastSource(server, '/radio.mp3', 256 * 1024);
    const good = new StreamListener(server.port, '/radio.mp3');
    resources.socket(good.socket);
    await waitFor('the good listener', () => good.bodyBytes > 0);
    const pushedAtStart = pushed();
    const stuck = stuckListener(server, '/radio.mp3');

    await waitFor(
      'the stuck listener to be dropped',
      () => slowCount(server, '/radio.mp3') === 1,
      60_000,
    );
    // It reads again: it finds the connection closed.
    stuck.socket.resume();
    await waitFor('the end of its connection', () => stuck.closed());
    expect(good.closed).toBe(false);
    // The good listener got (nearly) everything the source pushed meanwhile: 90 % of it.
    await waitFor(
      'the good listener to keep up with the source',
      () => good.bodyBytes >= (pushed() - pushedAtStart) * 0.9,
    );
    expect(good.closed).toBe(false);
    good.close();
  });

  test('a listener whose peer stops taking data is dropped after the stall timeout', async () => {
    const server = await resources.server({
      queueLimit: 64 * 1024 * 1024,
      stallTimeoutMs: 1500,
      sweepIntervalMs: 250,
    });
    await fastSource(server, '/radio.mp3', 128 * 1024);
    const good = new StreamListener(server.port, '/radio.mp3');
    resources.socket(good.socket);
    const stuck = stuckListener(server, '/radio.mp3');
    await waitFor(
      'the stalled listener to be dropped',
      () => slowCount(server, '/radio.mp3') === 1,
      60_000,
    );
    stuck.socket.resume();
    await waitFor('the end of its connection', () => stuck.closed());
    expect(good.closed).toBe(false);
    const before = good.bodyBytes;
    await waitFor(
      'the good listener to keep receiving',
      () => good.bodyBytes > before + 128 * 1024,
    );
    good.close();
  });
});
