import { afterEach, describe, expect, test } from '@jest/globals';
import {
  type Bus,
  type CommandPayloads,
  createMemoryBus,
  type ListenerSessionRecord,
  RadioError,
  silentLogger,
} from '@radio/core';
import { waitFor } from '@radio/core/testing';
import {
  type FinishedSession,
  SessionRecorder,
  type SessionRecorderOptions,
} from './session-recorder.ts';

const OPTIONS: SessionRecorderOptions = {
  enabled: true,
  bufferSize: 100,
  batchSize: 10,
  flushMs: 50,
  retryMs: 20,
  retryMaxMs: 80,
  requestTimeoutMs: 1000,
  closeTimeoutMs: 500,
};

function session(n: number): FinishedSession {
  return {
    mount: '/radio.mp3',
    transport: 'icecast',
    startedAt: 1000 * n,
    endedAt: 1000 * n + 500,
    bytes: n,
    userAgent: `agent ${n}`,
    ip: '192.0.2.1',
  };
}

describe('SessionRecorder', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  function setup(options: Partial<SessionRecorderOptions> = {}) {
    const logger = silentLogger();
    const bus: Bus = createMemoryBus({ logger });
    const recorder = new SessionRecorder({ ...OPTIONS, ...options }, { bus, log: logger });
    cleanups.push(() => bus.close());
    cleanups.push(() => recorder.close());
    const stored: ListenerSessionRecord[] = [];
    let failing = false;
    const batches: CommandPayloads['listeners.sessions'][] = [];
    bus.handleCommands({
      'listeners.sessions': (payload) => {
        batches.push(payload);
        if (failing) throw new RadioError('API_DB', 'database away');
        stored.push(...payload.sessions);
        return { stored: payload.sessions.length };
      },
    });
    return {
      recorder,
      stored,
      batches,
      fail: (value: boolean) => {
        failing = value;
      },
    };
  }

  test('sends batches named by the node; a full batch goes at once', async () => {
    const { recorder, stored, batches } = setup({ flushMs: 60_000 });
    recorder.start('node-a:8000');
    for (let i = 0; i < 25; i++) recorder.record(session(i));
    // Their receipts come a moment after the handler stored them.
    await waitFor('two full batches', () => recorder.stats().sent === 20);
    expect(batches.every((batch) => batch.node === 'node-a:8000')).toBe(true);
    expect(new Set(stored.map((s) => s.key)).size).toBe(20);
    expect(recorder.stats()).toEqual({ buffered: 5, sent: 20, dropped: 0, failures: 0 });
    await recorder.close();
    expect(stored).toHaveLength(25);
    expect(stored.map((s) => s.bytes)).toEqual([...Array(25).keys()]);
  });

  test('keeps what failed and sends it again; a full buffer drops the oldest', async () => {
    const { recorder, stored, fail } = setup({ bufferSize: 30 });
    recorder.start('node-a:8000');
    fail(true);
    for (let i = 0; i < 40; i++) recorder.record(session(i));
    await waitFor('a failed batch', () => recorder.stats().failures >= 2);
    expect(recorder.stats()).toMatchObject({ buffered: 30, dropped: 10, sent: 0 });
    fail(false);
    await waitFor('everything stored', () => stored.length === 30, 5000);
    // The first ten were in flight when the buffer overflowed (the api may have them), so the
    // ten oldest after them went; the rest arrive in order, each once.
    const kept = [...Array(40).keys()].filter((i) => i < 10 || i >= 20);
    expect(stored.map((s) => s.bytes)).toEqual(kept);
    expect(recorder.stats()).toMatchObject({ buffered: 0, sent: 30, dropped: 10 });
  });

  test('cuts over-long user agents and never lets an end come before its start', async () => {
    const { recorder, stored } = setup();
    recorder.start('n');
    recorder.record({ ...session(1), userAgent: 'x'.repeat(2000), endedAt: 10 });
    await recorder.close();
    expect(stored[0]?.userAgent).toHaveLength(512);
    expect(stored[0]?.endedAt).toBe(stored[0]?.startedAt);
  });

  test('a batch the bus refuses as invalid is dropped, not retried ahead of the rest', async () => {
    const { recorder, stored } = setup({ batchSize: 2 });
    recorder.start('n');
    recorder.record({ ...session(1), mount: 'not-a-mount' });
    recorder.record(session(2));
    recorder.record(session(3));
    recorder.record(session(4));
    await waitFor('the valid batch receipted', () => recorder.stats().sent === 2);
    expect(stored.map((s) => s.bytes)).toEqual([3, 4]);
    expect(recorder.stats()).toMatchObject({ dropped: 2, sent: 2, buffered: 0 });
  });

  test('close gives up after its timeout and counts what is left as dropped', async () => {
    const { recorder, fail } = setup({ closeTimeoutMs: 200 });
    recorder.start('n');
    fail(true);
    for (let i = 0; i < 5; i++) recorder.record(session(i));
    const since = Date.now();
    await recorder.close();
    expect(Date.now() - since).toBeLessThan(2000);
    expect(recorder.stats()).toMatchObject({ buffered: 0, dropped: 5, sent: 0 });
  });

  test('without a bus nothing is kept', async () => {
    const recorder = new SessionRecorder(OPTIONS, { bus: null, log: silentLogger() });
    recorder.start('n');
    recorder.record(session(1));
    expect(recorder.stats()).toEqual({ buffered: 0, sent: 0, dropped: 0, failures: 0 });
    await recorder.close();
  });
});
