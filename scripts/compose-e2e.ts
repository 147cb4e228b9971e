// `pnpm test:compose`: the Docker Compose stack end to end, the way an operator runs it. Builds
// the offline base images (scripts/build-offline-images.sh, reused when they exist), writes a
// .env from .env.example into a temporary project folder (fresh secrets, free ports, a music
// folder with demo tracks), brings the whole stack up with `docker-compose up -d --build` under
// a unique project name, waits for every service to be healthy, checks each interface from this
// host (the first admin made with the setup code `radioctl status` shows), checks the careful
// defaults (Redis password, the apps' PostgreSQL role, 12-character passwords), runs radioctl's
// ps, logs, add and restart against it, then starts the `scale` profile (two edge relays behind
// HAProxy), spreads 20 listeners through the balancer, stops an edge and times its listeners'
// return, starts the `monitoring` profile (Prometheus: every target up, promtool on each
// service's /metrics, the configuration and the rules), then starts afresh with the `tls`
// profile (Caddy on https://localhost:PORT: Chromium trusting Caddy's root makes the first admin,
// signs in, uploads and plays /radio.mp3 and HLS over HTTPS; a listener's first byte through
// Caddy beside the stream port's), and takes it all down with its volumes and images. Every
// stage prints its time; a failure prints the services' last lines.
//
// Usage: pnpm test:compose [--keep] [--keep-images] [--no-offline-images]
//   --keep               leave the stack (and the temporary folder) up at the end or on failure
//   --keep-images        keep the four service images (the next run builds from their layers)
//   --no-offline-images  use NODE_IMAGE, REDIS_IMAGE, POSTGRES_IMAGE, HAPROXY_IMAGE,
//                        PROMETHEUS_IMAGE and CADDY_IMAGE from the environment (default: the
//                        official images) instead of building the offline ones
// Environment: COMPOSE_CMD (default `docker-compose`, else `docker compose`), OFFLINE_IMAGE_PREFIX
// and the other variables of scripts/build-offline-images.sh.
import { type SpawnOptions, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { appendFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { type AddressInfo, connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { locateFfmpeg, STATION_MOUNTS, type StationMount } from '@radio/core';
import { generateDemoLibrary } from '@radio/core/demo-library';
import { generateTrack } from '@radio/core/test-audio';
import { waitFor } from '@radio/core/testing';
import { checkCarefulDefaults } from './compose-e2e-defaults.ts';
import { compareFirstBytes, type Figures } from './compose-e2e-first-byte.ts';
import { StreamListener } from './compose-e2e-listener.ts';
import { checkMonitoring } from './compose-e2e-monitoring.ts';
import {
  browseOverHttps,
  checkForeignOrigin,
  checkRedirect,
  type TlsSite,
  type TlsTools,
  trustCaddyRoot,
} from './compose-e2e-tls.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const COMPOSE_FILE = join(ROOT, 'docker-compose.yml');
const SERVICES = ['redis', 'postgres', 'stream', 'scheduler', 'api', 'web'] as const;
const BUILT = ['stream', 'scheduler', 'api', 'web'] as const;
/** The `scale` profile's services: edge relays of `stream`, and the balancer in front of them. */
const SCALE_SERVICES = ['edge', 'lb'] as const;
const EDGES = 2;
/** Listeners the scale stage spreads over the edges through the balancer. */
const SCALE_LISTENERS = 20;
/** The longest an edge's listeners may go without audio after it stops (issue 17). */
const MOVE_LIMIT_MS = 5000;

const HEALTH_TIMEOUT_S = 240;
const PASSWORD = 'correct horse battery staple';
/** Every profile, so that a `down` takes their containers too in every compose version. */
const PROFILES = ['--profile', 'scale', '--profile', 'monitoring', '--profile', 'tls'];
/** First bytes of /radio.mp3 taken through Caddy and on the stream port, each. */
const FIRST_BYTE_TRIES = 20;

// ---- options ------------------------------------------------------------------------------

const argv = process.argv.slice(2);
if (argv.includes('-h') || argv.includes('--help')) {
  const text = await readFile(fileURLToPath(import.meta.url), 'utf8');
  const usage = text.slice(text.indexOf('// Usage:'), text.indexOf('import '));
  console.log(usage.replace(/^\/\/ ?/gm, '').trim());
  process.exit(0);
}
const known = new Set(['--keep', '--keep-images', '--no-offline-images']);
for (const arg of argv) {
  if (!known.has(arg)) {
    console.error(`compose-e2e: unknown option ${arg} (see --help)`);
    process.exit(2);
  }
}
const keep = argv.includes('--keep');
const keepImages = argv.includes('--keep-images');
const offlineImages = !argv.includes('--no-offline-images');

// ---- running commands ---------------------------------------------------------------------

let logFile: string | null = null;

interface RunOptions {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  timeoutMs?: number;
  /** Each output line goes through this; what it returns is printed (indented). */
  show?: (line: string) => string | null;
  /** Return the result of a non-zero exit instead of throwing. */
  allowFail?: boolean;
  /** Written to the command's stdin (closed at once otherwise). */
  input?: string;
}

interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
  /** stdout and stderr as they came. */
  output: string;
}

function lastLines(text: string, count: number): string {
  return text
    .trimEnd()
    .split('\n')
    .slice(-count)
    .map((line) => `      | ${line}`)
    .join('\n');
}

/** Runs a command we started, with its output kept (and logged); throws on failure. */
async function run(command: string, args: string[], options: RunOptions = {}): Promise<RunResult> {
  const spawnOptions: SpawnOptions = {
    cwd: options.cwd ?? ROOT,
    env: options.env ?? process.env,
    stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
  };
  const child = spawn(command, args, spawnOptions);
  if (options.input !== undefined) child.stdin?.end(options.input);
  const result: RunResult = { code: null, stdout: '', stderr: '', output: '' };
  const pending: Record<'stdout' | 'stderr', string> = { stdout: '', stderr: '' };
  const take = (stream: 'stdout' | 'stderr', chunk: Buffer): void => {
    const text = chunk.toString('utf8');
    result[stream] += text;
    result.output += text;
    if (!options.show) return;
    pending[stream] += text;
    const lines = pending[stream].split(/\r?\n/);
    pending[stream] = lines.pop() ?? '';
    for (const line of lines) {
      const shown = options.show(line);
      if (shown !== null) console.log(`    ${shown}`);
    }
  };
  child.stdout?.on('data', (chunk: Buffer) => take('stdout', chunk));
  child.stderr?.on('data', (chunk: Buffer) => take('stderr', chunk));
  let timedOut = false;
  const timer = options.timeoutMs
    ? setTimeout(() => {
        timedOut = true;
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 5000).unref();
      }, options.timeoutMs)
    : null;
  const [code] = (await once(child, 'close').catch((error: unknown) => {
    throw new Error(`${command}: ${(error as Error).message}`);
  })) as [number | null];
  if (timer) clearTimeout(timer);
  result.code = code;
  if (logFile) {
    await appendFile(
      logFile,
      `\n$ ${command} ${args.join(' ')}  (exit ${code})\n${result.output}`,
    ).catch(() => {});
  }
  if (timedOut) {
    throw new Error(
      `${command} ${args.join(' ')} took more than ${(options.timeoutMs ?? 0) / 1000}s:\n${lastLines(result.output, 20)}`,
    );
  }
  if (code !== 0 && !options.allowFail) {
    throw new Error(
      `${command} ${args.join(' ')} exited with ${code}:\n${lastLines(result.output, 25)}`,
    );
  }
  return result;
}

async function commandWorks(command: string, args: string[]): Promise<boolean> {
  try {
    return (await run(command, args, { allowFail: true, timeoutMs: 30_000 })).code === 0;
  } catch {
    return false;
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((done) => setTimeout(done, ms));
}

function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

// ---- stages -------------------------------------------------------------------------------

const timings: Array<{ name: string; seconds: number; ok: boolean }> = [];
const STAGE_COUNT = 25;

async function stage<T>(name: string, body: () => Promise<T>): Promise<T> {
  console.log(`\n==> [${timings.length + 1}/${STAGE_COUNT}] ${name}`);
  const started = performance.now();
  try {
    const value = await body();
    const seconds = (performance.now() - started) / 1000;
    timings.push({ name, seconds, ok: true });
    console.log(`    ok (${seconds.toFixed(1)}s)`);
    return value;
  } catch (error) {
    const seconds = (performance.now() - started) / 1000;
    timings.push({ name, seconds, ok: false });
    console.log(`    FAILED (${seconds.toFixed(1)}s)`);
    throw error;
  }
}

function note(text: string): void {
  console.log(`    ${text}`);
}

// ---- the project: folder, .env, compose -----------------------------------------------------

const id = randomBytes(4).toString('hex');
const project = `radioe2e${id}`;
const secret = (): string => randomBytes(18).toString('hex');
let folder = '';
let envFile = '';
let envValues: Record<string, string> = {};
/** .env files with ADMIN_PASSWORD or SOURCE_PASSWORD one character too short, by variable. */
const shortEnvFiles: Record<string, string> = {};
let composeCommand: string[] = ['docker-compose'];
let stackStarted = false;
/** Image ids the classic builder printed (` ---> id`) while building the stack. */
const builtIds: string[] = [];

function parseEnv(text: string): Record<string, string> {
  const values: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const match = /^\s*([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(line);
    if (match) values[match[1] as string] = (match[2] as string).trim();
  }
  return values;
}

/** .env.example with `set` applied: existing lines rewritten in place, new ones appended. */
function envFrom(example: string, set: Record<string, string>): string {
  const done = new Set<string>();
  const lines = example.split('\n').map((line) => {
    const match = /^([A-Za-z_][A-Za-z0-9_]*)=/.exec(line);
    const key = match?.[1];
    if (key === undefined || !(key in set)) return line;
    done.add(key);
    return `${key}=${set[key]}`;
  });
  const extra = Object.entries(set).filter(([key]) => !done.has(key));
  if (extra.length > 0) {
    lines.push('# --- set by scripts/compose-e2e.ts', ...extra.map(([k, v]) => `${k}=${v}`), '');
  }
  return lines.join('\n');
}

/**
 * The environment compose runs in: the shell's variables that the .env sets are dropped (a
 * shell value wins over .env in compose), and builds use the classic builder.
 */
function composeEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const key of [...Object.keys(envValues), 'COMPOSE_FILE', 'COMPOSE_PROJECT_NAME']) {
    delete env[key];
  }
  env.DOCKER_BUILDKIT = '0';
  env.COMPOSE_DOCKER_CLI_BUILD = '0';
  return env;
}

function compose(args: string[], options: RunOptions = {}, file = envFile): Promise<RunResult> {
  const [command, ...prefix] = composeCommand as [string, ...string[]];
  return run(command, [...prefix, '-f', COMPOSE_FILE, '-p', project, '--env-file', file, ...args], {
    env: composeEnv(),
    ...options,
  });
}

function takeDownCommand(): string {
  return `${composeCommand.join(' ')} -f ${COMPOSE_FILE} -p ${project} --env-file ${envFile} ${PROFILES.join(' ')} down -v --rmi local`;
}

function radioctl(args: string[], options: RunOptions = {}): Promise<RunResult> {
  return run(process.execPath, [join(ROOT, 'packages/ops/bin/radioctl.ts'), ...args], {
    cwd: folder,
    env: { ...process.env, COMPOSE_PROJECT_NAME: project, NO_COLOR: '1' },
    timeoutMs: 5 * 60_000,
    ...options,
  });
}

async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '0.0.0.0');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  server.close();
  await once(server, 'close');
  return port;
}

// ---- the stack's state --------------------------------------------------------------------

interface ServiceState {
  service: string;
  name: string;
  image: string;
  state: string;
  health: string | null;
  restarts: number;
  exitCode: number;
}

interface InspectedContainer {
  Id: string;
  Name: string;
  RestartCount: number;
  Config: { Image: string; Labels: Record<string, string> };
  State: { Status: string; ExitCode: number; Health?: { Status: string } };
}

async function stackState(): Promise<Map<string, ServiceState>> {
  const ids = (
    await run('docker', ['ps', '-aq', '--filter', `label=com.docker.compose.project=${project}`])
  ).stdout
    .split(/\s+/)
    .filter(Boolean);
  const states = new Map<string, ServiceState>();
  if (ids.length === 0) return states;
  const inspected = JSON.parse((await run('docker', ['inspect', ...ids])).stdout) as
    | InspectedContainer[]
    | null;
  for (const container of inspected ?? []) {
    const labels = container.Config.Labels;
    if (labels['com.docker.compose.oneoff'] === 'True') continue;
    const service = labels['com.docker.compose.service'] ?? '?';
    states.set(service, {
      service,
      name: container.Name.replace(/^\//, ''),
      image: container.Config.Image,
      state: container.State.Status,
      health: container.State.Health?.Status ?? null,
      restarts: container.RestartCount,
      exitCode: container.State.ExitCode,
    });
  }
  return states;
}

function describeStates(states: Map<string, ServiceState>): string {
  return SERVICES.map((service) => {
    const s = states.get(service);
    if (!s) return `${service} missing`;
    return `${service} ${s.state === 'running' ? (s.health ?? 'running') : s.state}`;
  }).join(', ');
}

/** Polls until every service runs and is healthy (docker-compose 1.29 has no `up --wait`). */
async function waitHealthy(timeoutS: number): Promise<Map<string, ServiceState>> {
  const deadline = Date.now() + timeoutS * 1000;
  let last = '';
  for (;;) {
    const states = await stackState();
    const line = describeStates(states);
    if (line !== last) {
      note(line);
      last = line;
    }
    const all = SERVICES.map((service) => states.get(service));
    if (all.every((s) => s?.state === 'running' && s.health === 'healthy')) return states;
    const broken = all.find(
      (s) => s && (s.state === 'exited' || s.state === 'dead' || s.restarts >= 3),
    );
    if (broken) {
      throw new Error(
        `${broken.service} is ${broken.state} (exit code ${broken.exitCode}, ${broken.restarts} restarts)`,
      );
    }
    if (Date.now() > deadline) {
      throw new Error(`not every service was healthy within ${timeoutS}s: ${line}`);
    }
    await sleep(1000);
  }
}

// ---- the scale profile's state ------------------------------------------------------------

interface Container {
  id: string;
  name: string;
  state: string;
  health: string | null;
}

/** The containers of one service, by name: an edge has several. */
async function containersOf(service: string): Promise<Container[]> {
  const filters = [
    `label=com.docker.compose.project=${project}`,
    `label=com.docker.compose.service=${service}`,
  ].flatMap((filter) => ['--filter', filter]);
  const ids = (await run('docker', ['ps', '-aq', ...filters])).stdout.split(/\s+/).filter(Boolean);
  if (ids.length === 0) return [];
  const inspected = JSON.parse((await run('docker', ['inspect', ...ids])).stdout) as
    | InspectedContainer[]
    | null;
  return (inspected ?? [])
    .filter((container) => container.Config.Labels['com.docker.compose.oneoff'] !== 'True')
    .map((container) => ({
      id: container.Id,
      name: container.Name.replace(/^\//, ''),
      state: container.State.Status,
      health: container.State.Health?.Status ?? null,
    }))
    .sort((a, b) => (a.name < b.name ? -1 : 1));
}

function describeContainers(containers: readonly Container[]): string {
  return containers
    .map((c) => `${c.name} ${c.state === 'running' ? (c.health ?? 'running') : c.state}`)
    .join(', ');
}

/** One server of the balancer's `edges` backend, as its stats page shows it. */
interface BalancerServer {
  name: string;
  /** UP, DOWN, MAINT (resolution) ... */
  status: string;
  /** Sessions now. */
  sessions: number;
}

/** The body of an HTTP response as `cat` printed it, its chunked encoding undone. */
function httpBody(response: string): string {
  const split = response.indexOf('\r\n\r\n');
  const head = response.slice(0, split);
  let body = response.slice(split + 4);
  if (!/^transfer-encoding:\s*chunked/im.test(head)) return body;
  let decoded = '';
  for (;;) {
    const lineEnd = body.indexOf('\r\n');
    const size = Number.parseInt(body.slice(0, lineEnd), 16);
    if (!(size > 0)) return decoded;
    decoded += body.slice(lineEnd + 2, lineEnd + 2 + size);
    body = body.slice(lineEnd + 2 + size + 2);
  }
}

/**
 * The edge servers of the balancer: its stats page in CSV (port 8404 inside the stack's network
 * only), read from within the lb container with bash's /dev/tcp (the image has no HTTP client).
 */
async function balancerServers(): Promise<BalancerServer[]> {
  const [lb] = await containersOf('lb');
  check(lb, 'no lb container');
  const request = `exec 3<>/dev/tcp/127.0.0.1/8404 && printf 'GET /;csv HTTP/1.0\\r\\n\\r\\n' >&3 && cat <&3`;
  const answer = await run('docker', ['exec', lb.id, 'bash', '-c', request], { timeoutMs: 15_000 });
  const lines = httpBody(answer.stdout).split('\n');
  const header = (lines.find((line) => line.startsWith('# ')) ?? '').slice(2).split(',');
  const column = (name: string): number => header.indexOf(name);
  return lines
    .map((line) => line.split(','))
    .filter((fields) => fields[0] === 'edges' && fields[1]?.startsWith('edge-'))
    .map((fields) => ({
      name: fields[column('svname')] as string,
      status: fields[column('status')] as string,
      sessions: Number(fields[column('scur')]),
    }));
}

/** An edge as the origin's /status-json.xsl lists it (from the edge's listener reports). */
interface OriginEdge {
  /** `<host name>:<port>`: the container's host name is its short id. */
  node: string;
  mounts: Array<{ mount: string; listeners: number }>;
}

async function originEdges(): Promise<OriginEdge[]> {
  const response = await fetch(`${streamBase}/status-json.xsl`, {
    signal: AbortSignal.timeout(10_000),
  });
  const json = (await response.json()) as { icestats?: { edges?: OriginEdge[] } };
  return json.icestats?.edges ?? [];
}

function mp3Listeners(edge: OriginEdge): number {
  return edge.mounts.find((m) => m.mount === '/radio.mp3')?.listeners ?? 0;
}

// ---- clients ------------------------------------------------------------------------------

let streamBase = '';
let webBase = '';
/** The scale profile's balancer. */
let scaleBase = '';
let controlPort = 0;
/** The scheduler's live input as compose publishes it (LIVE_PUBLISH_PORT). */
let livePort = 0;
/** The monitoring profile's Prometheus, published on 127.0.0.1. */
let prometheusPort = 0;
/**
 * The session of the station's first admin, made with the setup code the api logged (nobody
 * becomes admin by registering); ADMIN_USER is the stream server's login only.
 */
let adminCookie = '';

/** One control-port command: the answer's lines up to END. */
async function control(command: string): Promise<string[]> {
  const socket = connect(controlPort, '127.0.0.1');
  socket.setTimeout(10_000, () =>
    socket.destroy(new Error(`control port: no answer to ${command}`)),
  );
  let received = '';
  const answer = new Promise<string[]>((done, fail) => {
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('utf8');
      const lines = received.split(/\r?\n/);
      const end = lines.indexOf('END');
      if (end >= 0) {
        socket.end('quit\n');
        done(lines.slice(0, end));
      }
    });
    socket.on('error', fail);
    socket.on('close', () => fail(new Error(`control port closed before END (${command})`)));
  });
  socket.write(`${command}\n`);
  try {
    return await answer;
  } finally {
    socket.destroy();
  }
}

async function ffprobe(url: string): Promise<{ codec: string; bitRate: number | null }> {
  const probe = await run(
    'ffprobe',
    [
      '-v',
      'error',
      '-rw_timeout',
      '15000000',
      '-show_entries',
      'stream=codec_name,bit_rate,sample_rate,channels',
      '-of',
      'json',
      url,
    ],
    { timeoutMs: 45_000 },
  );
  const streams = (JSON.parse(probe.stdout) as { streams?: Array<Record<string, unknown>> })
    .streams;
  const first = streams?.[0];
  check(first, `ffprobe found no audio stream in ${url}`);
  const bitRate = Number(first.bit_rate);
  return { codec: String(first.codec_name), bitRate: Number.isFinite(bitRate) ? bitRate : null };
}

/** Reads `bytes` of a stream within `timeoutMs`: audio is flowing. */
async function readStream(url: string, bytes: number, timeoutMs: number): Promise<number> {
  const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
  check(response.ok && response.body, `GET ${url} answered ${response.status}`);
  const reader = response.body.getReader();
  let total = 0;
  try {
    while (total < bytes) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  check(total >= bytes, `GET ${url} ended after ${total} bytes`);
  return total;
}

async function probeMount(mount: StationMount): Promise<string> {
  const { codec, bitRate } = await ffprobe(`${streamBase}${mount.path}`);
  check(codec === mount.codec, `${mount.path}: codec ${codec}, expected ${mount.codec}`);
  if (bitRate !== null) {
    const kbps = bitRate / 1000;
    check(
      Math.abs(kbps - mount.bitrate) <= mount.bitrate * 0.15,
      `${mount.path}: ${kbps.toFixed(0)} kbps, expected about ${mount.bitrate}`,
    );
  }
  return `${codec}${bitRate ? ` ${(bitRate / 1000).toFixed(0)} kbps` : ''}`;
}

function cookieOf(response: Response): string {
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(';')[0])
    .join('; ');
}

async function api(
  path: string,
  init: { method?: string; body?: unknown; cookie?: string } = {},
): Promise<{ response: Response; json: Record<string, unknown> }> {
  const headers: Record<string, string> = {};
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  if (init.cookie) headers.cookie = init.cookie;
  const response = await fetch(`${webBase}/api/radio${path}`, {
    method: init.method ?? 'GET',
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
    signal: AbortSignal.timeout(15_000),
  });
  const text = await response.text();
  let json: Record<string, unknown> = {};
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // Not JSON: the checks below say what came instead.
  }
  return { response, json };
}

interface PendingSetup {
  code: string;
  webUrl: string | null;
}

/** `radioctl status --json`: the setup code while the station has no admin, and where to use it. */
async function pendingSetup(): Promise<PendingSetup | null> {
  const json = JSON.parse((await radioctl(['--json', 'status'])).stdout) as {
    setup?: PendingSetup | null;
  };
  return json.setup ?? null;
}

function errorCode(json: Record<string, unknown>): string | undefined {
  return (json.error as { code?: string } | undefined)?.code;
}

/**
 * What an operator does after the first start: the setup code from `radioctl status`, the first
 * admin made with it (a wrong code refused, a second use too), and no code shown after that.
 * Returns the admin's session cookie.
 */
async function makeFirstAdmin(username: string): Promise<string> {
  const before = await api('/auth-status');
  check(before.json.setupRequired === true, `/auth-status: ${JSON.stringify(before.json)}`);
  const setup = await pendingSetup();
  check(setup, 'radioctl status --json shows no setup code while the station has no admin');
  const attempt = (code: string) =>
    api('/auth/setup', { method: 'POST', body: { code, username, password: PASSWORD } });
  const wrong = await attempt(`${setup.code}x`);
  check(
    wrong.response.status === 403 && errorCode(wrong.json) === 'API_SETUP_CODE_INVALID',
    `a wrong setup code: ${wrong.response.status} ${JSON.stringify(wrong.json)}`,
  );
  const made = await attempt(setup.code);
  check(
    made.response.status === 201,
    `POST /auth/setup answered ${made.response.status}: ${JSON.stringify(made.json)}`,
  );
  const role = (made.json.user as { role?: string } | undefined)?.role;
  check(role === 'admin', `the account made with the setup code is ${role}, not admin`);
  const cookie = cookieOf(made.response);
  check(cookie !== '', 'POST /auth/setup set no session cookie');
  const again = await attempt(setup.code);
  check(
    again.response.status === 409 && errorCode(again.json) === 'API_SETUP_DONE',
    `the setup code used again: ${again.response.status} ${JSON.stringify(again.json)}`,
  );
  const after = await api('/auth-status');
  check(after.json.setupRequired === false, `/auth-status after: ${JSON.stringify(after.json)}`);
  // The api's "first admin created" line reaches the container's log a moment later.
  await waitFor(
    'radioctl status to show no setup code',
    async () => (await pendingSetup()) === null,
    30_000,
    500,
  );
  note(
    `radioctl status: setup code ${setup.code.slice(0, 4)}… for ${setup.webUrl}; ${username} made admin with it (wrong code 403, used again 409), then no code shown`,
  );
  return cookie;
}

// ---- teardown and diagnostics ---------------------------------------------------------------

async function diagnostics(): Promise<void> {
  try {
    const states = await stackState();
    console.log(`\n    containers: ${describeStates(states)}`);
    for (const service of [...SERVICES, ...SCALE_SERVICES, 'prometheus', 'caddy']) {
      if (!states.has(service)) continue;
      const logs = await compose([...PROFILES, 'logs', '--no-color', '--tail=25', service], {
        allowFail: true,
        timeoutMs: 60_000,
      });
      console.log(`\n    --- last lines of ${service}\n${lastLines(logs.output, 25)}`);
    }
  } catch (error) {
    console.log(`    (no diagnostics: ${(error as Error).message})`);
  }
}

async function teardown(): Promise<void> {
  if (!stackStarted) return;
  stackStarted = false;
  const args = [...PROFILES, 'down', '-v', '--remove-orphans', '--timeout', '10'];
  if (!keepImages) args.push('--rmi', 'local');
  const down = await compose(args, { allowFail: true, timeoutMs: 5 * 60_000 });
  if (down.code !== 0)
    throw new Error(`docker-compose down failed:\n${lastLines(down.output, 15)}`);
  const left = await stackState();
  check(left.size === 0, `containers left after down: ${[...left.keys()].join(', ')}`);
  const volumes = (
    await run('docker', [
      'volume',
      'ls',
      '-q',
      '--filter',
      `label=com.docker.compose.project=${project}`,
    ])
  ).stdout.trim();
  check(volumes === '', `volumes left after down: ${volumes.replace(/\n/g, ', ')}`);
  const stages = keepImages ? 0 : await removeBuildLeftovers();
  note(
    `removed the containers, network and volumes${keepImages ? '' : `, the service images and ${stages} untagged build images`}`,
  );
}

/**
 * The classic builder keeps the result of each build stage (deps, prod, the web build) as an
 * untagged image. Those of this run's build go too: only untagged ones, newest first, and none
 * a container or another image still uses (docker refuses those).
 */
async function removeBuildLeftovers(): Promise<number> {
  const ids = [...new Set(builtIds)].reverse();
  if (ids.length === 0) return 0;
  const inspected = await run(
    'docker',
    ['image', 'inspect', '--format', '{{.Id}} {{len .RepoTags}}', ...ids],
    { allowFail: true },
  );
  const untagged = inspected.stdout
    .split('\n')
    .map((line) => line.trim().split(' '))
    .filter(([imageId, tags]) => imageId && tags === '0')
    .map(([imageId]) => imageId as string);
  if (untagged.length === 0) return 0;
  const removed = await run('docker', ['rmi', ...untagged], { allowFail: true });
  return removed.stdout.split('\n').filter((line) => line.startsWith('Deleted:')).length;
}

let interrupted = false;
process.once('SIGINT', () => {
  interrupted = true;
  console.log('\ninterrupted: taking the stack down');
  teardown()
    .catch((error: unknown) => console.error((error as Error).message))
    .finally(() => process.exit(130));
});

// ---- the scale stage ----------------------------------------------------------------------

/** Seconds, for notes. */
function secs(ms: number): string {
  return (ms / 1000).toFixed(2);
}

/**
 * The listeners play through the balancer; the origin's per-edge counts (from the edges' own
 * reports) and the balancer's sessions both show them spread over every edge. Returns the
 * origin's count of each edge, by node.
 */
async function spreadOverEdges(listeners: readonly StreamListener[]): Promise<Map<string, number>> {
  // Past the 64 KiB burst (4 s of 128 kbit/s) a listener gets audio at the pace it is played.
  await waitFor(
    'every listener playing 8 s of MP3 frames',
    () => listeners.every((listener) => listener.audioSeconds >= 8),
    60_000,
    250,
  );
  const troubled = listeners.filter((l) => l.outages.length > 0 || l.junkBytes > 0);
  check(troubled.length === 0, `${troubled.length} listeners lost the stream or got non-MP3 bytes`);
  const counts = await waitFor(
    `the origin counting the ${listeners.length} listeners on its edges`,
    async () => {
      const reported = await originEdges();
      const counts = new Map(reported.map((edge) => [edge.node, mp3Listeners(edge)]));
      const total = [...counts.values()].reduce((sum, n) => sum + n, 0);
      return counts.size === EDGES && total === listeners.length && counts;
    },
    30_000,
    500,
  );
  check(
    [...counts.values()].every((n) => n > 0),
    `the listeners did not land on every edge: ${JSON.stringify([...counts])}`,
  );
  const servers = (await balancerServers()).filter((server) => server.status === 'UP');
  const sessions = servers.reduce((sum, server) => sum + server.sessions, 0);
  check(
    servers.length === EDGES && servers.every((server) => server.sessions > 0),
    `the balancer's sessions: ${servers.map((s) => `${s.name} ${s.sessions}`).join(', ')}`,
  );
  const bytes = listeners.reduce((sum, listener) => sum + listener.audioBytes, 0);
  note(
    `${listeners.length} listeners, each ${Math.min(...listeners.map((l) => l.audioSeconds)).toFixed(1)} s or more of MP3 frames (${(bytes / 1e6).toFixed(1)} MB in all, no junk byte)`,
  );
  note(
    `the origin counts ${[...counts].map(([node, n]) => `${n} on ${node}`).join(', ')}; the balancer has ${servers.map((s) => `${s.sessions} sessions on ${s.name}`).join(', ')} (${sessions})`,
  );
  return counts;
}

/**
 * Stops the first edge while the listeners play: its listeners reconnect through the balancer,
 * as players do, and must play again within MOVE_LIMIT_MS; the other edge's listeners must not
 * notice. The origin then counts every listener on the edges that remain.
 */
async function moveListeners(
  listeners: readonly StreamListener[],
  edges: readonly Container[],
): Promise<void> {
  const counts = await spreadOverEdges(listeners);
  const victim = edges[0] as Container;
  const node = [...counts.keys()].find((n) => n.startsWith(`${victim.id.slice(0, 12)}:`));
  check(node, `the origin lists no edge of container ${victim.name}`);
  const moving = counts.get(node) ?? 0;
  const played = listeners.map((listener) => listener.audioSeconds);

  const stoppedAt = performance.now();
  await run('docker', ['stop', victim.id], { timeoutMs: 60_000 });
  const stopTook = performance.now() - stoppedAt;
  await waitFor(
    `the ${moving} listeners of ${victim.name} playing again`,
    () => {
      const lost = listeners.filter((listener) => listener.outages.length > 0);
      return lost.length >= moving && lost.every((listener) => listener.waiting === null);
    },
    30_000,
    50,
  );
  const moved = listeners.filter((listener) => listener.outages.length > 0);
  const stayed = listeners.filter((listener) => listener.outages.length === 0);
  check(
    moved.length === moving,
    `${moved.length} listeners lost the stream, but ${moving} were on ${victim.name}`,
  );
  // From the first loss of each to its last return (a reconnect can land on the dying edge).
  const gaps = moved
    .map((l) => (l.outages.at(-1)?.backAt ?? 0) - (l.outages[0]?.lostAt ?? 0))
    .sort((a, b) => a - b);
  const longest = gaps.at(-1) ?? 0;
  const median = gaps[Math.floor(gaps.length / 2)] ?? 0;
  const lastBack = Math.max(...moved.map((l) => l.outages.at(-1)?.backAt ?? 0)) - stoppedAt;
  check(
    longest <= MOVE_LIMIT_MS,
    `a listener of the stopped edge went ${secs(longest)} s without audio (limit ${secs(MOVE_LIMIT_MS)} s)`,
  );
  note(
    `docker stop ${victim.name} (${secs(stopTook)} s): its ${moving} listeners played again ${secs(median)} s after losing the stream (median; longest ${secs(longest)} s, limit ${secs(MOVE_LIMIT_MS)} s), all of them ${secs(lastBack)} s after the stop began`,
  );

  // The others noticed nothing: one connection all along, and audio kept coming.
  await waitFor(
    `the ${stayed.length} other listeners playing on`,
    () => stayed.every((l) => l.audioSeconds >= (played[listeners.indexOf(l)] ?? 0) + 3),
    30_000,
    250,
  );
  const broken = listeners.filter(
    (l) => l.junkBytes > 0 || (l.outages.length === 0 && l.connections !== 1),
  );
  check(broken.length === 0, `${broken.length} listeners got non-MP3 bytes or reconnected unseen`);
  const remaining = await waitFor(
    `the origin counting all ${listeners.length} listeners on the remaining edge`,
    async () => {
      const reported = await originEdges();
      const total = reported.reduce((sum, edge) => sum + mp3Listeners(edge), 0);
      return !reported.some((edge) => edge.node === node) && total === listeners.length && reported;
    },
    30_000,
    500,
  );
  const up = (await balancerServers()).filter((server) => server.status === 'UP');
  check(up.length === EDGES - 1, `the balancer has ${up.length} edges up after one stopped`);
  note(
    `the ${stayed.length} listeners of the other edge never lost the stream; the origin now counts ${remaining.map((e) => `${mp3Listeners(e)} on ${e.node}`).join(', ')}; the balancer has ${up.map((s) => `${s.sessions} sessions on ${s.name}`).join(', ')} (the only edge up)`,
  );
}

// ---- the tls stages -----------------------------------------------------------------------

const tlsTools: TlsTools = {
  run: (command, args, options = {}) => run(command, args, { timeoutMs: 60_000, ...options }),
  note,
  check,
};

/**
 * The stack again from nothing (its volumes removed: a first start, no admin), now with the tls
 * profile: PUBLIC_HOST=localhost on free ports, PUBLIC_URL and PUBLIC_STREAM_URL its origin.
 */
async function startTlsStack(): Promise<{ site: TlsSite; caddy: string }> {
  await compose([...PROFILES, 'down', '-v', '--remove-orphans', '--timeout', '10'], {
    timeoutMs: 5 * 60_000,
  });
  const httpsPort = await freePort();
  let httpPort = await freePort();
  while (httpPort === httpsPort) httpPort = await freePort();
  const site: TlsSite = {
    origin: `https://localhost:${httpsPort}`,
    host: 'localhost',
    httpsPort,
    httpPort,
  };
  const env = envFrom(await readFile(envFile, 'utf8'), {
    PUBLIC_HOST: site.host,
    HTTPS_PUBLISH_PORT: String(httpsPort),
    HTTP_PUBLISH_PORT: String(httpPort),
    PUBLIC_URL: site.origin,
    PUBLIC_STREAM_URL: site.origin,
  });
  await writeFile(envFile, env, { mode: 0o600 });
  envValues = parseEnv(env);
  await compose(['--profile', 'tls', 'up', '-d'], {
    timeoutMs: 10 * 60_000,
    show: (line) => (/^(Creating |Starting |^ERROR)/.test(line) ? line : null),
  });
  await waitHealthy(HEALTH_TIMEOUT_S);
  const [caddy] = await waitFor(
    'caddy healthy',
    async () => {
      const found = await containersOf('caddy');
      return found[0]?.health === 'healthy' && found;
    },
    HEALTH_TIMEOUT_S * 1000,
    1000,
  );
  check(caddy, 'no caddy container');
  note(`${caddy.name} healthy: ${site.origin}/ (HTTPS), http://localhost:${httpPort}/ (redirects)`);
  return { site, caddy: caddy.id };
}

// ---- the run ------------------------------------------------------------------------------

const started = performance.now();
let failure: unknown = null;
const imageSizes: string[] = [];

try {
  await stage('preflight: Docker engine, compose, ffmpeg', async () => {
    const info = await run('docker', ['info', '--format', '{{.ServerVersion}}'], {
      allowFail: true,
      timeoutMs: 30_000,
    });
    check(
      info.code === 0,
      `the Docker engine is not reachable (start dockerd): ${info.stderr.trim()}`,
    );
    if (process.env.COMPOSE_CMD) composeCommand = process.env.COMPOSE_CMD.split(/\s+/);
    else if (!(await commandWorks('docker-compose', ['version']))) {
      composeCommand = ['docker', 'compose'];
    }
    const version = await run(composeCommand[0] as string, [...composeCommand.slice(1), 'version']);
    check(
      await commandWorks('ffprobe', ['-version']),
      'ffprobe not found (apt-get install ffmpeg)',
    );
    const ffmpeg = locateFfmpeg({ ffmpegPath: process.env.FFMPEG_PATH || undefined });
    // The Dockerfiles install the pnpm of packageManager (package.json).
    const pkg = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as {
      packageManager: string;
    };
    const pnpm = pkg.packageManager.replace(/^pnpm@/, '').replace(/\+.*/, '');
    for (const service of BUILT) {
      const dockerfile = await readFile(join(ROOT, 'services', service, 'Dockerfile'), 'utf8');
      check(
        dockerfile.includes(`ARG PNPM_VERSION=${pnpm}\n`),
        `services/${service}/Dockerfile: ARG PNPM_VERSION is not ${pnpm} (packageManager)`,
      );
    }
    note(
      `engine ${info.stdout.trim()}; ${composeCommand.join(' ')}: ${version.stdout.split('\n')[0]}; ffmpeg ${ffmpeg.path}; project ${project}`,
    );
  });

  const images = await stage('offline base images (scripts/build-offline-images.sh)', async () => {
    if (!offlineImages) {
      note('skipped (--no-offline-images): images from the environment or the official ones');
      return {
        NODE_IMAGE: process.env.NODE_IMAGE || 'node:24-bookworm-slim',
        REDIS_IMAGE: process.env.REDIS_IMAGE || 'redis:7-bookworm',
        POSTGRES_IMAGE: process.env.POSTGRES_IMAGE || 'postgres:15-bookworm',
        HAPROXY_IMAGE: process.env.HAPROXY_IMAGE || 'haproxy:2.6-bookworm',
        PROMETHEUS_IMAGE: process.env.PROMETHEUS_IMAGE || 'prom/prometheus:v2.42.0',
        CADDY_IMAGE: process.env.CADDY_IMAGE || 'caddy:2.6',
      };
    }
    const script = join(ROOT, 'scripts/build-offline-images.sh');
    await run('bash', [script], { timeoutMs: 20 * 60_000, show: (line) => line || null });
    const printed = parseEnv((await run('bash', [script, '--print-env'])).stdout);
    check(
      printed.NODE_IMAGE &&
        printed.REDIS_IMAGE &&
        printed.POSTGRES_IMAGE &&
        printed.HAPROXY_IMAGE &&
        printed.PROMETHEUS_IMAGE &&
        printed.CADDY_IMAGE,
      'build-offline-images.sh --print-env printed no images',
    );
    return {
      NODE_IMAGE: printed.NODE_IMAGE,
      REDIS_IMAGE: printed.REDIS_IMAGE,
      POSTGRES_IMAGE: printed.POSTGRES_IMAGE,
      HAPROXY_IMAGE: printed.HAPROXY_IMAGE,
      PROMETHEUS_IMAGE: printed.PROMETHEUS_IMAGE,
      CADDY_IMAGE: printed.CADDY_IMAGE,
    };
  });

  await stage('project folder: .env from .env.example, music', async () => {
    folder = await mkdtemp(join(tmpdir(), 'radio-compose-e2e-'));
    logFile = join(folder, 'commands.log');
    const music = join(folder, 'music');
    await mkdir(music);
    const ports = new Set<number>();
    while (ports.size < 4) ports.add(await freePort());
    const [streamPort, webPort, ctlPort, scalePort] = [...ports] as [
      number,
      number,
      number,
      number,
    ];
    streamBase = `http://127.0.0.1:${streamPort}`;
    webBase = `http://127.0.0.1:${webPort}`;
    scaleBase = `http://127.0.0.1:${scalePort}`;
    controlPort = ctlPort;
    do livePort = await freePort();
    while (ports.has(livePort));
    do prometheusPort = await freePort();
    while (ports.has(prometheusPort) || prometheusPort === livePort);

    // What an operator does: copy .env.example, replace every CHANGE_ME value.
    const example = await readFile(join(ROOT, '.env.example'), 'utf8');
    const placeholders = Object.entries(parseEnv(example)).filter(([, value]) =>
      value.startsWith('CHANGE_ME'),
    );
    check(placeholders.length >= 4, '.env.example has fewer CHANGE_ME secrets than expected');
    const local = {
      MUSIC_DIR: music,
      STREAM_PUBLISH_PORT: String(streamPort),
      WEB_PUBLISH_PORT: String(webPort),
      CONTROL_PUBLISH_PORT: String(ctlPort),
      LIVE_PUBLISH_PORT: String(livePort),
      PUBLIC_STREAM_URL: `http://localhost:${streamPort}`,
      EDGES: String(EDGES),
      SCALE_PUBLISH_PORT: String(scalePort),
      SCALE_PUBLIC_URL: `http://localhost:${scalePort}`,
      NODE_IMAGE: images.NODE_IMAGE as string,
      REDIS_IMAGE: images.REDIS_IMAGE as string,
      POSTGRES_IMAGE: images.POSTGRES_IMAGE as string,
      HAPROXY_IMAGE: images.HAPROXY_IMAGE as string,
      PROMETHEUS_IMAGE: images.PROMETHEUS_IMAGE as string,
      PROMETHEUS_PUBLISH_PORT: String(prometheusPort),
      CADDY_IMAGE: images.CADDY_IMAGE as string,
    };
    const env = envFrom(example, {
      ...Object.fromEntries(placeholders.map(([key]) => [key, secret()])),
      ...local,
    });
    envFile = join(folder, '.env');
    await writeFile(envFile, env, { mode: 0o600 });
    envValues = parseEnv(env);
    // The untouched example (with this host's images, ports and music): must not start.
    await writeFile(join(folder, 'example.env'), envFrom(example, local));
    // A password one character short of the 12 the services ask for: must not start either.
    for (const variable of ['ADMIN_PASSWORD', 'SOURCE_PASSWORD']) {
      const file = join(folder, `short-${variable.toLowerCase()}.env`);
      await writeFile(file, envFrom(env, { [variable]: secret().slice(0, 11) }), { mode: 0o600 });
      shortEnvFiles[variable] = file;
    }

    const ffmpeg = locateFfmpeg({ ffmpegPath: process.env.FFMPEG_PATH || undefined });
    const tracks = await generateDemoLibrary(music, { ffmpegPath: ffmpeg.path });
    // What the README asks of an operator: the api (uid 1000) writes uploads and tag edits.
    await run('chown', ['-R', '1000:1000', music]);
    note(`${folder}: ${tracks.length} demo tracks, ${placeholders.length} secrets generated`);
    note(
      `ports: stream ${streamPort}, web ${webPort}, control 127.0.0.1:${ctlPort}, balancer ${scalePort}`,
    );
  });

  await stage('docker-compose up -d --build', async () => {
    stackStarted = true;
    const shown =
      /^(Building (stream|scheduler|api|web)$|Successfully tagged|Creating |Starting |Step \d+\/\d+ : RUN )|kept projects|first page JavaScript|^ERROR/;
    await compose(['up', '-d', '--build'], {
      timeoutMs: 15 * 60_000,
      show: (line) => {
        const built = /^ ---> ([0-9a-f]{12})$/.exec(line);
        if (built) builtIds.push(built[1] as string);
        if (!shown.test(line)) return null;
        return line.length > 110 ? `${line.slice(0, 107)}...` : line;
      },
    });
  });

  await stage('every service healthy', async () => {
    const states = await waitHealthy(HEALTH_TIMEOUT_S);
    for (const service of SERVICES) {
      const image = states.get(service)?.image as string;
      const size = Number(
        (await run('docker', ['image', 'inspect', '--format', '{{.Size}}', image])).stdout,
      );
      imageSizes.push(`${service} ${image} ${(size / 1e6).toFixed(0)} MB`);
    }
    for (const line of imageSizes) note(line);
  });

  await stage('stream: ffprobe and HEAD on each mount', async () => {
    for (const mount of STATION_MOUNTS) {
      // Right after the start the scheduler may still be connecting its sources.
      let probed = '';
      for (let attempt = 1; ; attempt++) {
        try {
          probed = await probeMount(mount);
          break;
        } catch (error) {
          if (attempt >= 10) throw error;
          await sleep(2000);
        }
      }
      const head = await fetch(`${streamBase}${mount.path}`, {
        method: 'HEAD',
        signal: AbortSignal.timeout(10_000),
      });
      check(head.status === 200, `HEAD ${mount.path} answered ${head.status}`);
      const type = head.headers.get('content-type') ?? '';
      check(type.startsWith(mount.contentType), `HEAD ${mount.path}: content-type ${type}`);
      note(`${mount.path}: ffprobe ${probed}; HEAD 200 ${type}`);
    }
  });

  await stage('stream: /admin/stats.xml with the admin password (401 without)', async () => {
    const url = `${streamBase}/admin/stats.xml`;
    const anonymous = await fetch(url, { signal: AbortSignal.timeout(10_000) });
    await anonymous.arrayBuffer();
    check(anonymous.status === 401, `${url} without a password answered ${anonymous.status}`);
    check(
      /basic/i.test(anonymous.headers.get('www-authenticate') ?? ''),
      'the 401 asks for no basic auth',
    );
    const auth = Buffer.from(
      `${envValues.ADMIN_USER || 'admin'}:${envValues.ADMIN_PASSWORD}`,
    ).toString('base64');
    const response = await fetch(url, {
      headers: { authorization: `Basic ${auth}` },
      signal: AbortSignal.timeout(10_000),
    });
    const xml = await response.text();
    check(response.status === 200, `${url} with the admin password answered ${response.status}`);
    check(xml.includes('<icestats>'), 'stats.xml has no <icestats>');
    for (const { path } of STATION_MOUNTS) {
      check(xml.includes(`mount="${path}"`), `stats.xml lists no source ${path}`);
    }
    note(`401 without, 200 with: <icestats> with ${STATION_MOUNTS.length} sources`);
  });

  await stage('scheduler: control port (version, request.queue)', async () => {
    const version = await control('version');
    check(version.length > 0 && version[0], 'version answered nothing');
    const queue = await control('request.queue');
    note(`version: ${version[0]}; request.queue: ${queue.length} entries`);
  });

  await stage(
    'REST API through the web server: status, first admin, register, login, tracks',
    async () => {
      const status = await api('/status');
      check(status.response.status === 200, `/status answered ${status.response.status}`);
      const health = status.json.health as Record<string, { ok: boolean }> | undefined;
      const down = Object.entries(health ?? {}).filter(([, entry]) => !entry.ok);
      check(health && down.length === 0, `/status: not healthy: ${JSON.stringify(status.json)}`);
      const streaming = await api('/streaming-status');
      const urls = ((streaming.json.mounts as Array<{ url: string }>) ?? []).map((m) => m.url);
      check(
        urls.length === STATION_MOUNTS.length &&
          urls.every((url) => url.startsWith(envValues.PUBLIC_STREAM_URL as string)),
        `/streaming-status: mounts not on PUBLIC_STREAM_URL: ${urls.join(', ')}`,
      );

      const username = `e2e-${id}`;
      await makeFirstAdmin(username);
      const registered = await api('/auth/register', {
        method: 'POST',
        body: { username: `listener-${id}`, password: PASSWORD },
      });
      check(
        registered.response.status === 201,
        `register answered ${registered.response.status}: ${JSON.stringify(registered.json)}`,
      );
      const registeredRole = (registered.json.user as { role?: string } | undefined)?.role;
      check(registeredRole === 'listener', `a registered account is ${registeredRole}`);
      const login = await api('/auth/login', {
        method: 'POST',
        body: { username, password: PASSWORD },
      });
      check(login.response.status === 200, `login answered ${login.response.status}`);
      const cookie = cookieOf(login.response);
      check(cookie !== '', 'login set no session cookie');
      const role = (login.json.user as { role?: string } | undefined)?.role;
      check(role === 'admin', `${username} logged in as ${role}, not admin`);
      adminCookie = cookie;
      const anonymous = await api('/tracks');
      check(
        anonymous.response.status === 401,
        `/tracks without a session: ${anonymous.response.status}`,
      );
      const tracks = await api('/tracks', { cookie });
      check(tracks.response.status === 200, `/tracks with the cookie: ${tracks.response.status}`);
      const items = tracks.json.items as unknown[] | undefined;
      check(Array.isArray(items) && items.length > 0, '/tracks listed no track');
      note(
        `status ${String(status.json.status)} (db, bus, stream, scheduler ok); listener-${id} registered as a listener; ${username} logged in as admin; /tracks: ${items.length} tracks (401 without the cookie)`,
      );
    },
  );

  await stage('live: a DJ source through LIVE_PUBLISH_PORT goes on air and leaves', async () => {
    const cookie = adminCookie;
    const user = await api('/users', {
      method: 'POST',
      cookie,
      body: { username: `dj-${id}`, password: PASSWORD, role: 'dj' },
    });
    check(user.response.status === 201, `POST /users answered ${user.response.status}`);
    const account = await api('/dj-accounts', {
      method: 'POST',
      cookie,
      body: { userId: user.json.id },
    });
    check(account.response.status === 201, `POST /dj-accounts answered ${account.response.status}`);
    const { broadcastUsername, password } = account.json as {
      broadcastUsername: string;
      password: string;
    };
    const ffmpeg = locateFfmpeg({ ffmpegPath: process.env.FFMPEG_PATH || undefined });
    const source = run(
      ffmpeg.path,
      [
        ...['-hide_banner', '-loglevel', 'error', '-re', '-f', 'lavfi', '-i', 'sine=f=1000:d=8'],
        ...['-c:a', 'libmp3lame', '-b:a', '128k', '-f', 'mp3', '-content_type', 'audio/mpeg'],
        `icecast://${broadcastUsername}:${password}@127.0.0.1:${livePort}/live`,
      ],
      { allowFail: true, timeoutMs: 60_000 },
    );
    let onAir: unknown = null;
    for (let tries = 0; tries < 60 && !onAir; tries++) {
      await sleep(250);
      onAir = (await api('/live', { cookie })).json.onAir;
    }
    check(onAir, `GET /api/radio/live never showed the DJ on air through port ${livePort}`);
    const sent = await source;
    check(sent.code === 0, `ffmpeg's live source failed: ${lastLines(sent.output, 3)}`);
    let after: unknown = onAir;
    for (let tries = 0; tries < 40 && after; tries++) {
      await sleep(250);
      after = (await api('/live', { cookie })).json.onAir;
    }
    check(!after, 'the DJ was still on air after its source left');
    note(`dj-${id} on air through 127.0.0.1:${livePort}/live, then the AutoDJ again`);
  });

  await stage(
    'library: an MP3 uploaded through the web server (tus) is added and indexed',
    async () => {
      const cookie = adminCookie;
      const ffmpeg = locateFfmpeg({ ffmpegPath: process.env.FFMPEG_PATH || undefined });
      const file = join(folder, 'upload.mp3');
      await run(ffmpeg.path, [
        ...['-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', 'sine=f=660:d=5'],
        ...['-c:a', 'libmp3lame', '-b:a', '128k', '-metadata', 'title=Uploaded in compose', file],
      ]);
      const body = await readFile(file);
      const tus = { cookie, 'tus-resumable': '1.0.0' };
      const name = Buffer.from(`e2e-upload-${id}.mp3`).toString('base64');
      const created = await fetch(`${webBase}/api/radio/uploads`, {
        method: 'POST',
        headers: {
          ...tus,
          'upload-length': String(body.length),
          'upload-metadata': `filename ${name}`,
        },
        signal: AbortSignal.timeout(15_000),
      });
      const location = created.headers.get('location');
      check(created.status === 201 && location, `tus creation answered ${created.status}`);
      const finished = await fetch(new URL(location, webBase), {
        method: 'PATCH',
        headers: {
          ...tus,
          'upload-offset': '0',
          'content-type': 'application/offset+octet-stream',
        },
        body,
        signal: AbortSignal.timeout(30_000),
      });
      const result = (await finished.json()) as { status?: string; track?: { id: number } | null };
      check(
        finished.status === 200 && result.status === 'added' && result.track,
        `the upload's last PATCH answered ${finished.status}: ${JSON.stringify(result)}`,
      );
      note(`e2e-upload-${id}.mp3 added as track ${result.track?.id} (${body.length} bytes)`);
    },
  );

  await stage('web page', async () => {
    const page = await fetch(`${webBase}/`, { signal: AbortSignal.timeout(10_000) });
    const html = await page.text();
    check(page.status === 200, `GET / answered ${page.status}`);
    check(
      (page.headers.get('content-type') ?? '').startsWith('text/html'),
      'GET / is not text/html',
    );
    const script = /<script[^>]+src="([^"]+\.js)"/.exec(html)?.[1];
    check(script, 'the page loads no script');
    const asset = await fetch(new URL(script, `${webBase}/`), {
      signal: AbortSignal.timeout(10_000),
    });
    await asset.arrayBuffer();
    check(asset.status === 200, `${script} answered ${asset.status}`);
    note(`GET / 200 (${html.length} bytes), ${script} 200`);
  });

  await stage('the example secrets are refused', async () => {
    const file = join(folder, 'example.env');
    for (const service of ['stream', 'scheduler', 'api']) {
      const refused = await compose(
        ['run', '--rm', '--no-deps', '-T', service],
        {
          allowFail: true,
          timeoutMs: 60_000,
        },
        file,
      );
      check(
        refused.code === 78 && /is still the placeholder CHANGE_ME/.test(refused.output),
        `${service} with the .env.example values: exit ${refused.code}\n${lastLines(refused.output, 5)}`,
      );
      const line = (refused.output.split('\n').find((l) => l.includes('CHANGE_ME')) ?? '')
        .replace(/^Invalid configuration: /, '')
        .replace(/ of \.env\.example[^;]*/g, '');
      note(`${service}: exit 78: ${line.length > 110 ? `${line.slice(0, 107)}...` : line}`);
    }
  });

  await stage(
    "careful defaults: Redis password, the apps' PostgreSQL role, 12-character passwords",
    () =>
      checkCarefulDefaults(
        {
          compose: (args, options = {}) =>
            compose(
              args,
              { allowFail: options.allowFail ?? false, timeoutMs: 60_000 },
              options.envFile,
            ),
          note,
          check,
        },
        {
          POSTGRES_USER: envValues.POSTGRES_USER || 'radio',
          POSTGRES_DB: envValues.POSTGRES_DB || 'radio',
          POSTGRES_APP_USER: envValues.POSTGRES_APP_USER || 'radio_app',
        },
        shortEnvFiles,
      ),
  );

  await stage('radioctl ps, radioctl logs scheduler --tail 20', async () => {
    // The one-off containers of the stages before load the machine: a health check that timed
    // out meanwhile (3 s, Node starting) must pass again before ps can show every one healthy.
    await waitHealthy(HEALTH_TIMEOUT_S);
    const ps = await radioctl(['ps']);
    for (const line of ps.stdout.trimEnd().split('\n')) note(line);
    const json = JSON.parse((await radioctl(['--json', 'ps'])).stdout) as {
      containers: Array<{ service: string; state: string; health: string | null }>;
    };
    for (const service of SERVICES) {
      const container = json.containers.find((c) => c.service === service);
      check(
        container?.state === 'running' && container.health === 'healthy',
        `radioctl ps: ${service} is ${container ? `${container.state}/${container.health}` : 'missing'}`,
      );
    }
    const logs = await radioctl(['logs', 'scheduler', '--tail', '20']);
    const lines = logs.output.trimEnd().split('\n').filter(Boolean);
    check(lines.length > 0 && lines.length <= 20, `radioctl logs gave ${lines.length} lines`);
    note(`radioctl logs scheduler --tail 20: ${lines.length} lines, the last:`);
    note(`  ${(lines.at(-1) ?? '').slice(0, 150)}`);
  });

  await stage('radioctl add of a FLAC, then in request.queue', async () => {
    const ffmpeg = locateFfmpeg({ ffmpegPath: process.env.FFMPEG_PATH || undefined });
    const name = `E2E ${id} - Added Live.flac`;
    const file = join(folder, name);
    await generateTrack(
      file,
      {
        format: 'flac',
        durationSeconds: 20,
        frequency: 523,
        tags: { title: `Added Live ${id}`, artist: `E2E ${id}`, album: 'Compose' },
      },
      { ffmpegPath: ffmpeg.path },
    );
    const added = await radioctl(['add', file], { show: (line) => line || null });
    check(added.code === 0, 'radioctl add failed');
    const queue = await control('request.queue');
    const queued = queue.some((line) => line.includes(`(${name})`));
    if (!queued) {
      // Already on air (the queue was short): request.metadata shows it.
      const metadata = await control('request.metadata');
      check(
        metadata.some((line) => line.includes(name)),
        `${name} is neither in request.queue nor on air:\n${queue.join('\n')}`,
      );
      note(`${name}: on air`);
    } else {
      note(`${name}: in request.queue (${queue.length} entries)`);
    }
  });

  await stage('radioctl restart: every service healthy again, the stream plays', async () => {
    await radioctl(['restart'], { show: (line) => line || null, timeoutMs: 10 * 60_000 });
    await waitHealthy(HEALTH_TIMEOUT_S);
    let probed = '';
    for (let attempt = 1; ; attempt++) {
      try {
        probed = await probeMount(STATION_MOUNTS[0] as StationMount);
        break;
      } catch (error) {
        if (attempt >= 15) throw error;
        await sleep(2000);
      }
    }
    const bytes = await readStream(`${streamBase}/radio.mp3`, 64 * 1024, 20_000);
    const onAir = await control('request.on_air');
    note(`/radio.mp3: ffprobe ${probed}, ${bytes} bytes read; on air: ${onAir[0] ?? '(nothing)'}`);
  });

  const edges = await stage(
    `scale profile: --profile scale up -d, ${EDGES} edges and the balancer healthy`,
    async () => {
      const [origin] = await containersOf('stream');
      const shown = /^(Building edge$|Successfully tagged|Creating |Recreating |Starting |^ERROR)/;
      await compose(['--profile', 'scale', 'up', '-d'], {
        timeoutMs: 10 * 60_000,
        show: (line) => {
          const built = /^ ---> ([0-9a-f]{12})$/.exec(line);
          if (built) builtIds.push(built[1] as string);
          return shown.test(line) ? line : null;
        },
      });
      let last = '';
      const edges = await waitFor(
        `${EDGES} edges and the balancer healthy`,
        async () => {
          const edges = await containersOf('edge');
          const lb = await containersOf('lb');
          const line = describeContainers([...edges, ...lb]);
          if (line !== last) note(line);
          last = line;
          const healthy = [...edges, ...lb].every((c) => c.health === 'healthy');
          return edges.length === EDGES && lb.length === 1 && healthy && edges;
        },
        HEALTH_TIMEOUT_S * 1000,
        1000,
      );
      const [originNow] = await containersOf('stream');
      check(originNow?.id === origin?.id, 'the scale profile recreated the origin (stream)');
      const up = await waitFor(
        `the balancer seeing ${EDGES} edges up`,
        async () => {
          const servers = await balancerServers();
          const up = servers.filter((server) => server.status === 'UP');
          return up.length === EDGES && up;
        },
        60_000,
        1000,
      );
      const reporting = await waitFor(
        `the origin hearing from ${EDGES} edges`,
        async () => {
          const reported = await originEdges();
          return reported.length === EDGES && reported;
        },
        60_000,
        500,
      );
      note(`EDGES=${EDGES}: ${edges.map((edge) => edge.name).join(', ')}; origin left as it was`);
      note(
        `balancer: ${up.map((server) => server.name).join(', ')} UP (of 10 slots); the origin lists ${reporting.map((edge) => edge.node).join(', ')}`,
      );
      return edges;
    },
  );

  await stage(
    `scale: HLS and ${SCALE_LISTENERS} listeners through the balancer, one edge stopped`,
    async () => {
      // A player's playlist and segment fetches must stay on one edge (its session and segment
      // names are that edge's), or ffprobe finds segments missing.
      const hls = await ffprobe(`${scaleBase}/hls/radio.m3u8`);
      check(hls.codec === 'aac', `/hls/radio.m3u8 through the balancer: codec ${hls.codec}`);
      note(`ffprobe /hls/radio.m3u8 through the balancer: ${hls.codec}`);
      const listeners = Array.from(
        { length: SCALE_LISTENERS },
        () => new StreamListener(`${scaleBase}/radio.mp3`),
      );
      try {
        for (const listener of listeners) listener.start();
        await moveListeners(listeners, edges);
      } finally {
        await Promise.all(listeners.map((listener) => listener.stop()));
      }
    },
  );

  await stage(
    'monitoring profile: Prometheus with every target up (the running edges too); promtool on /metrics, config, rules',
    () =>
      checkMonitoring(
        {
          compose: (args, options) => compose(args, { timeoutMs: 60_000, ...options }),
          note,
          check,
        },
        `http://127.0.0.1:${prometheusPort}`,
        // The scale stage stopped one edge.
        EDGES - 1,
      ),
  );

  const tls = await stage(
    'tls profile: a fresh stack (down -v) behind Caddy on https://localhost:PORT, all healthy',
    startTlsStack,
  );

  const trusted = await stage(
    "tls: Caddy's root CA into a Chromium profile, HTTP redirected, another origin refused",
    async () => {
      const trusted = await trustCaddyRoot(tlsTools, tls.caddy, folder);
      await checkRedirect(tlsTools, tls.site);
      await checkForeignOrigin(tlsTools, tls.site, trusted.rootPem);
      return trusted;
    },
  );

  await stage(
    'tls: Chromium over HTTPS: first admin with the setup code, sign-in, upload, MP3 and HLS',
    async () => {
      const setup = await pendingSetup();
      check(setup, 'radioctl status --json shows no setup code on the fresh stack');
      check(
        setup.webUrl === `${tls.site.origin}/`,
        `radioctl status sends the operator to ${setup.webUrl}, not ${tls.site.origin}/ (PUBLIC_URL)`,
      );
      const file = join(folder, `tls-upload-${id}.mp3`);
      const ffmpeg = locateFfmpeg({ ffmpegPath: process.env.FFMPEG_PATH || undefined });
      await run(ffmpeg.path, [
        ...['-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', 'sine=f=440:d=5'],
        ...['-c:a', 'libmp3lame', '-b:a', '128k', '-metadata', 'title=Uploaded over HTTPS', file],
      ]);
      await browseOverHttps(tlsTools, {
        site: tls.site,
        home: trusted.home,
        setupCode: setup.code,
        admin: { username: `tls-admin-${id}`, password: PASSWORD },
        file,
        folder,
      });
      await waitFor(
        'radioctl status to show no setup code',
        async () => (await pendingSetup()) === null,
        30_000,
        500,
      );
      note('radioctl status shows no setup code any more');
    },
  );

  await stage(
    `tls: a listener's first byte of /radio.mp3 through Caddy and on the stream port (${FIRST_BYTE_TRIES} each)`,
    async () => {
      const stream = new URL(streamBase);
      const figures = await compareFirstBytes(
        {
          caddy: {
            address: '127.0.0.1',
            port: tls.site.httpsPort,
            host: tls.site.host,
            path: '/radio.mp3',
            ca: trusted.rootPem,
          },
          direct: {
            address: '127.0.0.1',
            port: Number(stream.port),
            host: stream.host,
            path: '/radio.mp3',
          },
        },
        FIRST_BYTE_TRIES,
      );
      const show = (f: Figures | undefined): string =>
        f
          ? `median ${f.median.toFixed(1)} ms (min ${f.min.toFixed(1)}, p90 ${f.p90.toFixed(1)}, max ${f.max.toFixed(1)})`
          : '-';
      note(`through Caddy (HTTPS, TLS handshake included): ${show(figures.caddy)}`);
      note(`on the stream port (plain HTTP): ${show(figures.direct)}`);
      note('target: under 100 ms through Caddy (measured, not asserted)');
    },
  );

  await stage('docker-compose down -v', async () => {
    if (keep) {
      note(`--keep: the stack stays up (project ${project}, folder ${folder}); take it down with`);
      note(`  ${takeDownCommand()}`);
      return;
    }
    await teardown();
  });
} catch (error) {
  failure = error;
}

// ---- report -------------------------------------------------------------------------------

const total = (performance.now() - started) / 1000;
if (failure && !interrupted) {
  const failed = timings.at(-1);
  console.log(`\nFAILED at "${failed?.name ?? '?'}": ${(failure as Error).message}`);
  if (stackStarted) await diagnostics();
  if (keep) {
    console.log(`\n--keep: the stack stays up. Take it down with:\n  ${takeDownCommand()}`);
  } else {
    await teardown().catch((error: unknown) =>
      console.log(`teardown: ${(error as Error).message}`),
    );
  }
}
if (interrupted) await new Promise(() => {});

console.log('\nStage timings:');
for (const [index, t] of timings.entries()) {
  console.log(
    `  ${String(index + 1).padStart(2)}  ${t.name.padEnd(72)} ${t.seconds.toFixed(1).padStart(7)}s${t.ok ? '' : '  FAILED'}`,
  );
}
console.log(`      ${'total'.padEnd(72)} ${total.toFixed(1).padStart(7)}s`);
if (imageSizes.length > 0) console.log(`Images: ${imageSizes.join('; ')}`);

if (failure) {
  if (folder) console.log(`Commands and their output: ${logFile} (the folder is kept)`);
  console.log('compose-e2e: 0 passed, 1 failed');
  process.exit(1);
}
if (folder && !keep) await rm(folder, { recursive: true, force: true });
console.log(`compose-e2e: ${timings.length} passed, 0 failed`);
