import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Bus } from '@radio/core';
import {
  captureLogger,
  type IcecastRelay,
  type LogLine,
  RealIcecast,
  waitFor,
} from '@radio/core/testing';
import { createStreamServer, type StreamServer, type StreamServerOptions } from '../src/index.ts';
import { ADMIN_PASSWORD, ADMIN_USER, type Resources, SOURCE_PASSWORD } from './helpers.ts';

/** An in-process server whose log lines the test reads (why a relay failed, what it skipped). */
export async function loggedServer(
  resources: Resources,
  options: Partial<StreamServerOptions> = {},
  bus?: Bus,
): Promise<{ server: StreamServer; lines: LogLine[]; said(text: string): boolean }> {
  const { logger, lines } = captureLogger();
  const server = createStreamServer(
    {
      host: '127.0.0.1',
      port: 0,
      adminUser: ADMIN_USER,
      adminPassword: ADMIN_PASSWORD,
      sourcePassword: SOURCE_PASSWORD,
      ...options,
    },
    { logger, bus },
  );
  resources.onCleanup(() => server.close());
  await server.start();
  return { server, lines, said: (text) => lines.some((line) => line.msg.includes(text)) };
}

const MAIN = fileURLToPath(new URL('../src/main.ts', import.meta.url));

/** A stream server process (`src/main.ts`, configured by its environment), as a real node runs. */
export interface StreamNode {
  readonly port: number;
  readonly url: string;
  readonly child: ChildProcess;
  /** Its log lines, parsed. */
  readonly logs: Record<string, unknown>[];
  /** The node as the helpers that take a server see it (`port`, `url`). */
  readonly server: StreamServer;
}

/** Starts `src/main.ts` with the station's test credentials and `env`, on a free port. */
export async function startNode(
  resources: Resources,
  env: Record<string, string> = {},
): Promise<StreamNode> {
  const dataDir = await resources.tempDir('stream-node-');
  const child = resources.child(
    spawn(process.execPath, [MAIN], {
      env: {
        PATH: process.env.PATH ?? '',
        STREAM_HOST: '127.0.0.1',
        STREAM_PORT: '0',
        ADMIN_USER,
        ADMIN_PASSWORD,
        SOURCE_PASSWORD,
        DATA_DIR: dataDir,
        LOG_LEVEL: 'info',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    }),
  );
  const logs: Record<string, unknown>[] = [];
  let rest = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    const lines = (rest + chunk.toString('utf8')).split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) {
      try {
        logs.push(JSON.parse(line) as Record<string, unknown>);
      } catch {
        logs.push({ msg: line });
      }
    }
  });
  await waitFor(
    'the stream server process to listen',
    () =>
      logs.some((entry) => typeof entry.port === 'number' && entry.port > 0) ||
      child.exitCode !== null,
    20_000,
  );
  const started = logs.find((entry) => typeof entry.port === 'number' && entry.port > 0);
  if (!started) throw new Error(`stream server exited (${child.exitCode})`);
  const port = started.port as number;
  const url = `http://127.0.0.1:${port}`;
  return { port, url, child, logs, server: { port, url } as StreamServer };
}

/** Stops a node's process (SIGTERM) and waits for it to exit. */
export function stopNode(node: StreamNode): Promise<void> {
  const child = node.child;
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** The log messages of a node that contain `text`. */
export function logged(node: StreamNode, text: string): string[] {
  return node.logs.map((entry) => String(entry.msg ?? '')).filter((msg) => msg.includes(text));
}

/** The real Icecast 2.4 with the test credentials and the given relays, stopped with `resources`. */
export async function startIcecast(
  resources: Resources,
  relays: IcecastRelay[] = [],
): Promise<RealIcecast | null> {
  const icecast = await RealIcecast.start({
    sourcePassword: SOURCE_PASSWORD,
    adminUser: ADMIN_USER,
    adminPassword: ADMIN_PASSWORD,
    relays,
  });
  if (icecast) resources.onCleanup(() => icecast.stop());
  return icecast;
}
