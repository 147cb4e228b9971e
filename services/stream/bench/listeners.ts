/*
 * `pnpm bench:listeners`: our stream server and the real Icecast 2.4 side by side in one run,
 * both fed the same MP3 128 kbit/s source (one ffmpeg -re, its bytes relayed to both), loaded in
 * turn with N listeners on 127.0.0.1; then an HLS row: N HLS listeners on our server, each
 * fetching its playlist and each new segment once per segment duration (Icecast has no HLS).
 *
 *   node bench/listeners.ts [--counts 500,2000,5000,10000] [--seconds 30] [--ramp 500]
 *                           [--settle 3] [--workers auto] [--servers ours,icecast]
 *                           [--bitrate 128] [--hls 10000] [--cdn 10000] [--segment 2] [--quick]
 *                           [--sessions] [--session-listeners 2000] [--churn 50]
 *
 * --counts (or --ns): the listener counts; --seconds: the measuring window of each row;
 * --ramp: new listeners per second; --settle: seconds between the ramp and the window;
 * --workers: load generator processes (default one per 2,500 listeners, at most 4);
 * --bitrate: the MP3 source's kbit/s; --hls: HLS listeners of the HLS row (0: none);
 * --cdn: listeners of the row "HLS behind a CDN" (playlists only reach the server; 0: none);
 * --segment: HLS_SEGMENT_SECONDS; --quick: a short run (500 and 2,000 listeners, 1,000 HLS
 * and CDN listeners, 10 s windows); last come the session rows (bench/sessions.ts): our server's
 * CPU with --session-listeners listeners, --churn of them leaving and as many joining a
 * second, session recording off and on; --sessions runs those rows alone.
 *
 * Columns: CPU is the server's, in % of one core, over the window; rate is each listener's
 * received audio bytes per second over the window against the nominal bitrate (mean and the
 * slowest listener), `< 90 %` counts listeners below 90 % of it (or never served); drops are
 * listeners the server closed; first byte is connect to first audio byte (HLS: each request to
 * its response); load gen is the load generator's own CPU, all its workers together.
 *
 * Needs ffmpeg and icecast2 (Debian package; started as user icecast2 through <changeowner>,
 * so run as root, which also lets the bench raise the open-file limit with prlimit; otherwise
 * run `ulimit -n 12000` first, or more than the largest count).
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  fileLimit,
  freePort,
  raiseFileLimit,
  rssKb,
  sleep,
  startIcecast,
  startOurs,
  startSource,
  stopAll,
  waitForHls,
} from './bench-servers.ts';
import { printHlsRow, printRows, type Row } from './listeners-table.ts';
import { cpuOver, type FleetRun, runFleet } from './load-fleet.ts';
import { type SessionsBenchOptions, sessionsRows } from './sessions.ts';

const AAC_KBPS = 96;

interface Options {
  counts: number[];
  seconds: number;
  ramp: number;
  settle: number;
  workers: number | null;
  servers: ('ours' | 'icecast')[];
  bitrate: number;
  hls: number;
  cdn: number;
  segment: number;
  sessionsOnly: boolean;
  sessionListeners: number;
  churn: number;
}

function parseArgs(argv: string[]): Options {
  const options: Options = {
    counts: [500, 2000, 5000, 10_000],
    seconds: 30,
    ramp: 500,
    settle: 3,
    workers: null,
    servers: ['ours', 'icecast'],
    bitrate: 128,
    hls: 10_000,
    cdn: 10_000,
    segment: 2,
    sessionsOnly: false,
    sessionListeners: 2000,
    churn: 50,
  };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--') continue; // what `pnpm bench:listeners -- …` passes on
    if (argv[i] === '--quick') {
      Object.assign(options, {
        counts: [500, 2000],
        seconds: 10,
        settle: 2,
        hls: 1000,
        cdn: 1000,
      });
      continue;
    }
    if (argv[i] === '--sessions') {
      options.sessionsOnly = true;
      continue;
    }
    const [flag, inline] = (argv[i] as string).split('=');
    const value = inline ?? argv[++i] ?? '';
    const number = Number(value);
    if (flag === '--counts' || flag === '--ns') {
      options.counts = value.split(',').map(Number);
    } else if (flag === '--servers') {
      options.servers = value.split(',') as Options['servers'];
    } else if (flag === '--workers') {
      options.workers = number;
    } else if (flag === '--session-listeners') {
      options.sessionListeners = number;
    } else if (flag === '--churn') {
      options.churn = number;
    } else if (
      flag === '--seconds' ||
      flag === '--ramp' ||
      flag === '--settle' ||
      flag === '--bitrate' ||
      flag === '--hls' ||
      flag === '--cdn' ||
      flag === '--segment'
    ) {
      type Numeric = 'seconds' | 'ramp' | 'settle' | 'bitrate' | 'hls' | 'cdn' | 'segment';
      options[flag.slice(2) as Numeric] = number;
    } else {
      console.error(`unknown option ${flag}`);
      process.exit(2);
    }
  }
  const bad =
    options.counts.some((n) => !(n > 0)) ||
    options.servers.some((s) => s !== 'ours' && s !== 'icecast') ||
    [options.seconds, options.ramp, options.hls, options.cdn].some((n) => !(n >= 0)) ||
    [options.sessionListeners, options.churn].some((n) => !(n > 0)) ||
    [options.bitrate, options.segment].some((n) => !(n > 0));
  if (bad) {
    console.error('bad option value');
    process.exit(2);
  }
  return options;
}

function workersFor(n: number, options: Options): number {
  return options.workers ?? Math.min(4, Math.ceil(n / 2500));
}

function toRow(server: string, n: number, run: FleetRun, idleRss: number, nominal: number): Row {
  const { result } = run;
  return {
    server,
    n,
    cpu: run.serverCpu,
    rssMb: run.rssKb / 1024,
    kbPerListener: (run.rssKb - idleRss) / n,
    rates: result.rates.map((rate) => (rate / nominal) * 100),
    below90:
      result.rates.filter((rate) => rate < nominal * 0.9).length +
      (result.requested - result.rates.length),
    dropped: result.dropped,
    failed: result.failed,
    latencyMs: result.latencyMs,
    loadCpu: run.loadCpu,
  };
}

function loadAverage(): string {
  return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
}

interface Server {
  name: 'ours' | 'icecast';
  port: number;
  pid: number;
  idleRss: number;
}

async function startServers(options: Options, dir: string, files: number): Promise<Server[]> {
  const servers: Server[] = [];
  for (const name of options.servers) {
    const port = await freePort();
    const serverDir = mkdtempSync(join(dir, `${name}-`));
    const clients = Math.max(...options.counts) + 100;
    const pid =
      name === 'icecast'
        ? await startIcecast(serverDir, port, clients)
        : await startOurs(serverDir, port);
    if (fileLimit(pid) < files) raiseFileLimit(pid, files);
    servers.push({ name, port, pid, idleRss: 0 });
  }
  return servers;
}

/** The HLS rows: players fetching playlists and segments, then playlists only (a CDN's case). */
async function hlsRows(ours: Server, options: Options): Promise<void> {
  await startSource([ours.port], 'aac', AAC_KBPS);
  await waitForHls(ours.port);
  await sleep(options.segment * 2000);
  const [idle = 0] = await cpuOver([ours.pid], Math.min(options.seconds, 15));
  for (const [mode, n] of [
    ['hls', options.hls],
    ['cdn', options.cdn],
  ] as const) {
    if (n === 0) continue;
    const run = await runFleet({
      mode,
      port: ours.port,
      n,
      workers: workersFor(n, options),
      ramp: options.ramp,
      settle: options.settle + options.segment,
      seconds: options.seconds,
      segmentSeconds: options.segment,
      serverPid: ours.pid,
    });
    // Sessions outlive their last fetch by two segment durations: still counted here.
    const health = (await (await fetch(`http://127.0.0.1:${ours.port}/health`)).json()) as {
      listeners: number;
    };
    const row = toRow(mode, n, run, ours.idleRss, AAC_KBPS * 125);
    printHlsRow(row, {
      idleCpu: idle,
      counted: health.listeners,
      requestsPerSecond: run.result.requests / run.result.windowSeconds,
      errors: run.result.errors,
      missedListeners: run.result.missedListeners,
      missedSegments: run.result.missedSegments,
      segment: options.segment,
    });
    // The sessions end before the next row counts its own.
    await sleep(options.segment * 2000 + 2000);
  }
}

function sessionOptions(options: Options): SessionsBenchOptions {
  return {
    listeners: options.sessionListeners,
    churn: options.churn,
    ramp: options.ramp,
    settle: options.settle,
    seconds: options.seconds,
    bitrate: options.bitrate,
  };
}

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
  if (options.sessionsOnly) {
    const dir = mkdtempSync(join(tmpdir(), 'bench-sessions-'));
    process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
    const files = options.sessionListeners + 2000;
    if (fileLimit(process.pid) < files) raiseFileLimit(process.pid, files);
    console.log(
      `${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}; Node ${process.version}; load average at start ${loadAverage()}`,
    );
    await sessionsRows(sessionOptions(options), dir);
    stopAll();
    return;
  }
  // Each server holds one descriptor per listener (the workers share theirs out).
  const files = Math.max(...options.counts, options.hls, options.cdn) + 2000;
  if (fileLimit(process.pid) < files) raiseFileLimit(process.pid, files);
  const dir = mkdtempSync(join(tmpdir(), 'bench-listeners-'));
  chmodSync(dir, 0o755); // Icecast, once it is user icecast2, writes its logs below it
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  const servers = await startServers(options, dir, files);
  await startSource(
    servers.map((s) => s.port),
    'mp3',
    options.bitrate,
  );
  // Let both fill their burst buffers; memory per listener is counted from this idle state.
  await sleep(5000);
  for (const server of servers) server.idleRss = rssKb(server.pid);
  const icecastVersion = options.servers.includes('icecast')
    ? execFileSync('icecast2', ['-v']).toString().trim()
    : 'no Icecast';
  console.log(
    `${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}; Node ${process.version}; ${icecastVersion}; open-file limits ${servers.map((s) => `${s.name} ${fileLimit(s.pid)}`).join(', ')}, bench ${fileLimit(process.pid)}`,
  );
  console.log(
    `listeners on 127.0.0.1, MP3 ${options.bitrate} kbit/s (${options.bitrate * 125} B/s), ramp ${options.ramp}/s, ${options.settle} s settle, ${options.seconds} s measured; load average at start ${loadAverage()}\n`,
  );
  const rows: Row[] = [];
  for (const n of options.counts) {
    for (const server of servers) {
      const run = await runFleet({
        mode: 'stream',
        port: server.port,
        n,
        workers: workersFor(n, options),
        ramp: options.ramp,
        settle: options.settle,
        seconds: options.seconds,
        segmentSeconds: options.segment,
        serverPid: server.pid,
      });
      const row = toRow(server.name, n, run, server.idleRss, options.bitrate * 125);
      rows.push(row);
      console.error(
        `  ${server.name} N=${n}: CPU ${row.cpu.toFixed(1)} %, load generator ${row.loadCpu.toFixed(1)} %`,
      );
      // Closed sockets leave both servers before the next run.
      await sleep(3000);
    }
  }
  printRows(rows);
  const ours = servers.find((s) => s.name === 'ours');
  if ((options.hls > 0 || options.cdn > 0) && ours) await hlsRows(ours, options);
  await sessionsRows(sessionOptions(options), dir);
  console.log(`\nload average at the end ${loadAverage()}`);
  stopAll();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
