/*
 * The bench's side of the load generator: N listeners split over a few worker processes
 * (bench/load-generator.ts), ramped together, measured over one window they all share, and
 * the server's and the workers' CPU read over that window.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cpuSeconds, rssKb, sleep, track } from './bench-servers.ts';
import type { LoadResult } from './load-generator.ts';

const here = dirname(fileURLToPath(import.meta.url));

export interface FleetOptions {
  mode: 'stream' | 'hls' | 'cdn';
  port: number;
  n: number;
  workers: number;
  /** New listeners per second, all workers together. */
  ramp: number;
  /** Seconds between the ramp's end and the window. */
  settle: number;
  /** The window, in seconds. */
  seconds: number;
  segmentSeconds: number;
  serverPid: number;
}

export interface FleetRun {
  result: LoadResult;
  /** The server's CPU over the window, % of one core. */
  serverCpu: number;
  /** The workers' CPU together over the window, % of one core. */
  loadCpu: number;
  /** The server's resident memory at the window's end. */
  rssKb: number;
}

type Reply = { type: 'ramped' } | { type: 'result'; result: LoadResult };

/** CPU over the next `seconds` of each process, % of one core. */
export async function cpuOver(pids: number[], seconds: number): Promise<number[]> {
  const before = pids.map(cpuSeconds);
  const at = performance.now();
  await sleep(seconds * 1000);
  const elapsed = (performance.now() - at) / 1000;
  return pids.map((pid, i) => ((cpuSeconds(pid) - (before[i] as number)) / elapsed) * 100);
}

export async function runFleet(options: FleetOptions): Promise<FleetRun> {
  const workers = Math.max(1, Math.min(options.workers, options.n));
  const replies = new Map<ChildProcess, Reply[]>();
  const children = Array.from({ length: workers }, (_, i) => {
    const share = Math.floor(options.n / workers) + (i < options.n % workers ? 1 : 0);
    const child = track(
      fork(
        join(here, 'load-generator.ts'),
        [options.mode, '127.0.0.1', String(options.port), String(share)].concat([
          String(options.ramp / workers),
          String(options.segmentSeconds),
          String(i),
        ]),
        { stdio: 'inherit' },
      ),
    );
    replies.set(child, []);
    child.on('message', (reply: Reply) => replies.get(child)?.push(reply));
    return child;
  });
  const all = async (type: Reply['type']): Promise<Reply[]> => {
    for (;;) {
      const got = children.map((child) => replies.get(child)?.find((r) => r.type === type));
      if (got.every((reply) => reply !== undefined)) return got as Reply[];
      if (children.some((child) => child.exitCode !== null)) {
        throw new Error('a load generator worker exited early');
      }
      await sleep(50);
    }
  };
  await all('ramped');
  await sleep(options.settle * 1000);
  const pids = [options.serverPid, ...children.map((child) => child.pid as number)];
  for (const child of children) child.send({ type: 'start' });
  const [serverCpu = 0, ...loadCpus] = await cpuOver(pids, options.seconds);
  const rss = rssKb(options.serverPid);
  for (const child of children) child.send({ type: 'end' });
  const results = (await all('result')).map((reply) => (reply as { result: LoadResult }).result);
  await Promise.all(
    children.map(
      (child) =>
        new Promise<void>((resolve) => {
          child.once('exit', () => resolve());
          child.send({ type: 'stop' });
        }),
    ),
  );
  return {
    result: merge(results),
    serverCpu,
    loadCpu: loadCpus.reduce((a, b) => a + b, 0),
    rssKb: rss,
  };
}

function merge(results: LoadResult[]): LoadResult {
  const sum = (
    key:
      | 'requested'
      | 'connected'
      | 'failed'
      | 'dropped'
      | 'requests'
      | 'errors'
      | 'missedListeners'
      | 'missedSegments',
  ) => results.reduce((total, r) => total + r[key], 0);
  return {
    requested: sum('requested'),
    connected: sum('connected'),
    failed: sum('failed'),
    dropped: sum('dropped'),
    windowSeconds: Math.min(...results.map((r) => r.windowSeconds)),
    rates: results.flatMap((r) => r.rates),
    latencyMs: results.flatMap((r) => r.latencyMs),
    requests: sum('requests'),
    errors: sum('errors'),
    missedListeners: sum('missedListeners'),
    missedSegments: sum('missedSegments'),
  };
}
