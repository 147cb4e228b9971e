/*
 * The servers of `bench:listeners` and what it reads of processes: our stream server and the
 * real Icecast 2.4 as child processes, the source that feeds both, and CPU, memory and
 * descriptor limits read from /proc.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chownSync, readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const CLOCK_TICKS = 100; // USER_HZ of /proc/<pid>/stat on Linux
export const SOURCE_PASSWORD = 'bench-source-password';
export const ADMIN_PASSWORD = 'bench-admin-password';

const children: ChildProcess[] = [];

/** Every child started here is stopped when the bench exits, however it exits. */
export function track<T extends ChildProcess>(child: T): T {
  children.push(child);
  return child;
}

export function stopAll(): void {
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
}
process.on('exit', stopAll);
process.on('SIGINT', () => process.exit(130));
process.on('SIGTERM', () => process.exit(143));

export const sleep = (ms: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, ms));

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function waitForPort(port: number, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const ok = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (ok) return;
    await sleep(100);
  }
  throw new Error(`nothing listens on port ${port}`);
}

/** CPU seconds (user and system) a process has used. */
export function cpuSeconds(pid: number): number {
  const fields = (readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1] ?? '').split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
}

export function rssKb(pid: number): number {
  return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
}

/** A process's open-file limit (soft), as the kernel applies it. */
export function fileLimit(pid: number): number {
  const line = readFileSync(`/proc/${pid}/limits`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('Max open files'));
  return Number(line?.split(/\s{2,}/)[1]);
}

/**
 * Raises a process's open-file limit (this one's before children start, so they inherit it;
 * a server's again after, in case it lowered its own). Needs root (CAP_SYS_RESOURCE) for a
 * hard limit above today's.
 */
export function raiseFileLimit(pid: number, needed: number): void {
  try {
    execFileSync('prlimit', ['--pid', String(pid), `--nofile=${needed}:${needed}`]);
  } catch {
    console.warn(
      `could not raise the open-file limit of ${pid} to ${needed}: run \`ulimit -n ${needed}\` first`,
    );
  }
}

export async function startIcecast(dir: string, port: number, clients: number): Promise<number> {
  const config = `<icecast>
  <location>Bench</location><admin>bench@localhost</admin>
  <limits><clients>${clients}</clients><sources>4</sources><queue-size>524288</queue-size>
    <client-timeout>30</client-timeout><header-timeout>15</header-timeout>
    <source-timeout>10</source-timeout><burst-size>65535</burst-size></limits>
  <authentication><source-password>${SOURCE_PASSWORD}</source-password>
    <admin-user>admin</admin-user><admin-password>${ADMIN_PASSWORD}</admin-password></authentication>
  <hostname>127.0.0.1</hostname>
  <listen-socket><port>${port}</port><bind-address>127.0.0.1</bind-address></listen-socket>
  <http-headers><header name="Access-Control-Allow-Origin" value="*" /></http-headers>
  <fileserve>1</fileserve>
  <paths><basedir>/usr/share/icecast2</basedir><logdir>${dir}</logdir>
    <webroot>/usr/share/icecast2/web</webroot><adminroot>/usr/share/icecast2/admin</adminroot></paths>
  <logging><accesslog>access.log</accesslog><errorlog>error.log</errorlog><loglevel>2</loglevel></logging>
  <security><chroot>0</chroot><changeowner><user>icecast2</user><group>icecast</group></changeowner></security>
</icecast>
`;
  const file = join(dir, 'icecast.xml');
  writeFileSync(file, config);
  try {
    const uid = Number(execFileSync('id', ['-u', 'icecast2']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'icecast2']).toString().trim());
    chownSync(dir, uid, gid);
  } catch {
    console.warn('no icecast2 user: Icecast may refuse to start (it does not run as root)');
  }
  const child = track(spawn('icecast2', ['-c', file], { stdio: 'ignore' }));
  await waitForPort(port);
  return child.pid as number;
}

export async function startOurs(dir: string, port: number): Promise<number> {
  // Started as `pnpm start` starts it (package.json), configured by the environment.
  const pkg = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as {
    scripts: { start: string };
  };
  const [, ...args] = pkg.scripts.start.split(' ');
  const child = track(
    spawn(process.execPath, args, {
      cwd: packageDir,
      stdio: ['ignore', 'ignore', 'inherit'],
      env: {
        ...process.env,
        STREAM_HOST: '127.0.0.1',
        STREAM_PORT: String(port),
        ADMIN_PASSWORD,
        SOURCE_PASSWORD,
        DATA_DIR: dir,
        LOG_LEVEL: 'warn',
        REDIS_URL: '',
      },
    }),
  );
  await waitForPort(port);
  return child.pid as number;
}

function putSource(port: number, mount: string, contentType: string): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('error', reject);
    socket.once('connect', () => {
      const auth = Buffer.from(`source:${SOURCE_PASSWORD}`).toString('base64');
      socket.write(
        `PUT ${mount} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Basic ${auth}\r\nContent-Type: ${contentType}\r\nice-name: Bench\r\nice-public: 0\r\nUser-Agent: bench-source/1.0\r\n\r\n`,
      );
      socket.once('data', (answer: Buffer) => {
        const status = answer.toString('latin1').split('\r\n')[0] ?? '';
        if (!status.startsWith('HTTP/1.0 200')) {
          reject(new Error(`source ${mount} refused on port ${port}: ${status}`));
          return;
        }
        socket.on('data', () => {});
        resolve(socket);
      });
    });
  });
}

/**
 * One real-time ffmpeg encoding (a sine, MP3 to /radio.mp3 or AAC to /radio.aac at `kbps`), its
 * bytes pushed to every port as a PUT source: each server gets the very same frames at the same
 * moments.
 */
export async function startSource(
  ports: number[],
  codec: 'mp3' | 'aac',
  kbps: number,
): Promise<void> {
  const [mount, contentType, encode] =
    codec === 'mp3'
      ? ['/radio.mp3', 'audio/mpeg', ['-c:a', 'libmp3lame', '-b:a', `${kbps}k`, '-f', 'mp3']]
      : ['/radio.aac', 'audio/aac', ['-c:a', 'aac', '-b:a', `${kbps}k`, '-f', 'adts']];
  const sockets = await Promise.all(ports.map((port) => putSource(port, mount, contentType)));
  const ffmpeg = track(
    spawn(
      'ffmpeg',
      ['-hide_banner', '-loglevel', 'error', '-re', '-f', 'lavfi', '-i']
        .concat(['sine=frequency=440:sample_rate=44100', '-ac', '2'])
        .concat(encode, ['pipe:1']),
      { stdio: ['ignore', 'pipe', 'inherit'] },
    ),
  );
  ffmpeg.stdout?.on('data', (chunk: Buffer) => {
    for (const socket of sockets) socket.write(chunk);
  });
}

/** Waits until our server has HLS segments to hand out (asked of the master playlist). */
export async function waitForHls(port: number, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const res = await fetch(`http://127.0.0.1:${port}/hls/radio.m3u8`).catch(() => null);
    await res?.arrayBuffer();
    if (res?.ok) return;
    await sleep(250);
  }
  throw new Error('no HLS on our server');
}
