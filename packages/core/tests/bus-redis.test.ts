/**
 * What only the Redis bus has: connecting, and surviving a Redis restart. The restart test runs
 * its own redis-server on a free port, so it never disturbs the shared one.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { afterAll, afterEach, describe, expect, it } from '@jest/globals';
import {
  type Bus,
  createRedisBus,
  type EventMessage,
  type PlayerState,
  type PlayerStatus,
} from '../src/bus/index.ts';
import { captureLogger, freePort, waitFor } from '../src/testing/index.ts';

/** Starts redis-server in the foreground and resolves once it accepts connections. */
async function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`redis-server did not start:\n${output}`)),
      10_000,
    );
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited with ${code}:\n${output}`));
    });
  });
  return child;
}

async function stopRedis(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  if (child.pid !== undefined) process.kill(child.pid, 'SIGKILL');
  await exited;
}

const playing: PlayerState = { state: 'playing', position: 10, amplify: 1 };
const status: PlayerStatus = { state: 'playing', nowPlaying: null, position: 10, amplify: 1 };

describe('redis bus: connecting', () => {
  it('fails with a clear error when Redis cannot be reached', async () => {
    const port = await freePort();
    const started = Date.now();
    const error = await createRedisBus({
      url: `redis://:secret@127.0.0.1:${port}`,
      logger: captureLogger().logger,
      connectTimeoutMs: 300,
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'BUS_UNAVAILABLE' });
    const message = (error as Error).message;
    expect(message).toContain(`cannot connect to Redis at redis://:***@127.0.0.1:${port}`);
    expect(message).toContain('within 300 ms');
    expect(message).not.toContain('secret');
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('checks its options', async () => {
    const logger = captureLogger().logger;
    await expect(createRedisBus({ url: 'localhost:6379', logger })).rejects.toThrow(/redis:\/\//);
    await expect(createRedisBus({ url: 'http://127.0.0.1:6379', logger })).rejects.toThrow(
      TypeError,
    );
    await expect(
      createRedisBus({ url: 'redis://127.0.0.1:6379', logger, requestTimeoutMs: 0 }),
    ).rejects.toThrow(RangeError);
  });
});

describe('redis bus: Redis restarts', () => {
  let server: ChildProcess | null = null;
  const buses: Bus[] = [];

  afterEach(async () => {
    await Promise.all(buses.splice(0).map((bus) => bus.close()));
  });

  afterAll(async () => {
    if (server) await stopRedis(server);
  });

  it('reconnects, resubscribes, restores its state and logs the outage once', async () => {
    const port = await freePort();
    server = await startRedis(port);
    const url = `redis://127.0.0.1:${port}`;
    const schedulerLog = captureLogger();
    const apiLog = captureLogger();
    const options = { url, maxReconnectDelayMs: 200, requestTimeoutMs: 2000 };
    const scheduler = await createRedisBus({ ...options, logger: schedulerLog.logger });
    buses.push(scheduler);
    const api = await createRedisBus({ ...options, logger: apiLog.logger });
    buses.push(api);

    const heard: EventMessage<'player.state'>[] = [];
    scheduler.onEvent((event) => void heard.push(event), ['player.state']);
    scheduler.handleCommands({ 'player.status': async () => status });
    await scheduler.setState('player-state', playing);
    expect(await api.request('player.status', {})).toEqual(status);

    // Redis dies.
    await stopRedis(server);
    await waitFor(
      'both buses to notice',
      () => !scheduler.health().connected && !api.health().connected,
    );
    // Let ioredis fail a few reconnection attempts, to show they are not logged one by one.
    await waitFor(
      '3 failed attempts',
      () => schedulerLog.lines.filter((line) => line.msg === 'reconnecting to Redis').length >= 3,
    );
    expect(api.health().disconnectedSince).toEqual(expect.any(Number));

    // Meanwhile: events are dropped, requests and reads fail fast, state is kept.
    await api.publish('player.state', { state: 'paused', position: 11, amplify: 1 });
    await api.publish('player.state', { state: 'paused', position: 12, amplify: 1 });
    expect(api.health().droppedEvents).toBe(2);
    await expect(api.request('player.status', {})).rejects.toMatchObject({
      code: 'BUS_UNAVAILABLE',
      message: expect.stringContaining('player.status'),
    });
    await expect(api.getState('player-state')).rejects.toMatchObject({ code: 'BUS_UNAVAILABLE' });
    const stopped: PlayerState = { state: 'stopped', position: null, amplify: 1 };
    await scheduler.setState('player-state', stopped);

    // Redis comes back empty (no persistence), on the same port.
    server = await startRedis(port);
    await waitFor(
      'both buses to reconnect',
      () => scheduler.health().connected && api.health().connected,
    );

    // Subscriptions are back: an event published now is heard.
    await api.publish('player.state', playing);
    await waitFor('the event after the restart', () => heard.length === 1);
    expect(heard[0]?.payload).toEqual(playing);
    // Commands and replies flow again.
    expect(await api.request('player.status', {})).toEqual(status);
    // The scheduler wrote its state again, with the value set during the outage.
    let restored: PlayerState | null = null;
    const deadline = Date.now() + 5000;
    while (restored === null && Date.now() < deadline) {
      restored = await api.getState('player-state');
      if (restored === null) await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(restored).toEqual(stopped);

    for (const { lines } of [schedulerLog, apiLog]) {
      const lost = lines.filter(
        (line) => line.msg === 'lost the connection to Redis; reconnecting',
      );
      const back = lines.filter((line) => line.msg === 'reconnected to Redis');
      expect(lost).toHaveLength(1);
      expect(lost[0]?.level).toBe('warn');
      expect(back).toHaveLength(1);
      expect(back[0]).toMatchObject({ level: 'info', downMs: expect.any(Number) });
    }
    const dropping = apiLog.lines.filter((line) =>
      line.msg.startsWith('bus unreachable: dropping'),
    );
    expect(dropping).toHaveLength(1);
    expect(
      apiLog.lines.some((line) => line.msg === 'publishing events again' && line.dropped === 2),
    ).toBe(true);
  });

  it('closes cleanly while Redis is down', async () => {
    const port = await freePort();
    const own = await startRedis(port);
    const bus = await createRedisBus({
      url: `redis://127.0.0.1:${port}`,
      logger: captureLogger().logger,
      maxReconnectDelayMs: 100,
    });
    let received = false;
    bus.handleCommands({
      'player.status': () => {
        received = true;
        return new Promise<never>(() => {}); // never answers
      },
    });
    const pending = bus.request('player.status', {}, { timeoutMs: 10_000 });
    const rejected = expect(pending).rejects.toMatchObject({ code: 'BUS_CLOSED' });
    // Only kill Redis once the command went through, so the request is waiting for its answer.
    await waitFor('the command to arrive', () => received);
    await stopRedis(own);
    await waitFor('the bus to notice', () => !bus.health().connected);
    await bus.close();
    await rejected;
    expect(bus.health()).toMatchObject({ closed: true, connected: false });
  });
});
