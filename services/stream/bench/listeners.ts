/*
 * `pnpm bench:listeners`: our stream server and the real Icecast 2.4.4 side by side, both fed
 * the same MP3 128 kbit/s source (one ffmpeg -re, its bytes relayed to both), loaded in turn
 * with N listeners on 127.0.0.1 by a load generator in its own process (bench/load-generator.ts).
 *
 *   node bench/listeners.ts [--counts 500,1000,2000,5000] [--seconds 30] [--ramp 500]
 *                           [--servers ours,icecast] [--settle 3]
 *
 * Needs ffmpeg and icecast2 (Debian package; started as user icecast2 through <changeowner>,
 * so run as root), and an open-file limit of 2 x N + a few hundred (raised with prlimit when
 * running as root; otherwise run `ulimit -n 20000` first).
 */
import { type ChildProcess, execFileSync, fork, spawn } from 'node:child_process';
import { chmodSync, chownSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LoadResult } from './load-generator.ts';

const here = dirname(fileURLToPath(import.meta.url));
const packageDir = join(here, '..');
const NOMINAL = 16_000; // bytes per second of 128 kbit/s
const CLOCK_TICKS = 100; // USER_HZ of /proc/<pid>/stat on Linux
const SOURCE_PASSWORD = 'bench-source';
const ADMIN_PASSWORD = 'bench-admin';

interface Options {
  counts: number[];
  seconds: number;
  ramp: number;
  settle: number;
  servers: ('ours' | 'icecast')[];
}

function parseArgs(argv: string[]): Options {
  const options: Options = {
    counts: [500, 1000, 2000, 5000],
    seconds: 30,
    ramp: 500,
    settle: 3,
    servers: ['ours', 'icecast'],
  };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = (argv[i] as string).split('=');
    const value = inline ?? argv[++i] ?? '';
    switch (flag) {
      case '--counts':
        options.counts = value
          .split(',')
          .map(Number)
          .filter((n) => n > 0);
        break;
      case '--seconds':
        options.seconds = Number(value);
        break;
      case '--ramp':
        options.ramp = Number(value);
        break;
      case '--settle':
        options.settle = Number(value);
        break;
      case '--servers':
        options.servers = value.split(',') as Options['servers'];
        break;
      default:
        console.error(`unknown option ${flag}`);
        process.exit(2);
    }
  }
  return options;
}

const children: ChildProcess[] = [];
function track<T extends ChildProcess>(child: T): T {
  children.push(child);
  return child;
}
function stopAll(): void {
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
}
process.on('exit', stopAll);
process.on('SIGINT', () => process.exit(130));
process.on('SIGTERM', () => process.exit(143));

function freePort(): Promise<number> {
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
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`nothing listens on port ${port}`);
}

function cpuTicks(pid: number): number {
  const fields = (readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1] ?? '').split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

function rssKb(pid: number): number {
  return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
}

/** Raises this process's open-file limit (children inherit it); needs root for the hard one. */
function raiseFileLimit(needed: number): void {
  try {
    execFileSync('prlimit', ['--pid', String(process.pid), `--nofile=${needed}:${needed}`]);
  } catch {
    console.warn(
      `could not raise the open-file limit to ${needed}: run \`ulimit -n ${needed}\` first`,
    );
  }
}

async function startIcecast(dir: string, port: number): Promise<ChildProcess> {
  const config = `<icecast>
  <location>Bench</location><admin>bench@localhost</admin>
  <limits><clients>20000</clients><sources>4</sources><queue-size>524288</queue-size>
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
  return child;
}

async function startOurs(dir: string, port: number): Promise<ChildProcess> {
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
  return child;
}

/** One ffmpeg -re encoding, its bytes pushed to every server as a PUT source. */
async function startSource(ports: number[]): Promise<void> {
  const sockets = await Promise.all(
    ports.map(
      (port) =>
        new Promise<net.Socket>((resolve, reject) => {
          const socket = net.connect(port, '127.0.0.1');
          socket.once('error', reject);
          socket.once('connect', () => {
            const auth = Buffer.from(`source:${SOURCE_PASSWORD}`).toString('base64');
            socket.write(
              `PUT /radio.mp3 HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Basic ${auth}\r\nContent-Type: audio/mpeg\r\nice-name: Bench\r\nice-public: 0\r\nice-audio-info: channels=2;samplerate=44100;bitrate=128\r\nUser-Agent: bench-source/1.0\r\n\r\n`,
            );
            socket.once('data', (answer: Buffer) => {
              if (!answer.toString('latin1').startsWith('HTTP/1.0 200')) {
                reject(
                  new Error(
                    `source refused on port ${port}: ${answer.toString('latin1').split('\r\n')[0]}`,
                  ),
                );
                return;
              }
              socket.on('data', () => {});
              resolve(socket);
            });
          });
        }),
    ),
  );
  const ffmpeg = track(
    spawn(
      'ffmpeg',
      [
        '-hide_banner',
        '-loglevel',
        'error',
        '-re',
        '-f',
        'lavfi',
        '-i',
        'sine=frequency=440:sample_rate=44100',
        '-ac',
        '2',
        '-c:a',
        'libmp3lame',
        '-b:a',
        '128k',
        '-f',
        'mp3',
        'pipe:1',
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    ),
  );
  ffmpeg.stdout?.on('data', (chunk: Buffer) => {
    for (const socket of sockets) socket.write(chunk);
  });
}

interface Row {
  server: string;
  n: number;
  cpu: number;
  rssMb: number;
  kbPerListener: number;
  rate: number;
  below90: number;
  dropped: number;
  failed: number;
  firstByteMedian: number;
  firstByteP99: number;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] as number;
}

async function measure(
  server: string,
  pid: number,
  port: number,
  n: number,
  options: Options,
  rssBefore: number,
): Promise<Row> {
  const loadgen = track(
    fork(
      join(here, 'load-generator.ts'),
      [
        '127.0.0.1',
        String(port),
        '/radio.mp3',
        String(n),
        String(options.ramp),
        String(options.settle),
        String(options.seconds),
      ],
      {
        stdio: 'inherit',
      },
    ),
  );
  let startTicks = 0;
  let startTime = 0;
  let cpu = 0;
  let rssAfter = 0;
  const result = await new Promise<LoadResult>((resolve, reject) => {
    loadgen.on('message', (message: { type: string; result?: LoadResult }) => {
      if (message.type === 'window-start') {
        startTicks = cpuTicks(pid);
        startTime = performance.now();
      } else if (message.type === 'window-end') {
        const seconds = (performance.now() - startTime) / 1000;
        cpu = ((cpuTicks(pid) - startTicks) / CLOCK_TICKS / seconds) * 100;
        rssAfter = rssKb(pid);
      } else if (message.type === 'result' && message.result) {
        resolve(message.result);
      }
    });
    loadgen.once('exit', (code) => reject(new Error(`load generator exited with ${code}`)));
  });
  await new Promise<void>((resolve) => loadgen.once('exit', () => resolve()));
  const rates = [...result.rates].sort((a, b) => a - b);
  const firstBytes = [...result.firstByteMs].sort((a, b) => a - b);
  return {
    server,
    n,
    cpu,
    rssMb: rssAfter / 1024,
    kbPerListener: (rssAfter - rssBefore) / n,
    rate: rates.length ? rates.reduce((a, b) => a + b, 0) / rates.length : 0,
    below90:
      rates.filter((rate) => rate < NOMINAL * 0.9).length + (result.requested - result.connected),
    dropped: result.dropped,
    failed: result.failed,
    firstByteMedian: percentile(firstBytes, 0.5),
    firstByteP99: percentile(firstBytes, 0.99),
  };
}

function printTable(rows: Row[]): void {
  const header = [
    'server',
    'N',
    'CPU % (1 core)',
    'RSS MB',
    'KB/listener',
    'B/s per listener',
    '< 90 %',
    'dropped',
    'failed',
    'first byte median ms',
    'p99 ms',
  ];
  const lines = rows.map((r) => [
    r.server,
    String(r.n),
    r.cpu.toFixed(1),
    r.rssMb.toFixed(1),
    r.kbPerListener.toFixed(1),
    r.rate.toFixed(0),
    String(r.below90),
    String(r.dropped),
    String(r.failed),
    r.firstByteMedian.toFixed(1),
    r.firstByteP99.toFixed(1),
  ]);
  const widths = header.map((h, i) =>
    Math.max(h.length, ...lines.map((l) => (l[i] as string).length)),
  );
  const format = (cells: string[]): string =>
    `| ${cells.map((c, i) => c.padStart(widths[i] as number)).join(' | ')} |`;
  console.log(format(header));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const line of lines) console.log(format(line));
  const ratios = rows
    .filter((r) => r.server === 'ours')
    .map((ours) => {
      const ice = rows.find((r) => r.server === 'icecast' && r.n === ours.n);
      return ice ? `N=${ours.n}: ${(ours.cpu / ice.cpu).toFixed(2)}x` : null;
    })
    .filter(Boolean);
  if (ratios.length)
    console.log(`\nCPU ours / Icecast: ${ratios.join(', ')} (target: at most 1.5x)`);
}

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
  raiseFileLimit(Math.max(20_000, 2 * Math.max(...options.counts) + 1000));
  const dir = mkdtempSync(join(tmpdir(), 'bench-listeners-'));
  chmodSync(dir, 0o755); // Icecast, once it is user icecast2, writes its logs below it
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  const servers: {
    name: 'ours' | 'icecast';
    port: number;
    child: ChildProcess;
    idleRss: number;
  }[] = [];
  for (const name of options.servers) {
    const port = await freePort();
    const serverDir = mkdtempSync(join(dir, `${name}-`));
    const child =
      name === 'icecast' ? await startIcecast(serverDir, port) : await startOurs(serverDir, port);
    servers.push({ name, port, child, idleRss: 0 });
  }
  await startSource(servers.map((s) => s.port));
  // Let both fill their burst buffers; memory per listener is counted from this idle state.
  await new Promise((resolve) => setTimeout(resolve, 5000));
  for (const server of servers) server.idleRss = rssKb(server.child.pid as number);
  console.log(
    `listeners on 127.0.0.1, MP3 128 kbit/s (${NOMINAL} B/s), ramp ${options.ramp}/s, ${options.settle} s settle, ${options.seconds} s measured; load average ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}\n`,
  );
  const rows: Row[] = [];
  for (const n of options.counts) {
    for (const server of servers) {
      const pid = server.child.pid as number;
      const row = await measure(server.name, pid, server.port, n, options, server.idleRss);
      rows.push(row);
      console.error(
        `  ${server.name} N=${n}: CPU ${row.cpu.toFixed(1)} %, first byte ${row.firstByteMedian.toFixed(1)} ms`,
      );
      // Closed sockets leave both servers before the next run.
      await new Promise((resolve) => setTimeout(resolve, 3000));
    }
  }
  console.log('');
  printTable(rows);
  stopAll();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
