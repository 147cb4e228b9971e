import type { CommandContext } from '../context.ts';
import {
  type ControlAddress,
  controlCommand,
  type LiveStatus,
  type OnAir,
  type PlayoutStatus,
  parseLiveStatus,
  parseOnAir,
  parsePlayoutStatus,
  parseQueue,
  type QueueEntry,
} from '../control-client.ts';
import type { ContainerInfo, DockerClient } from '../docker/index.ts';
import { OpsError } from '../errors.ts';
import { containerRecord, type Printer, table } from '../print.ts';
import { SetupLog } from '../setup-log.ts';
import { type Address, reachableAddress, Stack, servicePort } from '../stack.ts';

const STREAM_SERVICE = 'stream';
const SCHEDULER_SERVICE = 'scheduler';
const API_SERVICE = 'api';
const WEB_SERVICE = 'web';
const HTTP_TIMEOUT_MS = 3_000;

export interface MountStatus {
  mount: string;
  listeners: number;
  peak: number | null;
  bitrate: number | null;
  contentType: string | null;
  title: string | null;
}

/** Icecast's /status-json.xsl: `source` is absent, one object, or an array. */
export function parseStatusJson(body: unknown): MountStatus[] {
  const icestats = (body as { icestats?: { source?: unknown } } | null)?.icestats;
  if (!icestats || typeof icestats !== 'object') {
    throw new OpsError('OPS_STREAM_STATUS_FAILED', 'the stream server answered without "icestats"');
  }
  const raw = icestats.source;
  const sources = Array.isArray(raw) ? raw : raw ? [raw] : [];
  const number = (value: unknown): number | null =>
    typeof value === 'number'
      ? value
      : typeof value === 'string' && value !== '' && !Number.isNaN(Number(value))
        ? Number(value)
        : null;
  return sources
    .map((source: Record<string, unknown>) => {
      let mount = typeof source.mount === 'string' ? source.mount : '';
      if (!mount && typeof source.listenurl === 'string') {
        try {
          mount = new URL(source.listenurl).pathname;
        } catch {
          mount = source.listenurl;
        }
      }
      return {
        mount,
        listeners: number(source.listeners) ?? 0,
        peak: number(source.listener_peak),
        bitrate: number(source.bitrate),
        contentType: typeof source.server_type === 'string' ? source.server_type : null,
        title: typeof source.title === 'string' ? source.title : null,
      };
    })
    .sort((a, b) => a.mount.localeCompare(b.mount));
}

function runningContainer(stack: Stack, service: string): ContainerInfo | null {
  if (!stack.services().includes(service)) return null;
  return stack.containersOf(service).find((container) => container.state === 'running') ?? null;
}

async function streamMounts(address: Address): Promise<MountStatus[]> {
  const url = `http://${address.host.includes(':') ? `[${address.host}]` : address.host}:${address.port}/status-json.xsl`;
  let response: Response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(HTTP_TIMEOUT_MS) });
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    throw new OpsError('OPS_STREAM_STATUS_FAILED', `${url}: ${cause ?? (error as Error).message}`);
  }
  if (!response.ok) {
    throw new OpsError('OPS_STREAM_STATUS_FAILED', `${url}: HTTP ${response.status}`);
  }
  return parseStatusJson(await response.json().catch(() => null));
}

interface Part<T> {
  value: T | null;
  error: string | null;
}

async function attempt<T>(work: () => Promise<T>): Promise<Part<T>> {
  try {
    return { value: await work(), error: null };
  } catch (error) {
    return { value: null, error: (error as Error).message };
  }
}

/**
 * `playout.status` (fallback on air, dead-air skips), or null from a scheduler that does not
 * know the command: then there is nothing to say about it, which is not an error.
 */
async function playoutStatus(address: ControlAddress): Promise<PlayoutStatus | null> {
  try {
    return parsePlayoutStatus(await controlCommand(address, 'playout.status'));
  } catch (error) {
    if (error instanceof OpsError && /unknown command/i.test(error.message)) return null;
    throw error;
  }
}

/** `live.status`, or null from a scheduler without a live input (nothing to say then). */
async function liveStatus(address: ControlAddress): Promise<LiveStatus | null> {
  try {
    return parseLiveStatus(await controlCommand(address, 'live.status'));
  } catch (error) {
    if (error instanceof OpsError && /unknown command/i.test(error.message)) return null;
    throw error;
  }
}

/** The first admin is still to be made: the api's setup code, and where to enter it. */
export interface PendingSetup {
  code: string;
  /** The web app: the api's PUBLIC_URL, else the web server's published port. */
  webUrl: string | null;
}

/** Where the operator opens the web app from this host. */
function webAppUrl(stack: Stack, api: ContainerInfo, publishedHost: string): string | null {
  const publicUrl = api.env.PUBLIC_URL?.trim();
  if (publicUrl) return `${publicUrl.replace(/\/$/, '')}/`;
  const web = runningContainer(stack, WEB_SERVICE);
  const address = web && reachableAddress(web, servicePort(web, 'WEB_PORT', 8080), publishedHost);
  if (!address) return null;
  return `http://${address.host.includes(':') ? `[${address.host}]` : address.host}:${address.port}/`;
}

/**
 * The api's setup code while no admin exists, from its log since it last started (it logs the
 * code at each start while setup is pending, and "first admin created" once it is used).
 */
async function pendingSetup(
  docker: DockerClient,
  stack: Stack,
  publishedHost: string,
): Promise<PendingSetup | null> {
  const api = runningContainer(stack, API_SERVICE);
  if (!api?.startedAt) return null;
  const log = new SetupLog();
  await docker.logs(
    api,
    { follow: false, tail: 'all', since: api.startedAt.getTime() / 1000 - 1, timestamps: false },
    { stdout: log, stderr: { write: () => true } },
  );
  log.end();
  const code = log.code();
  return code === null ? null : { code, webUrl: webAppUrl(stack, api, publishedHost) };
}

/** What `status` read from the running stack, each part with its value or why it is missing. */
interface StackReport {
  mounts: Part<MountStatus[]>;
  onAir: Part<OnAir | null>;
  queue: Part<QueueEntry[]>;
  playout: Part<PlayoutStatus | null>;
  live: Part<LiveStatus | null>;
  setup: Part<PendingSetup | null>;
}

/**
 * Asks the stream server and the scheduler, on their published ports, and reads the api's log,
 * all at the same time.
 */
async function readStack(docker: DockerClient, stack: Stack): Promise<StackReport> {
  const publishedHost = docker.endpoint.publishedHost;
  const stream = runningContainer(stack, STREAM_SERVICE);
  const streamAddress = stream
    ? reachableAddress(stream, servicePort(stream, 'STREAM_PORT', 8000), publishedHost)
    : null;
  const scheduler = runningContainer(stack, SCHEDULER_SERVICE);
  const controlAddress = scheduler
    ? reachableAddress(scheduler, servicePort(scheduler, 'CONTROL_PORT', 1234), publishedHost)
    : null;

  const unavailable = (service: string, container: ContainerInfo | null): Part<never> => ({
    value: null,
    error: !stack.services().includes(service)
      ? `no ${service} service in the stack`
      : container === null
        ? `${service} is not running`
        : `${service} has no published port reachable from here`,
  });
  const [mounts, onAir, queue, playout, live, setup] = await Promise.all([
    streamAddress
      ? attempt(() => streamMounts(streamAddress))
      : unavailable(STREAM_SERVICE, stream),
    controlAddress
      ? attempt(
          async (): Promise<OnAir | null> =>
            parseOnAir(await controlCommand(controlAddress, 'request.on_air')),
        )
      : unavailable(SCHEDULER_SERVICE, scheduler),
    controlAddress
      ? attempt(
          async (): Promise<QueueEntry[]> =>
            parseQueue(await controlCommand(controlAddress, 'request.queue')),
        )
      : unavailable(SCHEDULER_SERVICE, scheduler),
    controlAddress
      ? attempt(() => playoutStatus(controlAddress))
      : unavailable(SCHEDULER_SERVICE, scheduler),
    controlAddress
      ? attempt(() => liveStatus(controlAddress))
      : unavailable(SCHEDULER_SERVICE, scheduler),
    attempt(() => pendingSetup(docker, stack, publishedHost)),
  ]);
  return { mounts, onAir, queue, playout, live, setup };
}

function totalListeners(mounts: Part<MountStatus[]>): number | null {
  return mounts.value?.reduce((sum, mount) => sum + mount.listeners, 0) ?? null;
}

function printJson(printer: Printer, stack: Stack, report: StackReport, now: number): void {
  const { mounts, onAir, queue, playout, live, setup } = report;
  printer.jsonValue({
    project: stack.project.name,
    containers: stack.containers.map((container) => containerRecord(container, now)),
    setup: setup.value,
    nowPlaying: onAir.value,
    queueLength: queue.value?.length ?? null,
    queue: queue.value,
    playout: playout.value,
    live: live.value,
    listeners: totalListeners(mounts),
    mounts: mounts.value,
    errors: {
      stream: mounts.error,
      scheduler: onAir.error ?? queue.error ?? playout.error ?? live.error,
      api: setup.error,
    },
  });
}

/** Only while the first admin is still to be made: the code and what to do with it. */
function printSetup(p: Printer, setup: Part<PendingSetup | null>): void {
  if (setup.error !== null) {
    p.line(`Setup: ${p.colourOut('unavailable', 'yellow')} (${setup.error})`);
    return;
  }
  const pending = setup.value;
  if (pending === null) return;
  p.line(`Setup: no admin yet; setup code ${p.colourOut(pending.code, 'bold')}`);
  p.line(
    `  open ${pending.webUrl ?? 'the web app'} and enter the code with a user name and password: that account becomes the admin, and the code stops working`,
  );
}

function printOnAir(p: Printer, onAir: Part<OnAir | null>): void {
  if (onAir.error !== null) {
    p.line(`Now playing: ${p.colourOut('unavailable', 'yellow')} (${onAir.error})`);
  } else if (onAir.value === null) {
    p.line('Now playing: nothing');
  } else {
    const track = onAir.value;
    p.line(
      `Now playing: ${p.colourOut(track.title, 'bold')} (${track.position} / ${track.duration}, request ${track.requestId})`,
    );
  }
}

/** The fallback and the dead-air guard, when the scheduler reports them. */
function printPlayout(p: Printer, playout: Part<PlayoutStatus | null>): void {
  if (playout.error !== null) {
    p.line(`Playout: ${p.colourOut('unavailable', 'yellow')} (${playout.error})`);
    return;
  }
  const status = playout.value;
  if (status === null) return;
  const onAir =
    status.fallback !== null
      ? `${p.colourOut('fallback on air', 'yellow')}: no music to play: ${status.fallback}`
      : `${status.state ?? 'unknown'}, on air: ${status.onAir ?? 'unknown'}`;
  p.line(`Playout: ${onAir}`);
  if (status.deadAirSkips !== null) p.line(`Dead-air skips: ${status.deadAirSkips}`);
}

/** Who is live on the scheduler's live input, when it has one. */
function printLive(p: Printer, live: Part<LiveStatus | null>): void {
  if (live.error !== null) {
    p.line(`Live: ${p.colourOut('unavailable', 'yellow')} (${live.error})`);
    return;
  }
  const status = live.value;
  if (status === null) return;
  if (status.onAir === null) p.line('Live: nobody (AutoDJ on air)');
  else {
    const notes = [
      status.silent ? 'silent, AutoDJ covering' : '',
      status.recording ? 'recording' : '',
    ]
      .filter(Boolean)
      .join(', ');
    p.line(`Live: ${p.colourOut(status.onAir, 'bold')}${notes ? ` (${notes})` : ''}`);
  }
  for (const waiting of status.waiting) p.line(`  waiting: ${waiting}`);
}

function printQueue(p: Printer, queue: Part<QueueEntry[]>): void {
  if (queue.error !== null) {
    p.line(`Queue: ${p.colourOut('unavailable', 'yellow')} (${queue.error})`);
    return;
  }
  const entries = queue.value ?? [];
  p.line(`Queue: ${entries.length} track${entries.length === 1 ? '' : 's'}`);
  for (const entry of entries.slice(0, 5)) {
    p.line(`  ${entry.requestId}  ${entry.title}  [${entry.kind}]`);
  }
  if (entries.length > 5) p.line(`  ... and ${entries.length - 5} more`);
}

function printListeners(p: Printer, mounts: Part<MountStatus[]>): void {
  if (mounts.error !== null) {
    p.line(`Listeners: ${p.colourOut('unavailable', 'yellow')} (${mounts.error})`);
    return;
  }
  const list = mounts.value ?? [];
  p.line(
    `Listeners: ${totalListeners(mounts) ?? 0} on ${list.length} mount${list.length === 1 ? '' : 's'}`,
  );
  if (list.length === 0) return;
  const rows = list.map((mount) => [
    mount.mount,
    String(mount.listeners),
    mount.peak === null ? '-' : String(mount.peak),
    mount.bitrate === null ? '-' : String(mount.bitrate),
    mount.title ?? '',
  ]);
  p.line(
    table(
      ['  MOUNT', 'LISTENERS', 'PEAK', 'KBPS', 'TITLE'],
      rows.map((row) => [`  ${row[0]}`, ...row.slice(1)]),
    ),
  );
}

function printText(p: Printer, stack: Stack, report: StackReport, now: number): void {
  const running = stack.containers.filter((container) => container.state === 'running').length;
  const healthy = stack.containers.filter((container) => container.health === 'healthy').length;
  p.line(
    `Project ${stack.project.name}: ${stack.containers.length} containers, ${running} running, ${healthy} healthy`,
  );
  p.line();
  p.containers(stack.containers, now);
  p.line();
  printSetup(p, report.setup);
  printOnAir(p, report.onAir);
  printPlayout(p, report.playout);
  printLive(p, report.live);
  printQueue(p, report.queue);
  printListeners(p, report.mounts);
}

/**
 * `radioctl status`: the containers, then what the running stack says about itself: the
 * first admin's setup code while none exists (the api's log), the stream server's mounts and
 * listeners (/status-json.xsl on its published port) and the scheduler's on-air track, queue,
 * fallback and dead-air skips (its control port). A part that cannot be read is shown as
 * unavailable with the reason; only Docker and the stack being absent are errors.
 */
export async function status(ctx: CommandContext): Promise<number> {
  const stack = await Stack.load(ctx.docker, ctx.project);
  const report = await readStack(ctx.docker, stack);
  const now = ctx.now();
  if (ctx.printer.json) printJson(ctx.printer, stack, report, now);
  else printText(ctx.printer, stack, report, now);
  return 0;
}
