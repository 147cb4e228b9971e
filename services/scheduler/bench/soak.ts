// `pnpm bench:soak [--tracks 1000] [--listeners 200] [--every 100] [--warmup 200]
//  [--redis redis://127.0.0.1:6379] [--diagnostics DIR]`
//
// Memory that never grows: the stream server, the scheduler and the api, each its own process
// started as `pnpm --dir services/<name> start` starts it (node flags and malloc settings of its
// package.json `start` included; configured by the environment; one Redis bus between them, one
// SQLite file), play a folder of short tracks (2-5 s; MP3, FLAC,
// AAC, Ogg; a few corrupt or empty) back to back (CROSSFADE_SECONDS=0) while listeners come and
// go, an operator uses the control port and clients use the api. Every `--every` tracks on air
// (counted from the scheduler's `player.now-playing` events) it prints the RSS of each service
// and of the scheduler's process tree (node and its ffmpeg children; the mean of readings every
// 2 s since the last row, as decoders come and go with the tracks); at the end the
// least-squares slope over the rows after the warm-up, in KB per track.
//
// `--diagnostics DIR` keeps the services' logs in DIR, loads bench/soak-probe.ts into each
// service (live heap after a full GC, memory and live handles every 10 s, as JSON lines), prints
// the live heap's slope too, and lets `kill -USR2 <pid>` write a heap snapshot there (which
// itself raises that process's RSS for good: take snapshots in a run whose table you discard).
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { get } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { type Bus, createRedisBus, locateFfmpeg, silentLogger } from '@radio/core';
import { freePort } from '@radio/core/testing';
import { generateSoakLibrary } from './soak-library.ts';
import { apiLogin, churnListeners, newCounters, useApi, useControlPort } from './soak-load.ts';
import { processTree, rssKb, slope, TreeSampler } from './soak-proc.ts';

const { values: args } = parseArgs({
  options: {
    tracks: { type: 'string', default: '1000' },
    listeners: { type: 'string', default: '200' },
    every: { type: 'string', default: '100' },
    warmup: { type: 'string', default: '200' },
    redis: { type: 'string', default: 'redis://127.0.0.1:6379' },
    diagnostics: { type: 'string' },
  },
});
const TRACKS = Number(args.tracks);
const LISTENERS = Number(args.listeners);
const EVERY = Number(args.every);
const WARMUP = Number(args.warmup);
/** No new track on air for this long means playout is stuck: the run stops with an error. */
const STALL_MS = 60_000;
const SECRETS = {
  SOURCE_PASSWORD: 'soak-source',
  ADMIN_USER: 'admin',
  ADMIN_PASSWORD: 'soak-admin-password',
  SESSION_SECRET: 'soak-session-secret-0123456789',
};
const SERVICES_DIR = fileURLToPath(new URL('../../', import.meta.url));
const PROBE = fileURLToPath(new URL('./soak-probe.ts', import.meta.url));

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const log = (text: string) => process.stderr.write(`${text}\n`);

interface Service {
  name: 'stream' | 'scheduler' | 'api';
  child: ChildProcess;
  pid: number;
}

// ---------------------------------------------------------------------------------------------
// Setup

/** A Redis database nobody uses (keys of other runs stay apart), or the one given in the URL. */
function pickRedisDb(url: string): { url: string; flush: (() => void) | null } {
  const parsed = new URL(url);
  if (parsed.pathname.length > 1) return { url, flush: null };
  const cli = (db: number, ...rest: string[]) =>
    execFileSync('redis-cli', [
      '-h',
      parsed.hostname,
      '-p',
      parsed.port || '6379',
      '-n',
      `${db}`,
      ...rest,
    ])
      .toString()
      .trim();
  try {
    for (let db = 15; db >= 1; db--) {
      if (cli(db, 'dbsize') !== '0') continue;
      parsed.pathname = `/${db}`;
      return { url: parsed.toString(), flush: () => void cli(db, 'flushdb') };
    }
  } catch {
    // no redis-cli: the services check the connection themselves
  }
  return { url, flush: null };
}

/**
 * How `pnpm --dir services/<name> start` runs the service (its package.json `start`, e.g.
 * `MALLOC_ARENA_MAX=1 node --max-semi-space-size=1 src/main.ts`): environment, node flags, script.
 */
async function startCommand(
  name: Service['name'],
): Promise<{ env: Record<string, string>; args: string[] }> {
  const manifest = JSON.parse(await readFile(join(SERVICES_DIR, name, 'package.json'), 'utf8'));
  const words = String(manifest.scripts?.start ?? 'node src/main.ts').split(/\s+/);
  const env: Record<string, string> = {};
  while (words[0]?.includes('=')) {
    const [key = '', ...value] = (words.shift() as string).split('=');
    env[key] = value.join('=');
  }
  if (words.shift() !== 'node') throw new Error(`${name}: its start script does not run node`);
  return { env, args: words };
}

async function startService(
  name: Service['name'],
  env: Record<string, string>,
  logDir: string,
  diagnostics: string | undefined,
): Promise<Service> {
  const nodeOptions = diagnostics
    ? `--import=${PROBE} --expose-gc --heapsnapshot-signal=SIGUSR2 --diagnostic-dir=${diagnostics}`
    : '';
  const command = await startCommand(name);
  const child = spawn(process.execPath, command.args, {
    cwd: join(SERVICES_DIR, name),
    env: {
      PATH: process.env.PATH ?? '',
      LOG_LEVEL: 'warn',
      NODE_OPTIONS: nodeOptions,
      ...(diagnostics ? { SOAK_PROBE_DIR: diagnostics, SOAK_PROBE_NAME: name } : {}),
      ...command.env,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const out = createWriteStream(join(logDir, `${name}.log`));
  child.stdout?.pipe(out);
  child.stderr?.pipe(out);
  if (child.pid === undefined) throw new Error(`${name} did not start`);
  return { name, child, pid: child.pid };
}

/** Resolves once something accepts connections on the port; rejects if the service exits. */
async function waitForPort(service: Service, port: number, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (service.child.exitCode !== null) {
      throw new Error(`${service.name} exited with code ${service.child.exitCode} at start`);
    }
    const open = await new Promise<boolean>((done) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.destroy();
        done(true);
      });
      socket.on('error', () => done(false));
    });
    if (open) return;
    await sleep(200);
  }
  throw new Error(`${service.name} did not listen on ${port} within ${timeoutMs} ms`);
}

async function stopService(service: Service): Promise<void> {
  const tree = await processTree(service.pid);
  if (service.child.exitCode === null && service.child.signalCode === null) {
    service.child.kill('SIGTERM');
    const exited = new Promise((r) => service.child.once('exit', r));
    if ((await Promise.race([exited.then(() => true), sleep(10_000)])) !== true) {
      service.child.kill('SIGKILL');
      await exited;
    }
  }
  // ffmpeg children a crashed or killed scheduler left behind
  for (const pid of tree.slice(1)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)))
    .sort();
}

function httpOk(url: string): Promise<boolean> {
  return new Promise((done) => {
    const req = get(url, { agent: false }, (res) => {
      res.resume();
      done(res.statusCode === 200);
    });
    req.on('error', () => done(false));
  });
}

// ---------------------------------------------------------------------------------------------
// Measurement

interface Row {
  tracks: number;
  seconds: number;
  stream: number;
  api: number;
  scheduler: number;
  tree: number;
  processes: number;
  listenerSessions: number;
}

const COLUMNS = [
  'tracks',
  'elapsed s',
  'stream RSS MB',
  'api RSS MB',
  'scheduler node RSS MB',
  'scheduler tree RSS MB (mean)',
  'tree procs (mean)',
  'listener sessions',
];

function formatRow(row: Row): string[] {
  const mb = (kb: number) => (kb / 1024).toFixed(1);
  return [
    String(row.tracks),
    row.seconds.toFixed(0),
    mb(row.stream),
    mb(row.api),
    mb(row.scheduler),
    mb(row.tree),
    row.processes.toFixed(1),
    String(row.listenerSessions),
  ];
}

function printLine(cells: string[]): void {
  console.log(`| ${cells.map((c, i) => c.padStart((COLUMNS[i] as string).length)).join(' | ')} |`);
}

async function measure(
  services: Record<Service['name'], Service>,
  tree: TreeSampler,
  tracks: number,
  startedAt: number,
  listenerSessions: number,
): Promise<Row> {
  const { kb, processes } = await tree.take();
  return {
    tracks,
    seconds: (performance.now() - startedAt) / 1000,
    stream: await rssKb(services.stream.pid),
    api: await rssKb(services.api.pid),
    scheduler: await rssKb(services.scheduler.pid),
    tree: kb,
    processes,
    listenerSessions,
  };
}

function printSlopes(rows: readonly Row[]): void {
  const after = rows.filter((row) => row.tracks >= WARMUP);
  console.log(
    `\nRSS slope after warm-up (least squares over the ${after.length} rows from ${WARMUP} tracks on), KB per track:`,
  );
  const keys = ['stream', 'api', 'scheduler', 'tree'] as const;
  const labels = {
    stream: 'stream',
    api: 'api',
    scheduler: 'scheduler node',
    tree: 'scheduler tree',
  };
  for (const key of keys) {
    const value = slope(after.map((row) => ({ x: row.tracks, y: row[key] })));
    const verdict = Number.isNaN(value) ? 'n/a (fewer than 2 rows)' : value < 10 ? 'ok' : 'GROWS';
    console.log(
      `  ${labels[key].padEnd(15)} ${Number.isNaN(value) ? '-' : value.toFixed(2)}  ${verdict}`,
    );
  }
}

// ---------------------------------------------------------------------------------------------

/**
 * `--diagnostics`: the slope of each service's live heap (after a full collection, from
 * soak-probe.ts) over the tracks after the warm-up, placing each sample by the track on air then.
 */
async function printLiveHeapSlopes(
  dir: string,
  services: readonly Service[],
  trackTimes: readonly number[],
): Promise<void> {
  const tracksAt = (t: number) => trackTimes.filter((at) => at <= t).length;
  console.log('\nLive heap after GC (soak-probe), slope after warm-up, KB per track:');
  for (const service of services) {
    const text = await readFile(join(dir, `${service.name}-${service.pid}.jsonl`), 'utf8').catch(
      () => '',
    );
    const points = text
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { t: number; heapUsed: number })
      .map((sample) => ({ x: tracksAt(sample.t), y: sample.heapUsed }))
      .filter((point) => point.x >= WARMUP);
    const value = slope(points);
    console.log(
      `  ${service.name.padEnd(15)} ${Number.isNaN(value) ? '-' : value.toFixed(2)}  (${points.length} samples)`,
    );
  }
}

async function startStation(
  dir: string,
  music: string,
  redisUrl: string,
  cleanups: (() => Promise<void>)[],
): Promise<{
  services: Record<Service['name'], Service>;
  streamUrl: string;
  apiUrl: string;
  controlPort: number;
}> {
  const logDir = args.diagnostics ? resolve(args.diagnostics) : join(dir, 'logs');
  await mkdir(logDir, { recursive: true });
  const data = join(dir, 'data');
  await mkdir(data, { recursive: true });
  const database = `sqlite:${join(data, 'radio.db')}`;
  const [streamPort, apiPort, controlPort] = [await freePort(), await freePort(), await freePort()];
  const streamUrl = `http://127.0.0.1:${streamPort}`;
  const started: Service[] = [];
  cleanups.push(async () => {
    for (const service of started.reverse()) await stopService(service);
  });
  const launch = async (name: Service['name'], env: Record<string, string>) => {
    const service = await startService(
      name,
      { ...SECRETS, REDIS_URL: redisUrl, ...env },
      logDir,
      args.diagnostics && logDir,
    );
    started.push(service);
    return service;
  };

  const stream = await launch('stream', {
    DATA_DIR: data,
    STREAM_HOST: '127.0.0.1',
    STREAM_PORT: `${streamPort}`,
  });
  await waitForPort(stream, streamPort);
  // The scheduler migrates the database first; the api finds it ready.
  const scheduler = await launch('scheduler', {
    MUSIC_DIR: music,
    DATA_DIR: data,
    DATABASE_URL: database,
    STREAM_URL: streamUrl,
    CONTROL_HOST: '127.0.0.1',
    CONTROL_PORT: `${controlPort}`,
    CROSSFADE_SECONDS: '0',
  });
  await waitForPort(scheduler, controlPort, 120_000);
  const api = await launch('api', {
    MUSIC_DIR: music,
    DATABASE_URL: database,
    API_HOST: '127.0.0.1',
    API_PORT: `${apiPort}`,
    STREAM_URL: streamUrl,
    REGISTRATION: 'closed',
  });
  await waitForPort(api, apiPort);
  return {
    services: { stream, scheduler, api },
    streamUrl,
    apiUrl: `http://127.0.0.1:${apiPort}/api/radio`,
    controlPort,
  };
}

/** Resolves when `count` tracks went on air; rejects when none did for STALL_MS. */
function countTracks(
  bus: Bus,
  onTrack: (count: number) => void,
  count: number,
): { done: Promise<void>; stop: () => void } {
  let played = 0;
  let last = Date.now();
  let unsubscribe = () => {};
  let timer: NodeJS.Timeout | undefined;
  const done = new Promise<void>((resolveDone, reject) => {
    unsubscribe = bus.onEvent(() => {
      played++;
      last = Date.now();
      onTrack(played);
      if (played >= count) resolveDone();
    }, ['player.now-playing']);
    timer = setInterval(() => {
      if (Date.now() - last > STALL_MS) {
        reject(new Error(`no track went on air for ${STALL_MS / 1000} s after ${played} tracks`));
      }
    }, 1000);
  });
  return {
    done,
    stop: () => {
      unsubscribe();
      clearInterval(timer);
    },
  };
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-soak-'));
  await chmod(dir, 0o755);
  const music = join(dir, 'music');
  const redis = pickRedisDb(args.redis as string);
  const cleanups: (() => Promise<void>)[] = [
    async () => rm(dir, { recursive: true, force: true }),
    async () => redis.flush?.(),
  ];
  let stopping = false;
  const cleanup = async () => {
    stopping = true;
    for (const job of cleanups.splice(0).reverse()) await job().catch(() => {});
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => void cleanup().then(() => process.exit(130)));
  }

  try {
    const generating = performance.now();
    const library = await generateSoakLibrary(music, TRACKS, locateFfmpeg().path);
    log(
      `generated ${library.files} files (${library.corrupt} corrupt, ${library.empty} empty, ` +
        `${(library.seconds / 60).toFixed(1)} min of audio) in ${((performance.now() - generating) / 1000).toFixed(1)} s`,
    );
    const files = await listFiles(music);

    const bus = await createRedisBus({
      url: redis.url,
      logger: silentLogger(),
      connectTimeoutMs: 3000,
    }).catch((error: Error) => {
      throw new Error(`bench:soak needs Redis at ${redis.url} (--redis URL): ${error.message}`);
    });
    cleanups.push(() => bus.close());
    const station = await startStation(dir, music, redis.url, cleanups);
    const { services } = station;
    log(
      `stream pid ${services.stream.pid}, scheduler pid ${services.scheduler.pid}, api pid ${services.api.pid}; redis ${redis.url}`,
    );
    while (!(await httpOk(`${station.streamUrl}/radio.mp3`))) await sleep(500);

    const counters = newCounters();
    const stopped = () => stopping;
    const cookie = await apiLogin(station.apiUrl, SECRETS.ADMIN_USER, SECRETS.ADMIN_PASSWORD);
    const load = Promise.all([
      churnListeners(station.streamUrl, LISTENERS, counters, stopped),
      useControlPort(station.controlPort, () => files, counters, stopped),
      useApi(station.apiUrl, cookie, counters, stopped),
    ]);

    const startedAt = performance.now();
    const rows: Row[] = [];
    console.log(
      `\nSoak: ${TRACKS} tracks of 2-5 s, ${LISTENERS} listeners coming and going, control port every 3 s, api every 2 s\n`,
    );
    printLine(COLUMNS);
    printLine(COLUMNS.map((c) => '-'.repeat(c.length)));
    const tree = new TreeSampler(services.scheduler.pid);
    cleanups.push(async () => tree.stop());
    let measuring = Promise.resolve();
    const trackTimes: number[] = [];
    const counting = countTracks(
      bus,
      (played) => {
        trackTimes.push(Date.now());
        if (played % EVERY !== 0) return;
        measuring = measuring
          .then(() => measure(services, tree, played, startedAt, counters.listenerSessions))
          .then((row) => {
            rows.push(row);
            printLine(formatRow(row));
          });
      },
      TRACKS,
    );
    cleanups.push(async () => counting.stop());
    await counting.done;
    await measuring;
    stopping = true;
    counting.stop();
    for (const service of Object.values(services)) {
      if (service.child.exitCode !== null) throw new Error(`${service.name} exited during the run`);
    }
    printSlopes(rows);
    if (args.diagnostics) {
      await printLiveHeapSlopes(resolve(args.diagnostics), Object.values(services), trackTimes);
    }
    console.log(
      `\nload: ${counters.listenerSessions} listener sessions (${counters.listenerErrors} failed), ` +
        `${counters.controlCommands} control commands (${counters.controlErrors} sessions failed), ` +
        `${counters.apiRequests} api requests (${counters.apiErrors} failed)\n`,
    );
    await Promise.race([load, sleep(25_000)]);
  } finally {
    await cleanup();
  }
}

await main();
