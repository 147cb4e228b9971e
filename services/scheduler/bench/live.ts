// pnpm bench:live [--handovers 20]: the live input's handovers measured at a listener of
// the mount, beside Liquidsoap 2.1.3 (input.harbor + fallback(track_sensitive=false), with its
// default buffer and with buffer=1.) pushing into the same stream server from the same ffmpeg
// source; and the CPU of the scheduler's process tree while live and while the AutoDJ plays.
// Each handover: a DJ source connects (through a relay here, which marks the moment) and the
// time until its tone reaches the listener is taken; it plays 2 s, the relay cuts it, and the
// time until the AutoDJ's tone is back at the listener is taken.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { hashPassword, locateFfmpeg, runFfmpeg, silentLogger } from '@radio/core';
import { freePort, waitFor } from '@radio/core/testing';
import { createDb, migrateToLatest } from '@radio/db';
import { createStreamServer } from '@radio/stream';
import { ToneProbe } from './live-probe.ts';
import { processTree } from './soak-proc.ts';

const AUTO_HZ = 500;
const DJ_HZ = 1000;
const SOURCE_PASSWORD = 'bench-source';
const DJ = { user: 'bench', password: 'bench-live-pw' };
const ffmpegPath = locateFfmpeg().path;
const here = import.meta.dirname;

const { values } = parseArgs({ options: { handovers: { type: 'string', default: '20' } } });
const HANDOVERS = Number(values.handovers);

interface System {
  name: string;
  mount: string;
  /** Where a DJ's source connects. */
  livePort: number;
}

/** A relay in front of a live port: tells when a source connected, and cuts it on demand. */
class Relay {
  readonly #server: Server;
  readonly #sockets = new Set<Socket>();
  #connected: ((at: number) => void) | null = null;

  constructor(target: number) {
    this.#server = createServer((client) => {
      this.#connected?.(Date.now());
      const upstream = connect(target, '127.0.0.1');
      for (const socket of [client, upstream]) {
        this.#sockets.add(socket);
        socket.on('error', () => {});
        socket.on('close', () => this.cut());
      }
      client.pipe(upstream);
      upstream.pipe(client);
    });
  }

  async listen(): Promise<number> {
    await new Promise<void>((done) => this.#server.listen(0, '127.0.0.1', done));
    return (this.#server.address() as { port: number }).port;
  }

  connected(): Promise<number> {
    return new Promise((done) => {
      this.#connected = done;
    });
  }

  cut(): void {
    for (const socket of this.#sockets) socket.destroy();
    this.#sockets.clear();
  }

  close(): void {
    this.cut();
    this.#server.close();
  }
}

function djSource(port: number): ChildProcess {
  return spawn(
    ffmpegPath,
    [
      ...['-hide_banner', '-loglevel', 'quiet', '-re', '-f', 'lavfi', '-i', `sine=f=${DJ_HZ}`],
      ...['-ac', '2', '-c:a', 'libmp3lame', '-b:a', '128k', '-f', 'mp3'],
      ...[
        '-content_type',
        'audio/mpeg',
        `icecast://${DJ.user}:${DJ.password}@127.0.0.1:${port}/live`,
      ],
    ],
    { stdio: 'ignore' },
  );
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

async function handovers(
  system: System,
  streamUrl: string,
): Promise<{ on: number[]; off: number[] }> {
  const probe = new ToneProbe(`${streamUrl}${system.mount}`, ffmpegPath, {
    auto: AUTO_HZ,
    dj: DJ_HZ,
  });
  const relay = new Relay(system.livePort);
  const port = await relay.listen();
  const on: number[] = [];
  const off: number[] = [];
  try {
    await probe.next('auto', 0);
    for (let i = 0; i < HANDOVERS; i++) {
      const connected = relay.connected();
      const source = djSource(port);
      const t0 = await connected;
      on.push((await probe.next('dj', t0)) - t0);
      await sleep(2000);
      const t1 = Date.now();
      relay.cut();
      source.kill('SIGKILL');
      off.push((await probe.next('auto', t1)) - t1);
      process.stderr.write(`${system.name} #${i + 1}: on ${on.at(-1)} ms, off ${off.at(-1)} ms\n`);
      await sleep(1500);
    }
  } finally {
    relay.close();
    probe.close();
  }
  return { on, off };
}

/** CPU ticks of a process tree (the root's reaped children included). */
async function treeTicks(root: number): Promise<number> {
  let ticks = 0;
  for (const pid of await processTree(root)) {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    ticks += Number(fields[11]) + Number(fields[12]);
    if (pid === root) ticks += Number(fields[13]) + Number(fields[14]);
  }
  return ticks;
}

async function cpuPercent(root: number, seconds: number): Promise<number> {
  const before = await treeTicks(root);
  await sleep(seconds * 1000);
  return (((await treeTicks(root)) - before) / 100 / seconds) * 100;
}

function stats(values: number[]): { median: number; p95: number } {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) =>
    sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? Number.NaN;
  return { median: at(0.5), p95: at(0.95) };
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-live-'));
  const children: ChildProcess[] = [];
  const stream = createStreamServer(
    {
      host: '127.0.0.1',
      port: 0,
      adminUser: 'admin',
      adminPassword: 'bench-admin',
      sourcePassword: SOURCE_PASSWORD,
    },
    { logger: silentLogger() },
  );
  await stream.start();
  try {
    const auto = join(dir, 'music', 'auto.flac');
    await mkdir(join(dir, 'music'));
    const tone = [
      '-loglevel',
      'error',
      '-f',
      'lavfi',
      '-i',
      `sine=f=${AUTO_HZ}:d=900`,
      '-ac',
      '2',
      auto,
    ];
    await runFfmpeg(tone, { ffmpegPath, logger: silentLogger(), name: 'bench track' });
    const database = `sqlite:${join(dir, 'radio.db')}`;
    const db = await createDb(database);
    await migrateToLatest(db.db);
    const hash = await hashPassword(DJ.password);
    const user = await db.db
      .insertInto('users')
      .values({ username: DJ.user, password_hash: hash, role: 'dj' })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db.db
      .insertInto('dj_accounts')
      .values({
        user_id: user.id,
        broadcast_username: DJ.user,
        password_hash: hash,
        display_name: 'Bench DJ',
      })
      .execute();
    await db.close();

    const ourLive = await freePort();
    const scheduler = spawn(process.execPath, [resolve(here, '../src/main.ts')], {
      env: {
        ...process.env,
        MUSIC_DIR: join(dir, 'music'),
        DATA_DIR: dir,
        DATABASE_URL: database,
        STREAM_URL: stream.url,
        SOURCE_PASSWORD,
        ADMIN_USER: 'admin',
        ADMIN_PASSWORD: 'bench-admin',
        CONTROL_PORT: '0',
        LIVE_PORT: String(ourLive),
        CROSSFADE_SECONDS: '0',
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    children.push(scheduler);

    const systems: System[] = [
      { name: 'scheduler live input', mount: '/radio.mp3', livePort: ourLive },
    ];
    for (const [label, buffer] of [
      ['default buffer', null],
      ['buffer=1.', '1.'],
    ] as const) {
      const port = await freePort();
      const mount = `/ls-${buffer ? 'b1' : 'default'}.mp3`;
      const script = join(dir, `${mount.slice(1)}.liq`);
      await writeFile(
        script,
        [
          'settings.init.allow_root.set(true)',
          'settings.log.stdout.set(false)',
          'settings.log.file.set(false)',
          `live = input.harbor("live", port=${port}, user="${DJ.user}", password="${DJ.password}"${buffer ? `, buffer=${buffer}` : ''})`,
          `auto = mksafe(single("${auto}"))`,
          'radio = fallback(track_sensitive=false, [live, auto])',
          `output.icecast(%mp3(bitrate=128), host="127.0.0.1", port=${stream.port}, password="${SOURCE_PASSWORD}", mount="${mount}", radio)`,
        ].join('\n'),
      );
      children.push(spawn('liquidsoap', [script], { stdio: 'ignore' }));
      systems.push({ name: `Liquidsoap 2.1.3 input.harbor, ${label}`, mount, livePort: port });
    }
    await waitFor(
      'every system on the stream server',
      () => stream.snapshot().sources >= 5,
      120_000,
    );

    const rows: string[] = [];
    for (const system of systems) {
      const { on, off } = await handovers(system, stream.url);
      const a = stats(on);
      const b = stats(off);
      rows.push(
        `| ${system.name} | ${a.median} | ${a.p95} | ${b.median} | ${b.p95} | ${on.length} |`,
      );
    }
    // After the handovers: by then the background analysis of the AutoDJ's file is done.
    const cpuAuto = await cpuPercent(scheduler.pid as number, 10);
    const source = djSource(ourLive);
    await sleep(2000);
    const cpuLive = await cpuPercent(scheduler.pid as number, 10);
    source.kill('SIGKILL');
    await sleep(3000);

    console.log('\nbench:live: handovers measured at a listener of the mount (ms)\n');
    console.log(
      '| system | connect → live, median | p95 | disconnect → AutoDJ, median | p95 | handovers |',
    );
    console.log('|---|---|---|---|---|---|');
    for (const row of rows) console.log(row);
    console.log(
      `\nscheduler process tree CPU: AutoDJ ${cpuAuto.toFixed(1)} %, live ${cpuLive.toFixed(1)} % (of one core)`,
    );
  } finally {
    for (const child of children) child.kill('SIGTERM');
    await Promise.all(
      children.map(
        (child) =>
          new Promise((done) => (child.exitCode !== null ? done(null) : child.once('exit', done))),
      ),
    );
    await stream.close();
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
