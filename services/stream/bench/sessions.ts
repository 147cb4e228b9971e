/*
 * The sessions rows of `bench:listeners` (`--sessions` runs them alone): the stream server's
 * CPU with N listeners of which `churn` a second leave and as many join, with session recording
 * off and then on. Both servers run from bench/session-server.ts with a Redis bus of the
 * bench's own, fed the same MP3 source, loaded in turn: off, on, on, off, so that a drift in
 * the machine's load (other work on it) weighs on both alike. The api's side is a receipt in
 * this process (its reply, without a database): only the stream server's cost is measured.
 */
import { type ChildProcess, fork, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import net from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRedisBus, silentLogger } from '@radio/core';
import {
  ADMIN_PASSWORD,
  freePort,
  SOURCE_PASSWORD,
  sleep,
  startSource,
  track,
} from './bench-servers.ts';
import type { ChurnResult } from './churn-generator.ts';
import { table } from './listeners-table.ts';
import { cpuOver } from './load-fleet.ts';

const here = dirname(fileURLToPath(import.meta.url));

export interface SessionsBenchOptions {
  listeners: number;
  /** Leaving (and joining) listeners a second. */
  churn: number;
  ramp: number;
  settle: number;
  seconds: number;
  bitrate: number;
}

interface SessionsRow {
  mode: 'off' | 'on';
  cpu: number;
  loadCpu: number;
  churn: ChurnResult;
  windowSeconds: number;
  stored: number;
}

async function waitForPort(port: number): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const ok = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => resolve(true));
      socket.once('error', () => resolve(false));
    }).catch(() => false);
    if (ok) return;
    await sleep(50);
  }
  throw new Error(`nothing listens on port ${port}`);
}

async function startSessionServer(
  dir: string,
  redisUrl: string,
  mode: 'off' | 'on',
): Promise<{ port: number; pid: number }> {
  const port = await freePort();
  const child = track(
    spawn(process.execPath, ['--max-semi-space-size=4', join(here, 'session-server.ts'), mode], {
      stdio: ['ignore', 'ignore', 'inherit'],
      env: {
        ...process.env,
        STREAM_HOST: '127.0.0.1',
        STREAM_PORT: String(port),
        ADMIN_PASSWORD,
        SOURCE_PASSWORD,
        DATA_DIR: mkdtempSync(join(dir, `sessions-${mode}-`)),
        LOG_LEVEL: 'warn',
        REDIS_URL: redisUrl,
      },
    }),
  );
  await waitForPort(port);
  return { port, pid: child.pid as number };
}

function message(
  child: ChildProcess,
  type: string,
): Promise<{ type: string; result?: ChurnResult }> {
  return new Promise((resolve) => {
    const onMessage = (reply: { type: string; result?: ChurnResult }) => {
      if (reply.type !== type) return;
      child.removeListener('message', onMessage);
      resolve(reply);
    };
    child.on('message', onMessage);
  });
}

async function measure(
  mode: 'off' | 'on',
  server: { port: number; pid: number },
  options: SessionsBenchOptions,
  ends: readonly number[],
): Promise<SessionsRow> {
  const child = track(
    fork(
      join(here, 'churn-generator.ts'),
      [server.port, options.listeners, options.ramp, options.churn].map(String),
      { stdio: 'inherit' },
    ),
  );
  await message(child, 'ramped');
  await sleep(options.settle * 1000);
  child.send({ type: 'start' });
  const at = performance.now();
  const from = Date.now();
  const [cpu = 0, loadCpu = 0] = await cpuOver([server.pid, child.pid as number], options.seconds);
  const windowSeconds = (performance.now() - at) / 1000;
  const to = Date.now();
  const ended = message(child, 'result');
  child.send({ type: 'end' });
  const churn = (await ended).result as ChurnResult;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.send({ type: 'stop' });
  await exited;
  // The window's last sessions are flushed within 2 s; the fleet's own end is not counted.
  await sleep(3000);
  const stored = ends.filter((end) => end >= from && end < to).length;
  return { mode, cpu, loadCpu, churn, windowSeconds, stored };
}

export async function sessionsRows(options: SessionsBenchOptions, dir: string): Promise<void> {
  const redisPort = await freePort();
  track(
    spawn(
      'redis-server',
      ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: 'ignore' },
    ),
  );
  await waitForPort(redisPort);
  const redisUrl = `redis://127.0.0.1:${redisPort}`;
  const bus = await createRedisBus({ url: redisUrl, logger: silentLogger() });
  // When each received session ended: those of a run's window are its sent sessions.
  const ends: number[] = [];
  bus.handleCommands({
    'listeners.sessions': (batch) => {
      for (const session of batch.sessions) ends.push(session.endedAt);
      return { stored: batch.sessions.length };
    },
  });
  const off = await startSessionServer(dir, redisUrl, 'off');
  const on = await startSessionServer(dir, redisUrl, 'on');
  await startSource([off.port, on.port], 'mp3', options.bitrate);
  await sleep(5000);
  const rows: SessionsRow[] = [];
  for (const [mode, server] of [
    ['off', off],
    ['on', on],
    ['on', on],
    ['off', off],
  ] as const) {
    rows.push(await measure(mode, server, options, ends));
    console.error(`  sessions ${mode}: CPU ${rows.at(-1)?.cpu.toFixed(1)} %`);
  }
  await bus.close();
  printSessionRows(rows, options);
}

function printSessionRows(rows: SessionsRow[], options: SessionsBenchOptions): void {
  const mean = (mode: 'off' | 'on') => {
    const of = rows.filter((row) => row.mode === mode);
    return of.reduce((sum, row) => sum + row.cpu, 0) / of.length;
  };
  console.log(
    `\nSession recording: ${options.listeners} listeners, ${options.churn} joining and ${options.churn} leaving a second, MP3 ${options.bitrate} kbit/s, ${options.seconds} s measured\n`,
  );
  table(
    [
      'sessions',
      'listeners',
      'joined/s',
      'left/s',
      'server CPU %',
      'sent/s',
      'dropped',
      'load gen CPU %',
    ],
    rows.map((row) => [
      row.mode,
      String(row.churn.open),
      (row.churn.joined / row.windowSeconds).toFixed(1),
      (row.churn.left / row.windowSeconds).toFixed(1),
      row.cpu.toFixed(1),
      (row.stored / row.windowSeconds).toFixed(1),
      String(row.churn.dropped + row.churn.failed),
      row.loadCpu.toFixed(1),
    ]),
  );
  const more = ((mean('on') - mean('off')) / mean('off')) * 100;
  console.log(
    `\nserver CPU, mean of two runs each: off ${mean('off').toFixed(1)} %, on ${mean('on').toFixed(1)} %: recording on ${more >= 0 ? '+' : ''}${more.toFixed(1)} % (target: under +5 %)`,
  );
}
