/**
 * The api's row of `pnpm bench:schedule`: requests per second and p50/p99 latency of
 * GET /schedule/timeline?hours=24 under 32 concurrent keep-alive clients (wrk, one connection
 * each), with the api as embedded mode runs it (SQLite, in-process bus).
 *
 * The scheduler's side of the bus command `schedule.timeline` is the real planner exported by
 * @radio/scheduler, on the station of the scheduler's own bench (services/scheduler/bench/
 * fixture.ts: 10,000 tracks, a week of 40 schedule entries, rules of every kind, requests and
 * hand pushes), answering as the scheduler's runtime does. Two rows: the plan unchanged during a
 * round, and a new plan published every second (far more often than a station re-plans: about
 * once a track). "Plans asked" counts the commands the api sent in a round; "Plan ms" is the
 * planner's median time for the 24 hours.
 *
 * Environment: BENCH_SECONDS (5 per round), BENCH_ROUNDS (3), BENCH_CONCURRENCY (32).
 */
import { execFile, spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type Bus,
  createMemoryBus,
  createMemoryHub,
  hashPassword,
  silentLogger,
  type Timeline,
} from '@radio/core';
import { createDb, migrateToLatest } from '@radio/db';
import { plan, type TimelineLookup, toTimelineEntry } from '@radio/scheduler';
// The scheduler's bench station, so both rows of `pnpm bench:schedule` plan the same week.
import { benchStation } from '../../scheduler/bench/fixture.ts';
import { createApi } from '../src/index.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);
const PATH = '/api/radio/schedule/timeline?hours=24';
const USER = 'bench';
const PASSWORD = 'bench password 1';
const HOUR = 3_600_000;

interface Round {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
}

/**
 * The scheduler's side: each command plans the hours asked from the station's present, as the
 * runtime does; `replan` publishes a new revision as the runtime does when the plan changes.
 */
function answerTimeline(bus: Bus) {
  const station = benchStation();
  const planMs: number[] = [];
  let revision = 1;
  let entries = 0;
  const names = new Map(station.inputs.playlists.map((each) => [each.id, each.name]));
  const lookup: TimelineLookup = {
    track: (id) => station.inputs.tracks.get(id),
    playlistName: (id) => names.get(id),
    requestId: (entry) => entry.requestId,
  };
  const timeline = (hours: number): Timeline => {
    const from = { now: station.now, onAir: null };
    const planned = plan(station.inputs, station.state, from, station.now + hours * HOUR);
    return {
      revision,
      plannedAt: station.now,
      cause: 'track',
      entries: planned.map((entry, index) => toTimelineEntry(entry, index, lookup)),
    };
  };
  bus.handleCommands({
    'schedule.timeline': (payload) => {
      const started = performance.now();
      const answer = timeline(payload.hours);
      planMs.push(performance.now() - started);
      entries = answer.entries.length;
      return answer;
    },
    'schedule.reload': () => ({ revision }),
  });
  return {
    asked: () => planMs.length,
    planMs: () => median(planMs),
    entries: () => entries,
    async replan() {
      revision += 1;
      const first = timeline(1);
      await bus.publishState('schedule.timeline', {
        ...first,
        entries: first.entries.slice(0, 10),
      });
    },
  };
}

const SCRIPT = `done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('ROUND {"requests":%d,"micros":%d,"p50":%d,"p99":%d,"errors":%d}\\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),
    e.connect + e.read + e.write + e.status + e.timeout))
end
`;

function wrk(url: string, cookie: string, script: string): Promise<Round> {
  const args = ['-t1', `-c${CONCURRENCY}`, `-d${SECONDS}s`, '--timeout', '10s', '-s', script];
  args.push('-H', `Cookie: ${cookie}`, url);
  return new Promise((resolve, reject) => {
    execFile('wrk', args, (error, stdout) => {
      const line = stdout.split('\n').find((l) => l.startsWith('ROUND '));
      if (error || line === undefined) {
        reject(new Error(`wrk failed: ${error?.message ?? stdout}`));
        return;
      }
      const r = JSON.parse(line.slice('ROUND '.length));
      resolve({
        requestsPerSecond: r.requests / (r.micros / 1e6),
        p50: r.p50 / 1000,
        p99: r.p99 / 1000,
        errors: r.errors,
      });
    });
  });
}

async function login(base: string): Promise<string> {
  const res = await fetch(`${base}/api/radio/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: USER, password: PASSWORD }),
  });
  const cookie = res.headers.get('set-cookie')?.split(';')[0];
  if (res.status !== 200 || !cookie) throw new Error(`login failed: ${res.status}`);
  return cookie;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

async function measure(
  url: string,
  cookie: string,
  script: string,
  scheduler: ReturnType<typeof answerTimeline>,
  replanEverySecond: boolean,
): Promise<string[]> {
  const rounds: Round[] = [];
  const before = scheduler.asked();
  for (let round = 0; round < ROUNDS; round++) {
    const timer = replanEverySecond ? setInterval(() => void scheduler.replan(), 1000) : null;
    try {
      rounds.push(await wrk(url, cookie, script));
    } finally {
      if (timer) clearInterval(timer);
    }
  }
  const errors = rounds.reduce((sum, r) => sum + r.errors, 0);
  return [
    `GET ${PATH}`,
    replanEverySecond ? 'every second' : 'none',
    String(CONCURRENCY),
    median(rounds.map((r) => r.requestsPerSecond)).toFixed(0),
    median(rounds.map((r) => r.p50)).toFixed(2),
    `${median(rounds.map((r) => r.p99)).toFixed(2)} (${Math.min(...rounds.map((r) => r.p99)).toFixed(1)}-${Math.max(...rounds.map((r) => r.p99)).toFixed(1)})`,
    String(Math.round((scheduler.asked() - before) / ROUNDS)),
    String(errors),
  ];
}

function printTable(header: string[], rows: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    `| ${cells.map((c, i) => c.padEnd(widths[i] as number)).join(' | ')} |`;
  console.log(line(header));
  console.log(`| ${widths.map((w) => '-'.repeat(w)).join(' | ')} |`);
  for (const row of rows) console.log(line(row));
}

async function main(): Promise<void> {
  if (spawnSync('wrk', ['-v']).error) {
    console.error('the timeline bench needs wrk, the HTTP load generator: apt-get install wrk');
    process.exit(1);
  }
  const dir = await mkdtemp(join(tmpdir(), 'radio-timeline-bench-'));
  const db = await createDb(`sqlite:${join(dir, 'radio.db')}`);
  const logger = silentLogger();
  const hub = createMemoryHub();
  const apiBus = createMemoryBus({ logger, hub });
  const schedulerBus = createMemoryBus({ logger, hub });
  const api = createApi(
    {
      sessionSecret: 'bench-session-secret-0123456789',
      streamUrl: 'http://127.0.0.1:9',
      musicDir: dir,
      dataDir: dir,
    },
    { db, bus: apiBus, logger },
  );
  try {
    await migrateToLatest(db.db);
    await db.db
      .insertInto('users')
      .values({ username: USER, password_hash: await hashPassword(PASSWORD), role: 'admin' })
      .execute();
    const scheduler = answerTimeline(schedulerBus);
    await api.start();
    const cookie = await login(api.url);
    const script = join(dir, 'report.lua');
    await writeFile(script, SCRIPT);
    const url = `${api.url}${PATH}`;
    await wrk(url, cookie, script);
    const rows = [
      await measure(url, cookie, script, scheduler, false),
      await measure(url, cookie, script, scheduler, true),
    ];
    console.log(
      `\nThe api's timeline under ${CONCURRENCY} clients (SQLite, in-process bus; the real planner answers on ` +
        `10,000 tracks and a week of schedules, ${scheduler.entries()} entries in 24 hours, planned in ` +
        `${scheduler.planMs().toFixed(1)} ms (median); median of ${ROUNDS} rounds of ${SECONDS} s)\n`,
    );
    printTable(
      [
        'Route',
        'New plans',
        'Clients',
        'Requests/s',
        'p50 ms',
        'p99 ms (spread)',
        'Plans asked per round',
        'Errors',
      ],
      rows,
    );
  } finally {
    await api.close();
    await schedulerBus.close();
    await apiBus.close();
    await db.close();
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
