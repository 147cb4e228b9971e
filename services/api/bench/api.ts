/**
 * `pnpm bench:api`: requests per second and p50/p99 latency of GET /tracks?q=… and GET /player
 * beside a trivial route of the same app (GET /auth-status with a session: the same middleware,
 * no work), under 32 concurrent keep-alive clients on loopback, with 10,000 tracks. Searches
 * rotate through ten queries (as listeners repeat popular searches and page through results),
 * and a second search row sends a query never seen before on every request (no result reuse;
 * each round goes on where the last one stopped).
 * The api process's CPU time per request is printed too: unlike latency, it barely depends on
 * what else the machine is running.
 *
 * The load comes from wrk (`apt-get install wrk`): one thread, one connection per client, each
 * sending its next request as soon as the last is answered. A load generator in Node spends
 * about as much CPU per request as the api does, on the same two cores, and its own event loop
 * and garbage collector add to every latency it measures; wrk's share is a fraction of that.
 * Each route runs ROUNDS times and the table gives the median round, with the spread of p99,
 * because a shared virtual machine has slow seconds that no server can help.
 *
 * Two set-ups, as the station runs them:
 *  - PostgreSQL, Redis bus, sessions in Redis (the containers);
 *  - SQLite, in-process bus, sessions in SQLite (embedded mode).
 * The api runs in a child process of its own and logs every request at info level to a file,
 * as embedded mode does. A small command handler on the same bus answers player.status and
 * queue.list as the scheduler would.
 *
 * Then the upload rows (bench/uploads.ts): tus throughput, CPU and RSS of the station process
 * while 4 uploads of 200 MB run, and whether playout fell behind meanwhile. Then the report
 * rows (bench/reports.ts): the audience reports over one million listener sessions.
 *
 * Environment: BENCH_SECONDS (5 per round), BENCH_ROUNDS (3), BENCH_WARMUP_SECONDS (3),
 * BENCH_CONCURRENCY (32), BENCH_TRACKS (10000), BENCH_DIALECTS (postgres,sqlite), BENCH_ROUTES
 * (e.g. tracks,player,uploads).
 */
import { type ChildProcess, execFile, fork, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type Bus,
  createLogger,
  createMemoryBus,
  createMemoryHub,
  createRedisBus,
  fileAndConsoleDestination,
  hashPassword,
  type QueueItem,
} from '@radio/core';
import {
  containsIgnoreCase,
  createDb,
  type DbHandle,
  migrateToLatest,
  type NewTrack,
} from '@radio/db';
import { Redis } from 'ioredis';
import { sql } from 'kysely';
import type { TrackListQuery } from '../src/dtos/tracks.dto.ts';
import { createApi } from '../src/index.ts';
import { TracksRepository } from '../src/repositories/tracks.repository.ts';
import { TrackSnapshot } from '../src/search/track-snapshot.ts';
import { REPORT_HEADER, reportRows } from './reports.ts';
import { serveStation, UPLOAD_HEADER, uploadRows } from './uploads.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 3);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);
const TRACKS = Number(process.env.BENCH_TRACKS ?? 10_000);
/** Only the routes whose name contains one of these words (all when unset). */
const ROUTES = process.env.BENCH_ROUTES?.split(',');
const DIALECTS = (process.env.BENCH_DIALECTS ?? 'postgres,sqlite').split(',') as Array<
  'postgres' | 'sqlite'
>;
const POSTGRES_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const BASE = '/api/radio';
/** How long each connection's first request waits for the others to open (see wrkScript). */
const FIRST_REQUEST_DELAY_MS = 200;
const USER = 'bench';
const PASSWORD = 'bench password 1';

// ---------------------------------------------------------------------------------------------
// The library: deterministic, varied tags, so searches hit from a handful to thousands of rows.

const WORDS = (
  'love night blue dance rain fire heart star city dream gold river moon sun echo wild ghost ' +
  'storm light shadow summer winter road home girl boy time world life soul fever paradise ' +
  'midnight electric velvet crystal thunder ocean desert silver neon broken golden lonely ' +
  'sweet cold hot young forever tonight morning angel devil heaven sky fall rise run'
).split(' ');
const GENRES = [
  'Rock',
  'Pop',
  'Jazz',
  'Electronic',
  'Hip-Hop',
  'Classical',
  'Folk',
  'Soul',
  'Metal',
  'Ambient',
];

function pick(seed: number, list: readonly string[]): string {
  return list[Math.abs(Math.imul(seed, 2_654_435_761) >>> 7) % list.length] as string;
}

function library(count: number): NewTrack[] {
  const rows: NewTrack[] = [];
  for (let i = 0; i < count; i++) {
    const artistNo = i % 700;
    const albumNo = Math.floor(i / 10);
    const artist = `${pick(artistNo * 3 + 1, WORDS)} ${pick(artistNo * 5 + 2, WORDS)} ${artistNo % 3 === 0 ? 'Band' : 'Project'}`;
    rows.push({
      path: `${artist}/${albumNo}/${String(i % 10).padStart(2, '0')} track ${i}.mp3`,
      title: `${pick(i * 7 + 3, WORDS)} ${pick(i * 11 + 5, WORDS)}${i % 4 === 0 ? ` ${pick(i * 13 + 1, WORDS)}` : ''}`,
      artist: artist.replace(/^./, (c) => c.toUpperCase()),
      album: `${pick(albumNo * 17 + 4, WORDS)} ${pick(albumNo * 19 + 6, WORDS)} ${albumNo}`,
      genre: pick(artistNo, GENRES),
      year: 1960 + (albumNo % 64),
      track_no: (i % 10) + 1,
      duration: 120 + (i % 240),
      format: 'mp3',
      bitrate: 192_000,
      sample_rate: 44_100,
      channels: 2,
      has_cover: i % 3 === 0 ? 1 : 0,
      size: 4_000_000 + i,
      mtime: 1_700_000_000_000 + i,
      status: i % 97 === 0 ? 'invalid' : 'ok',
      error: i % 97 === 0 ? 'no audio stream' : null,
    });
  }
  return rows;
}

/** Words searched for, in rotation: common and rare words, two-word searches, a near miss. */
const QUERIES = [
  'love',
  'night fire',
  'electric',
  'band',
  'velvet ocean',
  'xyzzy',
  'moon 42',
  'gol',
  'paradise city',
  'summer',
];

/**
 * Searches that are all different (a word and a number), URL-encoded: 59,820 of them, far more
 * than the index keeps results of. Shuffled (7919 is prime to the count), so any stretch of
 * the list has the same mix of numbers with one, two and three digits; the short ones match
 * many tracks and are the dearest searches.
 */
function newQueries(): string[] {
  const count = WORDS.length * 997;
  return Array.from({ length: count }, (_, k) => {
    const n = (k * 7919) % count;
    return encodeURIComponent(`${WORDS[n % WORDS.length]} ${Math.floor(n / WORDS.length)}`);
  });
}

// ---------------------------------------------------------------------------------------------
// The server side (child process).

interface ServeArgs {
  dialect: 'postgres' | 'sqlite';
  url: string;
  redisPrefix: string;
  /** The api logs every request at info level into this file, as embedded mode does. */
  logFile: string;
}

/** Answers the scheduler's read commands, as services/scheduler would. */
function answerLikeTheScheduler(bus: Bus): void {
  const queue: QueueItem[] = Array.from({ length: 5 }, (_, i) => ({
    requestId: `r${i}`,
    trackId: i + 1,
    path: `queued-${i}.mp3`,
    title: `Queued ${i}`,
    artist: 'Someone',
    duration: 200,
    kind: 'request' as const,
  }));
  const startedAt = Date.now();
  bus.handleCommands({
    'player.status': () => ({
      state: 'playing',
      position: (Date.now() - startedAt) / 1000,
      amplify: 1,
      nowPlaying: {
        trackId: 1,
        requestId: null,
        path: 'now.mp3',
        title: 'Now Playing',
        artist: 'Someone',
        album: 'Somewhere',
        duration: 3600,
        startedAt,
        source: 'rotation',
      },
    }),
    'queue.list': () => ({ items: queue }),
  });
}

async function serve(args: ServeArgs): Promise<void> {
  const logger = createLogger({
    service: 'api',
    level: 'info',
    destination: fileAndConsoleDestination(args.logFile, 'silent'),
  });
  const db = await createDb(args.url, { maxConnections: 10 });
  let apiBus: Bus;
  let schedulerBus: Bus;
  let redis: Redis | undefined;
  if (args.dialect === 'postgres') {
    apiBus = await createRedisBus({ url: REDIS_URL, logger, prefix: args.redisPrefix });
    schedulerBus = await createRedisBus({ url: REDIS_URL, logger, prefix: args.redisPrefix });
    redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
  } else {
    const hub = createMemoryHub();
    apiBus = createMemoryBus({ logger, hub });
    schedulerBus = createMemoryBus({ logger, hub });
  }
  answerLikeTheScheduler(schedulerBus);
  const api = createApi(
    {
      host: '127.0.0.1',
      port: 0,
      sessionSecret: randomBytes(24).toString('hex'),
      streamUrl: 'http://127.0.0.1:9',
      musicDir: tmpdir(),
      dataDir: tmpdir(),
      redisPrefix: args.redisPrefix,
      limits: { loginPerIp: { max: 1000, windowMs: 60_000 } },
    },
    { db, bus: apiBus, logger, redis },
  );
  await api.start();
  process.send?.({ port: api.port });
  process.on('message', async (message) => {
    if (message === 'cpu') {
      const { user, system } = process.cpuUsage();
      process.send?.({ cpuMicros: user + system });
      return;
    }
    if (message !== 'stop') return;
    await api.close();
    await Promise.all([apiBus.close(), schedulerBus.close()]);
    await redis?.quit();
    await db.close();
    process.exit(0);
  });
}

// ---------------------------------------------------------------------------------------------
// The load generator (parent process).

interface Round {
  requests: number;
  requestsPerSecond: number;
  /** Milliseconds. */
  p50: number;
  p99: number;
  /** Refused connections, failed reads or writes, timeouts and answers other than 2xx/3xx. */
  errors: number;
}

/**
 * A wrk script that sends `paths` in turn (wrapping around), from the index given after `--`,
 * and prints the round's figures as one JSON line. Paths are URL-encoded, so they need no
 * escaping inside Lua strings.
 *
 * Each connection's first request waits until every connection is open. A busy Node server
 * (even a bare http.createServer) was seen to accept one new connection per turn of its event
 * loop, so the last of 32 connections opened at once waited up to 600 ms for their first
 * request to be read, and wrk's correction for coordinated omission multiplied those few
 * requests into a p99 of 150-300 ms. A round measures requests on open connections, not 32
 * clients arriving in the same millisecond.
 */
function wrkScript(paths: readonly string[]): string {
  return `local paths = {\n${paths.map((path) => `"${path}",`).join('\n')}\n}
local i = 0
local held = 0
init = function(args)
  i = tonumber(args[1] or "0") % #paths
end
delay = function()
  if held < ${CONCURRENCY} then
    held = held + 1
    return ${FIRST_REQUEST_DELAY_MS}
  end
  return 0
end
request = function()
  i = i % #paths + 1
  return wrk.format("GET", paths[i])
end
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('ROUND {"requests":%d,"micros":%d,"p50":%d,"p99":%d,"errors":%d}\\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),
    e.connect + e.read + e.write + e.status + e.timeout))
end
`;
}

/** Sends the script's paths from index `start` on for `seconds`. */
function wrk(
  port: number,
  cookie: string,
  script: string,
  seconds: number,
  start: number,
): Promise<Round> {
  const args = ['-t1', `-c${CONCURRENCY}`, `-d${seconds}s`, '--timeout', '10s'];
  args.push('-s', script, '-H', `Cookie: ${cookie}`, `http://127.0.0.1:${port}`);
  args.push('--', String(start));
  return new Promise((resolve, reject) => {
    execFile('wrk', args, (error, stdout) => {
      const line = stdout.split('\n').find((l) => l.startsWith('ROUND '));
      if (error || line === undefined) {
        reject(new Error(`wrk failed: ${error?.message ?? stdout}`));
        return;
      }
      const r = JSON.parse(line.slice('ROUND '.length)) as {
        requests: number;
        micros: number;
        p50: number;
        p99: number;
        errors: number;
      };
      resolve({
        requests: r.requests,
        requestsPerSecond: r.requests / (r.micros / 1e6),
        p50: r.p50 / 1000,
        p99: r.p99 / 1000,
        errors: r.errors,
      });
    });
  });
}

function requireWrk(): void {
  const probe = spawnSync('wrk', ['-v'], { encoding: 'utf8' });
  if (probe.error) {
    console.error('pnpm bench:api needs wrk, the HTTP load generator: apt-get install wrk');
    process.exit(1);
  }
}

async function login(port: number): Promise<string> {
  const body = JSON.stringify({ username: USER, password: PASSWORD });
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: `${BASE}/auth/login`,
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        res.resume();
        const cookie = String(res.headers['set-cookie'] ?? '').split(';')[0];
        if (res.statusCode !== 200 || !cookie) reject(new Error(`login failed: ${res.statusCode}`));
        else resolve(cookie);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function prepare(
  dialect: 'postgres' | 'sqlite',
): Promise<{ url: string; dir: string; searchRows: string[][]; cleanup(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'radio-api-bench-'));
  const schema = `api_bench_${randomBytes(4).toString('hex')}`;
  const url =
    dialect === 'sqlite' ? `sqlite:${join(dir, 'radio.db')}` : `${POSTGRES_URL}?schema=${schema}`;
  const db: DbHandle = await createDb(url);
  await migrateToLatest(db.db);
  const rows = library(TRACKS);
  for (let i = 0; i < rows.length; i += 500)
    await db.db
      .insertInto('tracks')
      .values(rows.slice(i, i + 500))
      .execute();
  await db.db
    .insertInto('users')
    .values({ username: USER, password_hash: await hashPassword(PASSWORD), role: 'admin' })
    .execute();
  if (dialect === 'postgres') await sql`analyze`.execute(db.db);
  const searchRows = await searchAlone(db);
  await db.close();
  return {
    url,
    dir,
    searchRows,
    async cleanup() {
      if (dialect === 'postgres') {
        const admin = await createDb(POSTGRES_URL);
        await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(admin.db);
        await admin.close();
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

const searchQuery = (q: string): TrackListQuery => ({
  q,
  status: 'ok',
  sort: 'artist',
  order: 'asc',
  page: 1,
  limit: 50,
});

/**
 * The search alone, in this process: what a SQL substring scan costs per search (what the
 * in-memory index replaces) and what the index costs, built, new and repeated.
 */
async function searchAlone(db: DbHandle): Promise<string[][]> {
  const name = db.dialect === 'postgres' ? 'PostgreSQL' : 'SQLite';
  const scans: number[] = [];
  for (let round = 0; round < 3; round++) {
    for (const q of QUERIES) {
      const started = performance.now();
      let query = db.db.selectFrom('tracks').where('status', '=', 'ok');
      for (const word of q.split(' ')) {
        query = query.where((eb) =>
          eb.or([
            containsIgnoreCase('title', word),
            containsIgnoreCase('artist', word),
            containsIgnoreCase('album', word),
          ]),
        );
      }
      await Promise.all([
        query
          .selectAll()
          .orderBy('artist')
          .orderBy('album')
          .orderBy('track_no')
          .limit(50)
          .execute(),
        query.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst(),
      ]);
      scans.push(performance.now() - started);
    }
  }

  let started = performance.now();
  const snapshot = new TrackSnapshot(await new TracksRepository(db).loadAll());
  snapshot.searchJson(searchQuery('love'));
  const build = performance.now() - started;
  const fresh: number[] = [];
  for (let n = 0; n < 300; n++) {
    started = performance.now();
    snapshot.searchJson(searchQuery(`${WORDS[n % WORDS.length]} ${n}`));
    fresh.push(performance.now() - started);
  }
  const repeated: number[] = [];
  for (let n = 0; n < 300; n++) {
    started = performance.now();
    snapshot.searchJson(searchQuery(QUERIES[n % QUERIES.length] as string));
    repeated.push(performance.now() - started);
  }
  const ms = (value: number) => value.toFixed(3);
  const p99 = (values: number[]) => percentile(Float64Array.from(values).sort(), 99);
  return [
    [
      name,
      'SQL LIKE scan (page + count)',
      ms(median(scans)),
      ms(p99(scans)),
      'what each search would cost without the index',
    ],
    [name, 'index: load rows + build', ms(build), '', 'once per library change'],
    [name, 'index: search, new query', ms(median(fresh)), ms(p99(fresh)), 'a page of 50 as JSON'],
    [
      name,
      'index: search, repeated query',
      ms(median(repeated)),
      ms(p99(repeated)),
      'a page of 50 as JSON',
    ],
  ];
}

function startServer(args: ServeArgs): Promise<{ child: ChildProcess; port: number }> {
  return new Promise((resolve, reject) => {
    const child = fork(import.meta.filename, ['--serve', JSON.stringify(args)], {
      stdio: 'inherit',
    });
    child.once('message', (message) =>
      resolve({ child, port: (message as { port: number }).port }),
    );
    child.once('exit', (code) => reject(new Error(`the api process exited with ${code}`)));
  });
}

/** The api process's CPU time so far (µs): load-independent, unlike latencies on a busy machine. */
function cpuOf(child: ChildProcess): Promise<number> {
  return new Promise((resolve) => {
    const onMessage = (message: unknown) => {
      const cpu = (message as { cpuMicros?: number }).cpuMicros;
      if (cpu === undefined) return;
      child.off('message', onMessage);
      resolve(cpu);
    };
    child.on('message', onMessage);
    child.send('cpu');
  });
}

async function stopServer(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.send('stop');
  await exited;
}

async function cleanRedis(prefix: string): Promise<void> {
  const redis = new Redis(REDIS_URL);
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length > 0) await redis.del(...keys);
  await redis.quit();
}

async function main(): Promise<void> {
  const own = ['uploads', 'reports'];
  if (!ROUTES || ROUTES.some((word) => !own.includes(word))) await httpRows();
  if (!ROUTES || ROUTES.some((word) => 'uploads'.includes(word))) {
    const uploads = await uploadRows();
    console.log(
      '\nUploads over tus into the embedded station (one process: stream, scheduler playing, api, web proxy), on loopback:\n',
    );
    printTable(UPLOAD_HEADER, uploads.rows);
    for (const note of uploads.notes) console.log(note);
  }
  if (!ROUTES || ROUTES.some((word) => 'reports'.includes(word))) {
    const reports = await reportRows();
    console.log('\nAudience reports over one million listener sessions:\n');
    printTable(REPORT_HEADER, reports.rows);
    for (const note of reports.notes) console.log(note);
  }
}

/** The wrk rows: the routes under load, on each dialect, and the search alone. */
async function httpRows(): Promise<void> {
  requireWrk();
  const table: string[][] = [];
  const searchTable: string[][] = [];
  for (const dialect of DIALECTS) {
    const setupName = dialect === 'postgres' ? 'PostgreSQL + Redis' : 'SQLite, in-process';
    console.error(`${setupName}: loading ${TRACKS} tracks ...`);
    const database = await prepare(dialect);
    searchTable.push(...database.searchRows);
    const redisPrefix = `bench:api:${randomBytes(4).toString('hex')}:`;
    const { child, port } = await startServer({
      dialect,
      url: database.url,
      redisPrefix,
      logFile: join(database.dir, 'api.log'),
    });
    try {
      const cookie = await login(port);
      const routes: Array<[string, string[]]> = [
        ['GET /auth-status (baseline)', [`${BASE}/auth-status`]],
        ['GET /tracks?q=…', QUERIES.map((q) => `${BASE}/tracks?q=${encodeURIComponent(q)}`)],
        // A new search every time: no result of an earlier search can be reused.
        ['GET /tracks?q=… (every q new)', newQueries().map((q) => `${BASE}/tracks?q=${q}`)],
        ['GET /player', [`${BASE}/player`]],
      ];
      for (const [name, paths] of routes) {
        if (ROUTES && !ROUTES.some((word) => name.includes(word))) continue;
        const script = join(database.dir, 'paths.lua');
        await writeFile(script, wrkScript(paths));
        // Each round goes on where the last stopped, so "every q new" never repeats a search.
        let sent = (await wrk(port, cookie, script, WARMUP_SECONDS, 0)).requests;
        const rounds: Array<Round & { cpuPerRequest: number }> = [];
        for (let round = 0; round < ROUNDS; round++) {
          const cpuBefore = await cpuOf(child);
          const r = await wrk(port, cookie, script, SECONDS, sent);
          sent += r.requests;
          const cpu = (await cpuOf(child)) - cpuBefore;
          rounds.push({ ...r, cpuPerRequest: cpu / (r.requestsPerSecond * SECONDS) });
        }
        console.error(`  ${name}: done`);
        const mid = (pick: (r: (typeof rounds)[number]) => number) => median(rounds.map(pick));
        const p99s = rounds.map((r) => r.p99);
        table.push([
          setupName,
          name,
          mid((r) => r.requestsPerSecond).toFixed(0),
          mid((r) => r.p50).toFixed(2),
          mid((r) => r.p99).toFixed(2),
          `${Math.min(...p99s).toFixed(1)}–${Math.max(...p99s).toFixed(1)}`,
          mid((r) => r.cpuPerRequest).toFixed(0),
          String(rounds.reduce((sum, r) => sum + r.errors, 0)),
        ]);
      }
    } finally {
      await stopServer(child);
      await database.cleanup();
      await cleanRedis(redisPrefix);
    }
  }

  console.log(
    `\n${TRACKS} tracks, ${CONCURRENCY} concurrent keep-alive clients (wrk) on loopback, ${ROUNDS} rounds of ${SECONDS} s per route after ${WARMUP_SECONDS} s warm-up; ` +
      `Node ${process.version}, ${cpus().length} CPUs, load average ${loadavg()[0]?.toFixed(1)} at the end. ` +
      'Figures are the median round; "p99 range" is the lowest and highest p99 of the rounds. ' +
      'Search target: p99 < 20 ms. "api CPU" is the api process\'s CPU time per request.\n',
  );
  printTable(
    ['setup', 'route', 'req/s', 'p50 ms', 'p99 ms', 'p99 range ms', 'api CPU µs/req', 'errors'],
    table,
  );
  console.log('\nThe search alone, in one process:\n');
  printTable(['db', 'method', 'median ms', 'p99 ms', 'note'], searchTable);
}

function printTable(header: string[], rows: string[][]): void {
  const widths = header.map((h, i) =>
    Math.max(h.length, ...rows.map((row) => (row[i] as string).length)),
  );
  const line = (cells: string[]) =>
    `| ${cells.map((c, i) => c.padEnd(widths[i] as number)).join(' | ')} |`;
  console.log(line(header));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const row of rows) console.log(line(row));
}

if (process.argv[2] === '--serve') {
  await serve(JSON.parse(process.argv[3] as string) as ServeArgs);
} else if (process.argv[2] === '--serve-station') {
  await serveStation(process.argv[3] as string);
} else {
  await main();
}
