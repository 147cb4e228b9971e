import { type ChildProcess, spawn } from 'node:child_process';
import { chmod, chown, mkdir, readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Bus } from '@radio/core';
import { captureLogger, type LogLine, waitFor } from '@radio/core/testing';
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

/** A free TCP port on loopback (taken from the kernel, then released). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

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

/** A relay in a real Icecast's configuration: `remote` on our server becomes `local` there. */
export interface IcecastRelay {
  port: number;
  remote: string;
  local: string;
}

async function userIds(name: string): Promise<{ uid: number; gid: number } | null> {
  const passwd = await readFile('/etc/passwd', 'utf8').catch(() => '');
  const line = passwd.split('\n').find((l) => l.startsWith(`${name}:`));
  if (!line) return null;
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

async function groupName(gid: number): Promise<string | null> {
  const groups = await readFile('/etc/group', 'utf8').catch(() => '');
  const line = groups.split('\n').find((l) => l.split(':')[2] === String(gid));
  return line ? (line.split(':')[0] ?? null) : null;
}

/**
 * The real Icecast 2.4 (Debian's icecast2) in a temp folder on a free loopback port, with the
 * test credentials and the given relays. It refuses to run as root, so it drops to the
 * `icecast2` user. Null when this machine cannot run it.
 */
export async function startIcecast(
  resources: Resources,
  relays: IcecastRelay[] = [],
): Promise<{ port: number; url: string } | null> {
  const ids = await userIds('icecast2');
  const binary = await readFile('/usr/bin/icecast2').then(
    () => true,
    () => false,
  );
  if (!ids || !binary || process.getuid?.() !== 0) return null;
  const dir = await resources.tempDir('icecast-');
  await chmod(dir, 0o755);
  const logs = join(dir, 'log');
  await mkdir(logs);
  await chown(logs, ids.uid, ids.gid);
  const port = await freePort();
  const relayXml = relays
    .map(
      (relay) =>
        `<relay><server>127.0.0.1</server><port>${relay.port}</port><mount>${relay.remote}</mount><local-mount>${relay.local}</local-mount><on-demand>0</on-demand><relay-shoutcast-metadata>1</relay-shoutcast-metadata></relay>`,
    )
    .join('\n  ');
  const config = join(dir, 'icecast.xml');
  await writeFile(
    config,
    `<icecast>
  <location>Test</location><admin>test@localhost</admin>
  <limits><clients>100</clients><sources>10</sources><queue-size>524288</queue-size>
    <client-timeout>30</client-timeout><header-timeout>15</header-timeout>
    <source-timeout>10</source-timeout><burst-on-connect>1</burst-on-connect>
    <burst-size>65535</burst-size></limits>
  <authentication>
    <source-password>${SOURCE_PASSWORD}</source-password>
    <relay-password>${SOURCE_PASSWORD}</relay-password>
    <admin-user>${ADMIN_USER}</admin-user>
    <admin-password>${ADMIN_PASSWORD}</admin-password>
  </authentication>
  <hostname>127.0.0.1</hostname>
  <listen-socket><port>${port}</port><bind-address>127.0.0.1</bind-address></listen-socket>
  ${relayXml}
  <paths><basedir>/usr/share/icecast2</basedir><logdir>${logs}</logdir>
    <webroot>/usr/share/icecast2/web</webroot><adminroot>/usr/share/icecast2/admin</adminroot></paths>
  <logging><accesslog>access.log</accesslog><errorlog>error.log</errorlog><loglevel>3</loglevel></logging>
  <security><chroot>0</chroot><changeowner><user>icecast2</user><group>${(await groupName(ids.gid)) ?? 'icecast'}</group></changeowner></security>
</icecast>
`,
  );
  const child = resources.child(spawn('/usr/bin/icecast2', ['-c', config], { stdio: 'ignore' }));
  const url = `http://127.0.0.1:${port}`;
  await waitFor(
    'icecast2 to answer',
    async () =>
      child.exitCode !== null ||
      (await fetch(`${url}/status-json.xsl`).then(
        (res) => res.ok,
        () => false,
      )),
    10_000,
  );
  if (child.exitCode !== null) throw new Error(`icecast2 exited (${child.exitCode})`);
  return { port, url };
}
