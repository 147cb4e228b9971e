import { mkdtemp, rm } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { createMemoryBus, FailureLimiter, MetricsEndpoint, silentLogger } from '@radio/core';
import { captureLogger, type LogLine, waitFor } from '@radio/core/testing';
import { createDb, type DbHandle, migrateToLatest } from '@radio/db';
import { Registry } from 'prom-client';
import { basic, createDj, type TestDj } from '../../tests/helpers/live.ts';
import { ffmpegPath } from '../../tests/helpers/station.ts';
import { DjCredentials } from './dj-credentials.ts';
import { type HarborOptions, HarborServer } from './harbor-server.ts';
import { LiveInput } from './live-input.ts';

jest.setTimeout(30_000);

const METRICS_LOGIN = { user: 'admin', password: 'metrics-password' };

/** A connection to the live port from `from` (any 127.x address is this machine's). */
function open(port: number, from = '127.0.0.1') {
  return new Promise<Socket>((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1', localAddress: from }, () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Everything the server sends until it closes the connection (bounded). */
function answer(socket: Socket, ms = 10_000): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const timer = setTimeout(() => reject(new Error(`no close within ${ms} ms: ${text}`)), ms);
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('latin1');
    });
    socket.on('error', () => {});
    socket.once('close', () => {
      clearTimeout(timer);
      resolve(text);
    });
  });
}

/** One request on a new connection from `from`; its whole answer. */
async function ask(port: number, head: string, from?: string): Promise<string> {
  const socket = await open(port, from);
  const reply = answer(socket);
  socket.write(head);
  return reply;
}

describe('the live port against strangers', () => {
  let dir: string;
  let db: DbHandle;
  let input: LiveInput;
  let anna: TestDj;
  let logs: LogLine[];
  const harbors: HarborServer[] = [];
  const sockets: Socket[] = [];

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'harbor-'));
    db = await createDb(`sqlite:${join(dir, 'radio.db')}`);
    await migrateToLatest(db.db);
    anna = await createDj(db, 'anna', { name: 'Anna' });
    input = new LiveInput({
      ffmpegPath,
      db: db.db,
      bus: createMemoryBus({ logger: silentLogger() }),
      logger: silentLogger(),
      titles: { liveChanged: () => {} },
      autoDj: (out) => out.fill(0),
      fadeSeconds: 0.3,
      silenceSeconds: 3,
      recordingsDir: null,
      idleTimeoutMs: 5000,
    });
  });

  afterEach(async () => {
    for (const socket of sockets.splice(0)) socket.destroy();
    for (const harbor of harbors.splice(0)) await harbor.stop();
    await input.close();
    await db.close();
    await rm(dir, { recursive: true, force: true });
  });

  async function startHarbor(options: Partial<HarborOptions> = {}): Promise<number> {
    const capture = captureLogger();
    logs = capture.lines;
    const harbor = new HarborServer({
      host: '127.0.0.1',
      port: 0,
      input,
      credentials: new DjCredentials(db.db),
      limiter: new FailureLimiter({ maxFailures: 3, windowMs: 60_000 }),
      logger: capture.logger,
      headerTimeoutMs: 10_000,
      metrics: new MetricsEndpoint(new Registry(), METRICS_LOGIN),
      ...options,
    });
    harbors.push(harbor);
    await harbor.start();
    return harbor.port;
  }

  const updinfo = (auth: string) =>
    `GET /admin/metadata?mode=updinfo&mount=/live&song=x HTTP/1.0\r\nAuthorization: ${auth}\r\n\r\n`;
  const logged = (refusal: string) => logs.filter((line) => line.refusal === refusal);

  it('gives one address 4 connections at once: the next is refused (429), logged once', async () => {
    const port = await startHarbor();
    // Four connections that have not sent their head yet: each holds a slot.
    for (let i = 0; i < 4; i++) sockets.push(await open(port));
    for (let i = 0; i < 2; i++) {
      const text = await answer(await open(port));
      expect(text).toMatch(/^HTTP\/1\.0 429 Too Many Requests\r\n/);
      expect(text).toContain('too many connections from your address (4 at most)');
    }
    expect(logged('crowd')).toEqual([
      expect.objectContaining({ level: 'warn', ip: '127.0.0.1', most: 4 }),
    ]);
    // Another address is served meanwhile.
    expect(await ask(port, 'GET /nothing HTTP/1.0\r\n\r\n', '127.0.0.2')).toMatch(
      /^HTTP\/1\.0 404/,
    );
    // A closed connection gives its slot back.
    sockets.shift()?.destroy();
    const served = await waitFor('a slot free again', async () => {
      const text = await ask(port, 'GET /nothing HTTP/1.0\r\n\r\n');
      return text.startsWith('HTTP/1.0 404') ? text : undefined;
    });
    expect(served).toContain('the live input takes SOURCE or PUT');
  });

  it('counts failed logins per address only: successes never count; the 429 is logged once', async () => {
    const port = await startHarbor();
    // Right logins (no source connected: 400 after the login passed), more than maxFailures.
    for (let i = 0; i < 5; i++) {
      expect(await ask(port, updinfo(basic(anna.username, anna.password)))).toMatch(
        /^HTTP\/1\.0 400[\s\S]*Anna has no source connected/,
      );
    }
    for (let i = 0; i < 3; i++) {
      const text = await ask(port, updinfo(basic(anna.username, 'guess')), '127.0.0.2');
      expect(text).toMatch(/^HTTP\/1\.0 401/);
    }
    for (let i = 0; i < 2; i++) {
      const text = await ask(port, updinfo(basic(anna.username, anna.password)), '127.0.0.2');
      expect(text).toMatch(/^HTTP\/1\.0 429[\s\S]*Retry-After: \d+/);
    }
    expect(logged('login-limit')).toEqual([expect.objectContaining({ ip: '127.0.0.2' })]);
    expect(logged('login')).toHaveLength(1);
    expect(await ask(port, updinfo(basic(anna.username, anna.password)))).toMatch(
      /^HTTP\/1\.0 400/,
    );
  });

  it('limits failed /metrics logins per client address', async () => {
    const port = await startHarbor();
    const metrics = (auth: string) => `GET /metrics HTTP/1.0\r\nAuthorization: ${auth}\r\n\r\n`;
    let last = '';
    for (let i = 0; i < 11; i++)
      last = await ask(port, metrics(basic('admin', 'nope')), '127.0.0.3');
    expect(last).toMatch(/^HTTP\/1\.0 429[\s\S]*Retry-After: \d+/);
    const right = await ask(port, metrics(basic(METRICS_LOGIN.user, METRICS_LOGIN.password)));
    expect(right).toMatch(/^HTTP\/1\.0 200/);
  });

  it('gives a request head an absolute deadline: bytes trickled in do not renew it', async () => {
    const port = await startHarbor({ headerTimeoutMs: 1000 });
    const socket = await open(port);
    sockets.push(socket);
    const closed = answer(socket, 20_000);
    socket.write('PUT /live HTTP/1.1\r\nX-Slow: ');
    // A byte every 100 ms, for ever: an idle timer would never fire.
    const trickle = setInterval(() => {
      if (!socket.destroyed) socket.write('a');
    }, 100);
    try {
      expect(await closed).toBe('');
    } finally {
      clearInterval(trickle);
    }
    expect(logged('head-timeout')).toEqual([
      expect.objectContaining({ msg: 'live port: no complete request head in 1 s; closed' }),
    ]);
  });
});
