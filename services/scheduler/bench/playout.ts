// `pnpm --filter @radio/scheduler bench:playout [--seconds 60] [--server icecast|stream]
//  [--skips 3] [--track-seconds 25] [--node-options='--max-semi-space-size=1']
//  [--env MALLOC_ARENA_MAX=1]`
//
// The scheduler, as its container runs it (`node --max-semi-space-size=1 src/main.ts` with
// MALLOC_ARENA_MAX=1), and Liquidsoap 2.1.3 side by side, both playing the same folder into the same stream server with the same three outputs,
// measured over the same window: CPU of each process tree (from /proc, children included),
// memory (RSS summed over the tree; PSS, which splits a shared page between the processes that
// map it; the tree's resident pages each counted once; RSS and process counts split into the
// main process, the encoder and the decoders), bytes each mount
// delivered to a listener against its nominal bitrate, skip latency (control command to the
// next track's audio at a fresh listener), and the scheduler's analysis throughput.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chmod, mkdtemp, open, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { get } from 'node:http';
import { connect } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { locateFfmpeg, runFfmpeg, silentLogger } from '@radio/core';
import { generateTrack } from '@radio/core/test-audio';
import { freePort, RealIcecast } from '@radio/core/testing';
import { createStreamServer, type StreamServer } from '@radio/stream';
import { benchAnalysis } from './analysis.ts';

const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '60' },
    server: { type: 'string', default: 'icecast' },
    skips: { type: 'string', default: '3' },
    'track-seconds': { type: 'string', default: '25' },
    /**
     * Node flags and extra environment (`KEY=VALUE`) for the scheduler; the defaults are the
     * container's (services/scheduler/Dockerfile).
     */
    'node-options': { type: 'string', default: '--max-semi-space-size=1' },
    env: { type: 'string', multiple: true, default: ['MALLOC_ARENA_MAX=1'] },
  },
});
const NODE_FLAGS = (args['node-options'] ?? '').split(' ').filter(Boolean);
const EXTRA_ENV = Object.fromEntries(
  (args.env ?? []).map((pair) => [
    pair.slice(0, pair.indexOf('=')),
    pair.slice(pair.indexOf('=') + 1),
  ]),
);
const WINDOW_S = Number(args.seconds);
const SKIPS = Number(args.skips);
const TRACK_S = Number(args['track-seconds']);
const SOURCE_PASSWORD = 'bench-source';
const ADMIN = { user: 'admin', password: 'bench-admin' };
const ffmpegPath = locateFfmpeg().path;
const CLK_TCK = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
const PAGE = 4096;
const FREQUENCIES = [300, 370, 450, 540, 650, 780];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const log = (text: string) => process.stderr.write(`${text}\n`);

interface System {
  name: string;
  pid: number;
  child: ChildProcess;
  mounts: { label: string; path: string; kbps: number }[];
  controlPort: number;
  skipCommand: string;
}

// ---------------------------------------------------------------------------------------------
// /proc accounting

interface ProcStat {
  pid: number;
  ppid: number;
  /** utime + stime + cutime + cstime: its own CPU and that of its reaped children. */
  ticks: number;
}

async function allStats(): Promise<Map<number, ProcStat>> {
  const stats = new Map<number, ProcStat>();
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const text = await readFile(`/proc/${name}/stat`, 'utf8');
      const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
      const n = (i: number) => Number(fields[i]);
      stats.set(Number(name), {
        pid: Number(name),
        ppid: n(1),
        ticks: n(11) + n(12) + n(13) + n(14),
      });
    } catch {
      // the process ended while we looked
    }
  }
  return stats;
}

function tree(stats: Map<number, ProcStat>, root: number): number[] {
  const pids = [root];
  for (let i = 0; i < pids.length; i++) {
    for (const stat of stats.values()) if (stat.ppid === pids[i]) pids.push(stat.pid);
  }
  return pids.filter((pid) => stats.has(pid));
}

/** CPU seconds of the tree so far (live processes plus what reaped children left in cutime). */
function treeCpu(stats: Map<number, ProcStat>, root: number): number {
  return tree(stats, root).reduce((sum, pid) => sum + (stats.get(pid)?.ticks ?? 0), 0) / CLK_TCK;
}

/** What a process of the tree is there for, from its command line. */
type Role = 'main' | 'encoder' | 'decoder' | 'other';
const ROLES: readonly Role[] = ['main', 'encoder', 'decoder', 'other'];

async function roleOf(pid: number, root: number): Promise<Role> {
  if (pid === root) return 'main';
  const argv = (await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '')).split('\0');
  if (!/ffmpeg$/.test(argv[0] ?? '')) return 'other';
  // The encoder reads PCM on stdin; a decoder reads a file and writes PCM to stdout.
  return argv.includes('pipe:0') ? 'encoder' : argv.includes('pipe:1') ? 'decoder' : 'other';
}

/**
 * The physical pages resident in any process of the tree, each counted once (from
 * /proc/<pid>/pagemap; root only, else null): what the tree holds in RAM. Summed RSS counts a
 * library page once per process that maps it, PSS splits it with processes outside the tree.
 */
async function residentPages(pids: readonly number[]): Promise<Set<number> | null> {
  const frames = new Set<number>();
  for (const pid of pids) {
    const file = await open(`/proc/${pid}/pagemap`, 'r').catch(() => null);
    if (!file) continue;
    try {
      for (const range of await residentRanges(pid)) {
        const entries = new BigUint64Array(range.pages);
        await file.read(new Uint8Array(entries.buffer), 0, range.pages * 8, range.first * 8);
        for (const entry of entries) {
          // Bit 63: present; bits 0-54: the page frame (zero without CAP_SYS_ADMIN).
          if (entry >> 63n) frames.add(Number(entry & 0x7f_ffff_ffff_ffffn));
        }
      }
    } finally {
      await file.close();
    }
  }
  return frames.size > 0 && !frames.has(0) ? frames : null;
}

/** The mappings of a process that have pages in memory, in pages. */
async function residentRanges(pid: number): Promise<{ first: number; pages: number }[]> {
  const smaps = await readFile(`/proc/${pid}/smaps`, 'utf8').catch(() => '');
  const ranges: { first: number; pages: number }[] = [];
  let range: { first: number; pages: number } | null = null;
  for (const line of smaps.split('\n')) {
    const mapping = /^([0-9a-f]+)-([0-9a-f]+) /.exec(line);
    if (mapping) {
      const from = Number.parseInt(mapping[1] as string, 16);
      const to = Number.parseInt(mapping[2] as string, 16);
      range = { first: from / PAGE, pages: (to - from) / PAGE };
    } else if (range && /^Rss:\s+[1-9]/.test(line)) {
      ranges.push(range);
    }
  }
  return ranges;
}

interface TreeMemory {
  rss: number;
  pss: number;
  /** MB resident in the tree, each page once (null when pagemap is not readable). */
  unique: number | null;
  processes: number;
  /** RSS and count by role. */
  roles: Record<Role, { rss: number; count: number }>;
}

async function treeMemory(root: number): Promise<TreeMemory> {
  const pids = tree(await allStats(), root);
  const memory: TreeMemory = {
    rss: 0,
    pss: 0,
    unique: null,
    processes: pids.length,
    roles: {
      main: { rss: 0, count: 0 },
      encoder: { rss: 0, count: 0 },
      decoder: { rss: 0, count: 0 },
      other: { rss: 0, count: 0 },
    },
  };
  for (const pid of pids) {
    const text = await readFile(`/proc/${pid}/smaps_rollup`, 'utf8').catch(() => '');
    const rss = Number(/^Rss:\s+(\d+)/m.exec(text)?.[1] ?? 0) / 1024;
    memory.rss += rss;
    memory.pss += Number(/^Pss:\s+(\d+)/m.exec(text)?.[1] ?? 0) / 1024;
    const role = memory.roles[await roleOf(pid, root)];
    role.rss += rss;
    role.count += 1;
  }
  const frames = await residentPages(pids);
  memory.unique = frames === null ? null : (frames.size * PAGE) / 1024 / 1024;
  return memory;
}

// ---------------------------------------------------------------------------------------------
// Listeners

interface Counter {
  bytes: number;
  close(): void;
}

function countBytes(url: string): Counter {
  const counter: Counter = { bytes: 0, close: () => req.destroy() };
  const req = get(url, { agent: false }, (res) => {
    res.on('data', (chunk: Buffer) => {
      counter.bytes += chunk.length;
    });
    res.on('error', () => {});
  });
  req.on('error', () => {});
  return counter;
}

function telnet(port: number, line: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(`${line}\n`));
    let text = '';
    socket.on('data', (chunk) => {
      text += chunk.toString();
      if (text.includes('END\r\n')) socket.end();
    });
    socket.on('close', () => resolve(text));
    socket.on('error', () => resolve(text));
    setTimeout(() => socket.destroy(), 3000);
  });
}

/** Frequency (Hz) of the left channel in each 50 ms window, from zero crossings. */
function windowFrequencies(pcm: Int16Array): number[] {
  const size = 2205;
  const out: number[] = [];
  for (let start = 0; start + size <= pcm.length / 2; start += size) {
    let crossings = 0;
    let peak = 0;
    for (let i = start + 1; i < start + size; i++) {
      const a = pcm[(i - 1) * 2] as number;
      const b = pcm[i * 2] as number;
      if ((a < 0 && b >= 0) || (a >= 0 && b < 0)) crossings++;
      peak = Math.max(peak, Math.abs(b));
    }
    out.push(peak < 500 ? 0 : crossings / 2 / (size / 44_100));
  }
  return out;
}

/**
 * Sends the skip, then listens like a new listener on the 128k MP3 mount and finds when the
 * next track's audio arrived (the new tone's first window), in ms after the command.
 */
async function skipLatency(
  system: System,
  mount: string,
  dir: string,
  n: number,
): Promise<number | null> {
  const arrivals: { offset: number; at: number }[] = [];
  const chunks: Buffer[] = [];
  let size = 0;
  const sentAt = performance.now();
  await telnet(system.controlPort, system.skipCommand);
  await new Promise<void>((resolve) => {
    const req = get(mount, { agent: false }, (res) => {
      res.on('data', (chunk: Buffer) => {
        arrivals.push({ offset: size, at: performance.now() - sentAt });
        chunks.push(chunk);
        size += chunk.length;
      });
      res.on('error', () => {});
    });
    req.on('error', () => resolve());
    setTimeout(() => {
      req.destroy();
      resolve();
    }, 4000);
  });
  const input = join(dir, `skip-${system.name.replace(/\W/g, '')}-${n}.mp3`);
  const output = `${input}.pcm`;
  await writeFile(input, Buffer.concat(chunks));
  await runFfmpeg(
    ['-loglevel', 'error', '-y', '-i', input, '-f', 's16le', '-ac', '2', '-ar', '44100', output],
    {
      ffmpegPath,
      logger: silentLogger(),
      name: 'bench decode',
    },
  );
  const pcm = await readFile(output);
  const freqs = windowFrequencies(
    new Int16Array(pcm.buffer, pcm.byteOffset, Math.floor(pcm.length / 2)),
  );
  const last = freqs.at(-2) ?? 0;
  const near = (f: number) => Math.abs(f - last) / last < 0.05;
  // The new track: the window after the last one that was not the final tone.
  let first = -1;
  for (let i = freqs.length - 2; i >= 0; i--) {
    if (!near(freqs[i] as number)) break;
    first = i;
  }
  if (first <= 0) return null; // the capture held only one tone: no switch seen
  const byte = ((first * 2205) / 44_100) * 16_000; // 128 kbit/s CBR
  const arrival =
    arrivals.find((_arrival, i) => (arrivals[i + 1]?.offset ?? Number.POSITIVE_INFINITY) > byte) ??
    arrivals.at(-1);
  return arrival ? arrival.at : null;
}

// ---------------------------------------------------------------------------------------------

async function waitForMounts(base: string, paths: string[]): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (const path of paths) {
    for (;;) {
      const ok = await new Promise<boolean>((resolve) => {
        const req = get(`${base}${path}`, { agent: false }, (res) => {
          res.destroy();
          resolve(res.statusCode === 200);
        });
        req.on('error', () => resolve(false));
      });
      if (ok) break;
      if (Date.now() > deadline) throw new Error(`${path} never came up`);
      await sleep(250);
    }
  }
}

/**
 * The scheduler measures loudness and cues once, at scan, in the background (Liquidsoap would
 * measure while it plays, so it has no such figure): seconds of audio per CPU-second.
 */
async function analysisRow(): Promise<[string, ...string[]]> {
  const result = await benchAnalysis({ files: 10, seconds: 30, ffmpegPath });
  return [
    'analysis at scan, s of audio per s of one core',
    '- (measures while playing)',
    `${result.perCpuSecond.toFixed(1)} (${result.audioSeconds.toFixed(0)} s in ${result.cpuSeconds.toFixed(1)} CPU s)`,
  ];
}

async function main(): Promise<void> {
  const loadAtStart = loadavg()
    .map((load) => load.toFixed(2))
    .join(' ');
  const dir = await mkdtemp(join(tmpdir(), 'bench-playout-'));
  await chmod(dir, 0o755);
  const music = join(dir, 'music');
  const cleanups: (() => Promise<void>)[] = [async () => rm(dir, { recursive: true, force: true })];
  const cleanup = async () => {
    for (const job of cleanups.splice(0).reverse()) await job().catch(() => {});
  };
  process.on('SIGINT', () => void cleanup().then(() => process.exit(130)));

  try {
    log(`generating ${FREQUENCIES.length} tracks of ${TRACK_S} s ...`);
    for (const [i, frequency] of FREQUENCIES.entries()) {
      const format = i % 2 === 0 ? 'mp3' : 'flac';
      await generateTrack(
        join(music, `${String(i + 1).padStart(2, '0')} - Tone ${frequency}.${format}`),
        {
          format,
          durationSeconds: TRACK_S,
          frequency,
          tags: { title: `Tone ${frequency}`, artist: 'Bench' },
        },
        { ffmpegPath },
      );
    }
    execFileSync('chmod', ['-R', 'a+rX', dir]);

    let base: string;
    let serverName: string;
    let icecast: RealIcecast | null = null;
    let stream: StreamServer | null = null;
    if (args.server === 'icecast') {
      icecast = await RealIcecast.start({
        sourcePassword: SOURCE_PASSWORD,
        adminUser: ADMIN.user,
        adminPassword: ADMIN.password,
      });
    }
    if (icecast) {
      base = icecast.url;
      serverName = 'Icecast 2.4.4';
      cleanups.push(() => (icecast as RealIcecast).stop());
    } else {
      stream = createStreamServer(
        {
          host: '127.0.0.1',
          port: 0,
          adminUser: ADMIN.user,
          adminPassword: ADMIN.password,
          sourcePassword: SOURCE_PASSWORD,
        },
        { logger: silentLogger() },
      );
      await stream.start();
      base = stream.url;
      serverName = '@radio/stream';
      cleanups.push(() => (stream as StreamServer).close());
    }
    const port = Number(new URL(base).port);

    // The scheduler as its container runs it.
    const ourControl = await freePort();
    const ours = spawn(
      process.execPath,
      [...NODE_FLAGS, fileURLToPath(new URL('../src/main.ts', import.meta.url))],
      {
        env: {
          PATH: process.env.PATH ?? '',
          MUSIC_DIR: music,
          DATA_DIR: join(dir, 'data'),
          DATABASE_URL: `sqlite:${join(dir, 'data', 'radio.db')}`,
          STREAM_URL: base,
          SOURCE_PASSWORD,
          ADMIN_PASSWORD: ADMIN.password,
          CONTROL_HOST: '127.0.0.1',
          CONTROL_PORT: String(ourControl),
          LOG_LEVEL: 'warn',
          ...EXTRA_ENV,
        },
        stdio: ['ignore', 'ignore', 'inherit'],
      },
    );
    cleanups.push(async () => {
      ours.kill('SIGTERM');
      await new Promise((resolve) => ours.once('exit', resolve));
    });

    // Liquidsoap, as in the reference captures (shared/reference/README.md).
    const lsControl = await freePort();
    const script = join(dir, 'radio.liq');
    const out = (encoder: string, id: string, mount: string, extra = '') =>
      `output.icecast(${encoder}, id="${id}", host="127.0.0.1", port=${port}, password="${SOURCE_PASSWORD}", mount="${mount}"${extra}, radio)`;
    await writeFile(
      script,
      [
        'settings.log.stdout.set(false)',
        'settings.log.file.set(false)',
        'settings.server.telnet.set(true)',
        'settings.server.telnet.bind_addr.set("127.0.0.1")',
        `settings.server.telnet.port.set(${lsControl})`,
        'amp = interactive.float("amplify", 1.0)',
        'queue = request.queue(id="request")',
        `pl = playlist(id="playlist", reload_mode="watch", "${music}")`,
        'radio = fallback(id="radio", [queue, pl])',
        'radio = mksafe(amplify(amp, radio))',
        out('%mp3(bitrate=128)', 'ls_mp3', '/ls/radio.mp3'),
        out(
          '%ffmpeg(format="adts", %audio(codec="aac", b="96k"))',
          'ls_aac',
          '/ls/radio.aac',
          ', format="audio/aac"',
        ),
        out('%mp3(bitrate=64)', 'ls_low', '/ls/radio-low.mp3'),
        '',
      ].join('\n'),
    );
    await chmod(script, 0o644);
    const liquidsoap = spawn(
      'setpriv',
      ['--reuid=liquidsoap', '--regid=liquidsoap', '--clear-groups', 'liquidsoap', script],
      { stdio: 'ignore' },
    );
    cleanups.push(async () => {
      liquidsoap.kill('SIGTERM');
      await new Promise((resolve) => liquidsoap.once('exit', resolve));
    });

    const systems: System[] = [
      {
        name: 'Liquidsoap 2.1.3',
        pid: liquidsoap.pid as number,
        child: liquidsoap,
        controlPort: lsControl,
        skipCommand: 'playlist.skip',
        mounts: [
          { label: 'MP3 128k', path: '/ls/radio.mp3', kbps: 128 },
          { label: 'AAC 96k', path: '/ls/radio.aac', kbps: 96 },
          { label: 'MP3 64k', path: '/ls/radio-low.mp3', kbps: 64 },
        ],
      },
      {
        name: 'scheduler',
        pid: ours.pid as number,
        child: ours,
        controlPort: ourControl,
        skipCommand: 'request.skip',
        mounts: [
          { label: 'MP3 128k', path: '/radio.mp3', kbps: 128 },
          { label: 'AAC 96k', path: '/radio.aac', kbps: 96 },
          { label: 'MP3 64k', path: '/radio-low.mp3', kbps: 64 },
        ],
      },
    ];

    log(`waiting for the six mounts on ${serverName} ...`);
    for (const system of systems)
      await waitForMounts(
        base,
        system.mounts.map((m) => m.path),
      );
    log('warming up 5 s ...');
    await sleep(5000);
    const listeners = systems.map((system) =>
      system.mounts.map((mount) => countBytes(`${base}${mount.path}`)),
    );
    cleanups.push(async () => {
      for (const list of listeners) for (const listener of list) listener.close();
    });
    await sleep(3000); // past the burst each listener gets on connect

    log(`measuring ${WINDOW_S} s ...`);
    const startStats = await allStats();
    const cpu0 = systems.map((s) => treeCpu(startStats, s.pid));
    const bytes0 = listeners.map((list) => list.map((l) => l.bytes));
    const t0 = performance.now();
    const memory = systems.map(() => ({
      rss: 0,
      pss: 0,
      unique: 0,
      rssPeak: 0,
      processes: 0,
      samples: 0,
      roles: Object.fromEntries(ROLES.map((role) => [role, { rss: 0, most: 0 }])) as Record<
        Role,
        { rss: number; most: number }
      >,
    }));
    while (performance.now() - t0 < WINDOW_S * 1000) {
      await sleep(1000);
      for (const [i, system] of systems.entries()) {
        const m = await treeMemory(system.pid);
        const acc = memory[i] as (typeof memory)[number];
        acc.rss += m.rss;
        acc.pss += m.pss;
        acc.unique += m.unique ?? Number.NaN;
        acc.rssPeak = Math.max(acc.rssPeak, m.rss);
        acc.processes = Math.max(acc.processes, m.processes);
        acc.samples += 1;
        for (const role of ROLES) {
          acc.roles[role].rss += m.roles[role].rss;
          acc.roles[role].most = Math.max(acc.roles[role].most, m.roles[role].count);
        }
      }
    }
    const elapsed = (performance.now() - t0) / 1000;
    const endStats = await allStats();
    const cpu = systems.map(
      (s, i) => ((treeCpu(endStats, s.pid) - (cpu0[i] as number)) / elapsed) * 100,
    );
    const delivered = listeners.map((list, i) =>
      list.map((l, j) => l.bytes - (bytes0[i]?.[j] as number)),
    );

    log(`skip latency, ${SKIPS} skips each ...`);
    const skips: (number | null)[][] = systems.map(() => []);
    for (let n = 0; n < SKIPS; n++) {
      for (const [i, system] of systems.entries()) {
        await sleep(3000);
        skips[i]?.push(await skipLatency(system, `${base}${system.mounts[0]?.path}`, dir, n));
      }
    }

    const median = (values: (number | null)[]) => {
      const ok = values.filter((v): v is number => v !== null).sort((a, b) => a - b);
      return ok.length === 0 ? null : (ok[Math.floor(ok.length / 2)] as number);
    };
    const cols = systems.map((s) => s.name);
    const rows: [string, ...string[]][] = [
      ['CPU, % of one core (process tree)', ...cpu.map((c) => c.toFixed(2))],
      [
        'RSS total, MB (sum over the tree, mean)',
        ...memory.map((m) => (m.rss / m.samples).toFixed(1)),
      ],
      [
        'PSS total, MB (shared pages split, mean)',
        ...memory.map((m) => (m.pss / m.samples).toFixed(1)),
      ],
      [
        'resident, MB (each page once across the tree, mean)',
        ...memory.map((m) => (Number.isNaN(m.unique) ? 'n/a' : (m.unique / m.samples).toFixed(1))),
      ],
      ['RSS peak, MB', ...memory.map((m) => m.rssPeak.toFixed(1))],
      [
        'RSS by role, MB (mean): main / encoder / decoders',
        ...memory.map((m) =>
          (['main', 'encoder', 'decoder'] as const)
            .map((role) =>
              m.roles[role].most === 0 ? '-' : (m.roles[role].rss / m.samples).toFixed(1),
            )
            .join(' / '),
        ),
      ],
      [
        'processes (most at once): all / encoders / decoders',
        ...memory.map((m) => `${m.processes} / ${m.roles.encoder.most} / ${m.roles.decoder.most}`),
      ],
    ];
    for (const [j, mount] of (systems[0]?.mounts ?? []).entries()) {
      rows.push([
        `${mount.label}: bytes in ${elapsed.toFixed(1)} s vs nominal`,
        ...systems.map((_, i) => {
          const got = delivered[i]?.[j] as number;
          const nominal = (mount.kbps * 1000 * elapsed) / 8;
          const pct = ((got / nominal - 1) * 100).toFixed(2);
          return `${got} (${Number(pct) >= 0 ? '+' : ''}${pct} %)`;
        }),
      ]);
    }
    rows.push([
      `skip latency, ms (median of ${SKIPS}; each)`,
      ...skips.map((list) => {
        const m = median(list);
        return `${m === null ? 'n/a' : m.toFixed(0)} (${list.map((v) => (v === null ? '-' : v.toFixed(0))).join(', ')})`;
      }),
    ]);
    log('analysis throughput ...');
    rows.push(await analysisRow());
    const width0 = Math.max(...rows.map((r) => r[0].length));
    const widths = cols.map((c, i) =>
      Math.max(c.length, ...rows.map((r) => (r[i + 1] ?? '').length)),
    );
    const line = (cells: string[]) =>
      `| ${cells.map((cell, i) => cell.padEnd(i === 0 ? width0 : (widths[i - 1] as number))).join(' | ')} |`;
    console.log(
      `\nPlayout benchmark: ${elapsed.toFixed(1)} s window, stream server ${serverName}, ${FREQUENCIES.length} tracks of ${TRACK_S} s, ${cpus().length} cores, load average ${loadAtStart} at start${NODE_FLAGS.length + (args.env ?? []).length > 0 ? `, scheduler run with ${[...(args.env ?? []), ...NODE_FLAGS].join(' ')}` : ''}\n`,
    );
    console.log(line(['', ...cols]));
    console.log(line(['-'.repeat(width0), ...widths.map((w) => '-'.repeat(w))]));
    for (const row of rows) console.log(line(row));
    console.log('');
  } finally {
    await cleanup();
  }
}

await main();
