/*
 * `pnpm bench:hls`: how far an HLS player is behind a listener of the Icecast MP3 mount, and
 * what HLS listeners cost the stream server.
 *
 *   node bench/hls.ts [--switches 10] [--every 6] [--segment 2] [--listeners 1000] [--seconds 20]
 *
 * Delay: the stream server runs as its own process with default settings (HLS_SEGMENT_SECONDS
 * 2 unless --segment). One ffmpeg encodes the same PCM to /radio.mp3 (MP3 128k) and /radio.aac
 * (AAC 96k); this process writes that PCM in real time and switches its tone between 440 and
 * 880 Hz --switches times. Two players decode and report when they carry each switch:
 *   - mp3: a plain HTTP listener of /radio.mp3 piped into an ffmpeg decoder (bytes decoded as
 *     they arrive);
 *   - hls: `ffmpeg -re -live_start_index -1 -i /hls/radio.m3u8`, a real-time player starting
 *     in the newest segment, where the playlist's EXT-X-START points hls.js and Safari (this
 *     ffmpeg, 5.1, does not read EXT-X-START itself). A new one joins before each switch, at a
 *     random moment, and hears the switch --every seconds later at most.
 * Printed: each path's delay after the source, and HLS behind MP3 (median, p95; target < 4 s).
 *
 * CPU: --listeners HLS clients on loopback addresses, each on its own kept-alive connection,
 * fetch the media playlist and the newest segment once per segment duration (a player's
 * pattern); the server's CPU over --seconds, minus its CPU with the source alone, per 1,000
 * listeners.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loopbackAddress } from './loopback.ts';

const here = dirname(fileURLToPath(import.meta.url));
const packageDir = join(here, '..');
const SOURCE_PASSWORD = 'bench-source-password';
const ADMIN_PASSWORD = 'bench-admin-password';
const RATE = 44100;
const DECODE_RATE = 8000;
const TONES = [440, 880] as const;
const CLOCK_TICKS = 100;

interface Options {
  switches: number;
  every: number;
  segment: number;
  listeners: number;
  seconds: number;
}

function parseArgs(argv: string[]): Options {
  const options: Options = { switches: 10, every: 6, segment: 2, listeners: 1000, seconds: 20 };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--') continue; // what `pnpm bench:hls -- …` passes on
    const [flag, inline] = (argv[i] as string).split('=');
    const value = Number(inline ?? argv[++i]);
    const key = flag?.replace(/^--/, '') as keyof Options;
    if (!(key in options) || !Number.isFinite(value) || value < 0) {
      console.error(`unknown or bad option ${flag}`);
      process.exit(2);
    }
    options[key] = value;
  }
  return options;
}

const children: ChildProcess[] = [];
function track<T extends ChildProcess>(child: T): T {
  children.push(child);
  return child;
}
process.on('exit', () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
});
process.on('SIGINT', () => process.exit(130));
process.on('SIGTERM', () => process.exit(143));

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

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

function cpuSeconds(pid: number): number {
  const fields = (readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1] ?? '').split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
}

async function startServer(port: number, dataDir: string, segment: number): Promise<ChildProcess> {
  const server = track(
    spawn(process.execPath, ['--max-semi-space-size=4', 'src/main.ts'], {
      cwd: packageDir,
      stdio: ['ignore', 'ignore', 'inherit'],
      env: {
        ...process.env,
        STREAM_HOST: '127.0.0.1',
        STREAM_PORT: String(port),
        ADMIN_PASSWORD,
        SOURCE_PASSWORD,
        DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
        HLS_SEGMENT_SECONDS: String(segment),
        REDIS_URL: '',
      },
    }),
  );
  for (let i = 0; i < 100; i++) {
    const up = await fetch(`http://127.0.0.1:${port}/health`).then(
      (res) => res.ok,
      () => false,
    );
    if (up) return server;
    await sleep(100);
  }
  throw new Error('the stream server did not start');
}

/**
 * The source: PCM written in real time into one ffmpeg that feeds both mounts. Returns the
 * wall-clock times at which each tone switch was written.
 */
function startSource(port: number): { switchAt: number[]; toneAt: (ms: number) => void } {
  const target = (mount: string): string =>
    `icecast://source:${SOURCE_PASSWORD}@127.0.0.1:${port}${mount}`;
  const ffmpeg = track(
    spawn(
      'ffmpeg',
      ['-loglevel', 'error', '-f', 's16le', '-ar', String(RATE), '-ac', '1', '-i', 'pipe:0']
        .concat(['-map', '0', '-ac', '2', '-c:a', 'libmp3lame', '-b:a', '128k', '-f', 'mp3'])
        .concat(['-content_type', 'audio/mpeg', target('/radio.mp3')])
        .concat(['-map', '0', '-ac', '2', '-c:a', 'aac', '-b:a', '96k', '-f', 'adts'])
        .concat(['-content_type', 'audio/aac', target('/radio.aac')]),
      { stdio: ['pipe', 'ignore', 'inherit'] },
    ),
  );
  const switchAt: number[] = [];
  const startedAt = Date.now();
  let written = 0;
  let tone = 0;
  let phase = 0;
  let switchPending = false;
  const timer = setInterval(() => {
    const due = Math.floor(((Date.now() - startedAt) * RATE) / 1000);
    if (due <= written) return;
    const pcm = Buffer.alloc((due - written) * 2);
    for (let i = 0; i < due - written; i++) {
      if (switchPending && i === 0) {
        switchPending = false;
        tone = 1 - tone;
        switchAt.push(startedAt + (written * 1000) / RATE);
      }
      phase += (2 * Math.PI * (tone === 0 ? TONES[0] : TONES[1])) / RATE;
      pcm.writeInt16LE(Math.round(Math.sin(phase) * 12000), i * 2);
    }
    written = due;
    ffmpeg.stdin?.write(pcm);
  }, 10);
  ffmpeg.once('exit', () => clearInterval(timer));
  return {
    switchAt,
    toneAt: () => {
      switchPending = true;
    },
  };
}

/** Power of `frequency` in a window (Goertzel). */
function power(samples: Int16Array, frequency: number): number {
  const k = 2 * Math.cos((2 * Math.PI * frequency) / DECODE_RATE);
  let s1 = 0;
  let s2 = 0;
  for (const x of samples) {
    const s = x + k * s1 - s2;
    s2 = s1;
    s1 = s;
  }
  return s1 * s1 + s2 * s2 - k * s1 * s2;
}

/** Follows a decoder's output: the wall-clock times at which its dominant tone flips. */
function toneWatcher(decoder: ChildProcess, flips: number[] = []): number[] {
  const windowSamples = DECODE_RATE / 50;
  let pending = Buffer.alloc(0);
  let current = -1;
  let candidate = -1;
  let candidateAt = 0;
  let streak = 0;
  decoder.stdout?.on('data', (chunk: Buffer) => {
    const now = Date.now();
    pending = Buffer.concat([pending, chunk]);
    while (pending.length >= windowSamples * 2) {
      const window = new Int16Array(windowSamples);
      for (let i = 0; i < windowSamples; i++) window[i] = pending.readInt16LE(i * 2);
      pending = pending.subarray(windowSamples * 2);
      const [low, high] = TONES.map((f) => power(window, f)) as [number, number];
      if (Math.max(low, high) < 1e9) continue; // silence
      const tone = high > low ? 1 : 0;
      if (tone === current) {
        candidate = -1;
        continue;
      }
      if (tone !== candidate) {
        candidate = tone;
        candidateAt = now;
        streak = 0;
      }
      if (++streak >= 3) {
        if (current !== -1) flips.push(candidateAt);
        current = tone;
        candidate = -1;
      }
    }
  });
  return flips;
}

const DECODE_ARGS = ['-f', 's16le', '-ac', '1', '-ar', String(DECODE_RATE), 'pipe:1'];

function mp3Player(port: number): number[] {
  const decoder = track(
    spawn('ffmpeg', ['-loglevel', 'error', '-f', 'mp3', '-i', 'pipe:0', ...DECODE_ARGS], {
      stdio: ['pipe', 'pipe', 'inherit'],
    }),
  );
  http.get(`http://127.0.0.1:${port}/radio.mp3`, (res) => res.pipe(decoder.stdin as never));
  return toneWatcher(decoder);
}

function hlsPlayer(port: number, flips: number[]): ChildProcess {
  const decoder = track(
    spawn(
      'ffmpeg',
      ['-loglevel', 'error', '-re', '-live_start_index', '-1'].concat([
        '-i',
        `http://127.0.0.1:${port}/hls/radio.m3u8`,
        ...DECODE_ARGS,
      ]),
      { stdio: ['ignore', 'pipe', 'inherit'] },
    ),
  );
  toneWatcher(decoder, flips);
  return decoder;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

/** The first flip at or after each switch (within `every`): its delay in seconds. */
function delays(switchAt: number[], flips: number[], everyMs: number): number[] {
  const out: number[] = [];
  for (const at of switchAt) {
    const flip = flips.find((t) => t >= at && t < at + everyMs);
    if (flip !== undefined) out.push((flip - at) / 1000);
  }
  return out;
}

async function measureDelay(port: number, options: Options): Promise<void> {
  const source = startSource(port);
  // Let the mounts fill a window of segments before the players start, as on a live station.
  await sleep((options.segment * 3 + 1) * 1000);
  const mp3 = mp3Player(port);
  const hls: number[] = [];
  // A new HLS player for each switch, joining at a random moment of the segment cycle: where
  // it starts in the newest segment decides its delay, as for a real listener.
  for (let i = 0; i < options.switches; i++) {
    const player = hlsPlayer(port, hls);
    await sleep(Math.random() * options.segment * 1000 + options.segment * 2000 + 1000);
    source.toneAt(Date.now());
    await sleep(options.every * 1000);
    player.kill('SIGTERM');
  }
  const every = options.every * 1000;
  const rows: [string, number[]][] = [
    ['MP3 listener after the source', delays(source.switchAt, mp3, every)],
    ['HLS player after the source', delays(source.switchAt, hls, every)],
  ];
  const behind: number[] = [];
  for (const at of source.switchAt) {
    const a = mp3.find((t) => t >= at && t < at + every);
    const b = hls.find((t) => t >= at && t < at + every);
    if (a !== undefined && b !== undefined) behind.push((b - a) / 1000);
  }
  rows.push(['HLS behind MP3 (target < 4 s)', behind]);
  console.log(
    `\ntone switches: ${options.switches}, every ${options.every} s; segments ${options.segment} s\n`,
  );
  console.log('| path                           |  seen | median s | p95 s |');
  console.log('|--------------------------------|-------|----------|-------|');
  for (const [name, values] of rows) {
    console.log(
      `| ${name.padEnd(30)} | ${`${values.length}/${options.switches}`.padStart(5)} | ${percentile(values, 50).toFixed(2).padStart(8)} | ${percentile(values, 95).toFixed(2).padStart(5)} |`,
    );
  }
}

/**
 * One HLS client: the media playlist and its newest segment once per segment duration, from
 * its own loopback address (bench/loopback.ts).
 */
async function hlsClient(
  port: number,
  segmentMs: number,
  stop: { done: boolean },
  localAddress: string,
): Promise<number> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const get = (path: string): Promise<Buffer> =>
    new Promise((resolve, reject) => {
      http
        .get({ host: '127.0.0.1', port, path, agent, localAddress }, (res) => {
          const parts: Buffer[] = [];
          res.on('data', (chunk: Buffer) => parts.push(chunk));
          res.on('end', () => resolve(Buffer.concat(parts)));
          res.on('error', reject);
        })
        .on('error', reject);
    });
  let errors = 0;
  const master = (await get('/hls/radio.m3u8')).toString();
  const media = `/hls/${master.split('\n').find((line) => line.includes('live.m3u8'))}`;
  await sleep(Math.random() * segmentMs);
  while (!stop.done) {
    const started = Date.now();
    try {
      const lines = (await get(media)).toString().trim().split('\n');
      await get(`/hls/radio/${lines.at(-1)}`);
    } catch {
      errors++;
    }
    await sleep(Math.max(0, segmentMs - (Date.now() - started)));
  }
  agent.destroy();
  return errors;
}

async function measureCpu(port: number, pid: number, options: Options): Promise<void> {
  const window = async (): Promise<number> => {
    const before = cpuSeconds(pid);
    const at = performance.now();
    await sleep(options.seconds * 1000);
    return ((cpuSeconds(pid) - before) / ((performance.now() - at) / 1000)) * 100;
  };
  const idle = await window();
  const stop = { done: false };
  const clients: Promise<number>[] = [];
  for (let i = 0; i < options.listeners; i++) {
    clients.push(hlsClient(port, options.segment * 1000, stop, loopbackAddress(0, i)));
    if (i % 100 === 99) await sleep(50);
  }
  await sleep(options.segment * 2000);
  const health = (await (await fetch(`http://127.0.0.1:${port}/health`)).json()) as {
    listeners: number;
  };
  const loaded = await window();
  stop.done = true;
  const errors = (await Promise.all(clients)).reduce((a, b) => a + b, 0);
  const perThousand = ((loaded - idle) * 1000) / options.listeners;
  console.log(
    `\nHLS listeners: ${options.listeners} (server counted ${health.listeners}), one playlist and one segment each per ${options.segment} s, ${errors} errors`,
  );
  console.log('| server CPU, source only | with the HLS listeners | per 1,000 HLS listeners |');
  console.log('|-------------------------|------------------------|-------------------------|');
  console.log(
    `| ${`${idle.toFixed(1)} %`.padStart(23)} | ${`${loaded.toFixed(1)} %`.padStart(22)} | ${`${perThousand.toFixed(1)} % of a core`.padStart(23)} |`,
  );
}

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-hls-'));
  try {
    const port = await freePort();
    const server = await startServer(port, dataDir, options.segment);
    console.log(
      `stream server pid ${server.pid} on 127.0.0.1:${port}; load average ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`,
    );
    await measureDelay(port, options);
    if (options.listeners > 0) await measureCpu(port, server.pid as number, options);
  } finally {
    for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  }
  process.exit(0);
}

await main();
