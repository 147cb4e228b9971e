// `pnpm bench:schedule [--runs 200]`
//
// The planner on a station of 10,000 tracks (2,000 artists) with a week of 40 schedule
// entries, rules of every kind and 500 rows of history (bench/fixture.ts): the time to plan
// 24 hours, with the inputs the scheduler keeps between re-plans and with new ones (after a
// reload, when the planner's lookups are rebuilt), and the time of one pick (plan the next
// entry, then commit it as it goes on air), each run from another hour of the week.
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { commit, plan } from '../src/programming/planner.ts';
import type { PlanFrom, PlannerState } from '../src/programming/planner-api.ts';
import { after, type BenchStation, benchStation } from './fixture.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** Wall time and this process's CPU time of one run, ms. */
interface Sample {
  readonly wall: number;
  readonly cpu: number;
}

interface Row {
  readonly name: string;
  readonly samples: Sample[];
  readonly targetMs: number;
}

function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? Number.NaN;
}

/**
 * Both clocks: on a machine shared with other work the wall time's tail is mostly waiting for
 * a core, which the CPU time leaves out.
 */
function time(run: () => void): Sample {
  const cpu = process.cpuUsage();
  const started = performance.now();
  run();
  const wall = performance.now() - started;
  const used = process.cpuUsage(cpu);
  return { wall, cpu: (used.user + used.system) / 1000 };
}

/** Where run `i` starts: 47 minutes apart, so the runs sample the whole week. */
const startOf = (station: BenchStation, i: number): PlanFrom => ({
  now: station.now + i * 47 * 60_000,
  onAir: null,
});

function planRows(station: BenchStation, runs: number): Row[] {
  const cached: Sample[] = [];
  const fresh: Sample[] = [];
  let entries = 0;
  for (let i = 0; i < runs; i++) {
    const from = startOf(station, i);
    cached.push(
      time(() => (entries += plan(station.inputs, station.state, from, from.now + DAY).length)),
    );
    // What a reload costs: the library, playlists and schedule read anew (the planner's
    // lookups are keyed by their identity).
    const reloaded = {
      ...station.inputs,
      tracks: new Map(station.inputs.tracks),
      playlists: station.inputs.playlists.map((p) => ({ ...p })),
      schedules: station.inputs.schedules.map((e) => ({ ...e })),
    };
    fresh.push(time(() => plan(reloaded, station.state, from, from.now + DAY)));
  }
  console.log(`(a 24-hour plan holds ${Math.round(entries / runs)} entries on average)`);
  return [
    { name: 'plan 24 h', samples: cached, targetMs: 50 },
    { name: 'plan 24 h after a reload', samples: fresh, targetMs: 50 },
  ];
}

/** Plays the station on, one entry at a time as the runtime does, timing each pick. */
function pickRow(station: BenchStation, runs: number): Row {
  const samples: Sample[] = [];
  let state: PlannerState = station.state;
  let from: PlanFrom = startOf(station, 0);
  for (let i = 0; i < runs; i++) {
    // The runtime makes new inputs after each commit (the queue and requests move), keeping
    // the library, playlists and schedule.
    const inputs = { ...station.inputs };
    samples.push(
      time(() => {
        const [entry] = plan(inputs, state, from, from.now + HOUR, 1);
        if (!entry) throw new Error('the planner found nothing to play');
        state = commit(inputs, state, entry, entry.at);
        from = entry.trackId === null ? { now: entry.end, onAir: null } : after(entry);
      }),
    );
  }
  return { name: 'pick (next entry, then commit)', samples, targetMs: 1 };
}

function printTable(rows: readonly Row[], runs: number): void {
  const load = loadavg()[0]?.toFixed(1);
  console.log(
    `\nSchedule benchmark: ${runs} runs each, 10,000 tracks, a week of 40 schedule entries`,
  );
  console.log(
    `(${cpus().length} cores, load average ${load} at the end; CPU: this process's time)\n`,
  );
  console.log('| Measure | Median | p99 | CPU median | CPU p99 | Target | Met (wall p99) |');
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | --- |');
  const ms = (value: number) => `${value.toFixed(value < 1 ? 3 : 1)} ms`;
  for (const row of rows) {
    const wall = row.samples.map((s) => s.wall).sort((a, b) => a - b);
    const cpu = row.samples.map((s) => s.cpu).sort((a, b) => a - b);
    const [median, p99] = [quantile(wall, 0.5), quantile(wall, 0.99)];
    const met = p99 < row.targetMs ? 'yes' : quantile(cpu, 0.99) < row.targetMs ? 'CPU only' : 'no';
    const cells = [median, p99, quantile(cpu, 0.5), quantile(cpu, 0.99)].map(ms).join(' | ');
    console.log(`| ${row.name} | ${cells} | < ${row.targetMs} ms | ${met} |`);
  }
  console.log('');
}

function main(): void {
  const { values } = parseArgs({ options: { runs: { type: 'string', default: '200' } } });
  const runs = Math.max(10, Number(values.runs));
  const station = benchStation();
  // Warm up: the JIT, the zone's offsets and the shuffles' permutations.
  planRows(station, 10);
  pickRow(station, 50);
  printTable([...planRows(station, runs), pickRow(station, runs)], runs);
}

main();
