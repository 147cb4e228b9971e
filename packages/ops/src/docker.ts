// The one file that talks to the Docker engine (through dockerode): the rest of radioctl sees
// plain ContainerInfo objects and these few operations.
import { readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import Docker from 'dockerode';
import { OpsError } from './errors.ts';
import { singleFileTar } from './tar.ts';

export const LABEL_PROJECT = 'com.docker.compose.project';
export const LABEL_SERVICE = 'com.docker.compose.service';
export const LABEL_NUMBER = 'com.docker.compose.container-number';
export const LABEL_ONEOFF = 'com.docker.compose.oneoff';
/** Compose v2 writes `service:condition:restart,...`; compose 1.29 writes nothing. */
export const LABEL_DEPENDS_ON = 'com.docker.compose.depends_on';

export interface DockerEnv {
  DOCKER_HOST?: string | undefined;
  DOCKER_TLS_VERIFY?: string | undefined;
  DOCKER_CERT_PATH?: string | undefined;
}

/** Where the engine is and how to reach it, with a description for error messages. */
export interface DockerEndpoint {
  /** `unix:///var/run/docker.sock`, `tcp://host:2375`... */
  url: string;
  /** True when DOCKER_HOST chose it. */
  fromEnv: boolean;
  /** The host name published ports are reached on (127.0.0.1 for a local socket). */
  publishedHost: string;
  options: Docker.DockerOptions;
}

const DEFAULT_SOCKET = '/var/run/docker.sock';

/** Reads DOCKER_HOST (and the TLS variables) the way the docker CLI does. */
export function dockerEndpoint(env: DockerEnv): DockerEndpoint {
  const raw = env.DOCKER_HOST?.trim();
  // Every option is set, even to undefined: docker-modem merges its own reading of
  // process.env.DOCKER_HOST under ours, and that must never win over what we were given.
  const blank = { socketPath: undefined, host: undefined, port: undefined, protocol: undefined };
  if (!raw) {
    return {
      url: `unix://${DEFAULT_SOCKET}`,
      fromEnv: false,
      publishedHost: '127.0.0.1',
      options: { ...blank, socketPath: DEFAULT_SOCKET },
    };
  }
  if (raw.startsWith('unix://')) {
    const socketPath = raw.slice('unix://'.length) || DEFAULT_SOCKET;
    return {
      url: `unix://${socketPath}`,
      fromEnv: true,
      publishedHost: '127.0.0.1',
      options: { ...blank, socketPath },
    };
  }
  let url: URL;
  try {
    url = new URL(raw.includes('://') ? raw : `tcp://${raw}`);
  } catch {
    throw new OpsError(
      'OPS_DOCKER_UNREACHABLE',
      `DOCKER_HOST=${raw} is not an address Docker understands (unix:///path/to/docker.sock, tcp://host:2375, ssh://user@host)`,
    );
  }
  if (!['tcp:', 'http:', 'https:', 'ssh:'].includes(url.protocol) || url.hostname === '') {
    throw new OpsError(
      'OPS_DOCKER_UNREACHABLE',
      `DOCKER_HOST=${raw} is not an address Docker understands (unix:///path/to/docker.sock, tcp://host:2375, ssh://user@host)`,
    );
  }
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (url.protocol === 'ssh:') {
    return {
      url: raw,
      fromEnv: true,
      publishedHost: host,
      options: {
        ...blank,
        protocol: 'ssh',
        host,
        port: url.port || 22,
        username: url.username || undefined,
      },
    };
  }
  const tls = env.DOCKER_TLS_VERIFY === '1' || url.protocol === 'https:' || url.port === '2376';
  const options: Docker.DockerOptions = {
    ...blank,
    protocol: tls ? 'https' : 'http',
    host,
    port: url.port || (tls ? 2376 : 2375),
  };
  if (tls && env.DOCKER_CERT_PATH) {
    try {
      options.ca = readFileSync(`${env.DOCKER_CERT_PATH}/ca.pem`);
      options.cert = readFileSync(`${env.DOCKER_CERT_PATH}/cert.pem`);
      options.key = readFileSync(`${env.DOCKER_CERT_PATH}/key.pem`);
    } catch (error) {
      throw new OpsError(
        'OPS_DOCKER_UNREACHABLE',
        `DOCKER_CERT_PATH=${env.DOCKER_CERT_PATH}: cannot read ca.pem, cert.pem and key.pem (${(error as Error).message})`,
      );
    }
  }
  return { url: raw, fromEnv: true, publishedHost: host, options };
}

export interface PortBinding {
  containerPort: number;
  protocol: string;
  /** '' or 0.0.0.0 / :: when published on every interface. */
  hostIp: string;
  hostPort: number;
}

export interface MountInfo {
  type: string;
  /** Host path of a bind mount; the volume's path on the engine's host for a volume. */
  source: string;
  destination: string;
  readOnly: boolean;
  /** Volume name, for volumes. */
  name: string | undefined;
}

export interface ContainerInfo {
  id: string;
  name: string;
  project: string;
  service: string;
  number: number;
  image: string;
  /** created, running, restarting, paused, exited, dead, removing. */
  state: string;
  /** healthy, unhealthy, starting; null when the container has no health check. */
  health: string | null;
  /** The last health probe's output, for error messages. */
  lastHealthOutput: string | null;
  startedAt: Date | null;
  finishedAt: Date | null;
  exitCode: number | null;
  restartCount: number;
  ports: PortBinding[];
  mounts: MountInfo[];
  env: Record<string, string>;
  tty: boolean;
  /** Address on each network the container is on. */
  networks: { name: string; ip: string }[];
  /** Services this one depends on, when compose recorded them (compose v2). */
  dependsOn: string[];
}

/** Receives demultiplexed log bytes. */
export interface ChunkSink {
  write(chunk: Buffer): unknown;
}

export interface LogOptions {
  follow: boolean;
  tail: number | 'all';
  since: number | undefined;
  timestamps: boolean;
}

function dockerDate(value: string | undefined): Date | null {
  // Docker says "0001-01-01T00:00:00Z" for never.
  if (!value || value.startsWith('0001-')) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** Unix seconds as Docker's `since` wants them: `seconds.nanoseconds`. */
function dockerTimestamp(unixSeconds: number): string {
  const seconds = Math.floor(unixSeconds);
  const nanos = Math.round((unixSeconds - seconds) * 1e9);
  return `${seconds}.${String(Math.min(nanos, 999_999_999)).padStart(9, '0')}`;
}

function parseDependsOn(label: string | undefined): string[] {
  if (!label) return [];
  return label
    .split(',')
    .map((entry) => entry.split(':')[0]?.trim() ?? '')
    .filter((name) => name !== '');
}

interface ErrorWithCode {
  code?: string;
  statusCode?: number;
  json?: { message?: string } | null;
  reason?: string;
  message?: string;
}

const CONNECTION_ERRORS = new Set([
  'ECONNREFUSED',
  'ENOENT',
  'EACCES',
  'EPERM',
  'ECONNRESET',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EPIPE',
]);

export class DockerClient {
  readonly endpoint: DockerEndpoint;
  readonly #docker: Docker;

  private constructor(endpoint: DockerEndpoint, docker: Docker) {
    this.endpoint = endpoint;
    this.#docker = docker;
  }

  /** Connects and pings the engine; a Docker that does not answer is an OPS_DOCKER_UNREACHABLE. */
  static async connect(endpoint: DockerEndpoint, timeoutMs = 10_000): Promise<DockerClient> {
    let docker: Docker;
    try {
      docker = new Docker(endpoint.options);
    } catch (error) {
      throw DockerClient.unreachable(endpoint, error);
    }
    const client = new DockerClient(endpoint, docker);
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        docker.ping(),
        new Promise((_, reject) => {
          timer = setTimeout(
            () =>
              reject(
                Object.assign(new Error(`no answer in ${timeoutMs} ms`), { code: 'ETIMEDOUT' }),
              ),
            timeoutMs,
          );
        }),
      ]);
    } catch (error) {
      throw DockerClient.unreachable(endpoint, error);
    } finally {
      clearTimeout(timer);
    }
    return client;
  }

  static unreachable(endpoint: DockerEndpoint, error: unknown): OpsError {
    const code = (error as ErrorWithCode)?.code;
    const words: Record<string, string> = {
      ENOENT: 'no socket there',
      ECONNREFUSED: 'connection refused',
      EACCES: 'permission denied',
      ETIMEDOUT: 'no answer',
      ENOTFOUND: 'unknown host',
      EHOSTUNREACH: 'host unreachable',
    };
    const detail =
      code && words[code]
        ? `${words[code]} (${code})`
        : (code ?? (error as Error)?.message ?? String(error));
    const how =
      (error as ErrorWithCode)?.code === 'EACCES'
        ? 'permission denied on the socket: run as root or add your user to the docker group'
        : endpoint.fromEnv
          ? 'check DOCKER_HOST (unset it to use the local socket /var/run/docker.sock)'
          : 'is dockerd running? (systemctl start docker, or dockerd &); set DOCKER_HOST to reach another engine';
    return new OpsError(
      'OPS_DOCKER_UNREACHABLE',
      `Docker is not reachable at ${endpoint.url}${endpoint.fromEnv ? ' (from DOCKER_HOST)' : ''}: ${detail}; ${how}`,
      { cause: error },
    );
  }

  /** A failed engine call: unreachable if the connection broke, else what Docker said. */
  #failure(what: string, error: unknown): OpsError {
    if (error instanceof OpsError) return error;
    const info = error as ErrorWithCode;
    if (info?.code && CONNECTION_ERRORS.has(info.code)) {
      return DockerClient.unreachable(this.endpoint, error);
    }
    const said = info?.json?.message ?? info?.reason ?? info?.message ?? String(error);
    return new OpsError('OPS_DOCKER_FAILED', `${what}: ${said}`, { cause: error });
  }

  /** Every container of a compose project (running or not), one-off `run` containers excepted. */
  async projectContainers(project: string): Promise<ContainerInfo[]> {
    let summaries: Docker.ContainerInfo[];
    try {
      summaries = await this.#docker.listContainers({
        all: true,
        filters: { label: [`${LABEL_PROJECT}=${project}`] },
      });
    } catch (error) {
      throw this.#failure('listing containers', error);
    }
    const wanted = summaries.filter(
      (summary) =>
        summary.Labels?.[LABEL_SERVICE] !== undefined &&
        summary.Labels?.[LABEL_ONEOFF]?.toLowerCase() !== 'true',
    );
    const infos = await Promise.all(
      wanted.map((summary) => this.inspect(summary.Id).catch(() => null)),
    );
    // A container removed between the list and the inspect is simply gone.
    return infos.filter((info): info is ContainerInfo => info !== null);
  }

  async inspect(id: string): Promise<ContainerInfo> {
    let data: Docker.ContainerInspectInfo;
    try {
      data = await this.#docker.getContainer(id).inspect();
    } catch (error) {
      throw this.#failure(`inspecting container ${id.slice(0, 12)}`, error);
    }
    const labels = data.Config.Labels ?? {};
    const ports: PortBinding[] = [];
    for (const [key, bindings] of Object.entries(data.NetworkSettings.Ports ?? {})) {
      const [port, protocol] = key.split('/');
      for (const binding of bindings ?? []) {
        ports.push({
          containerPort: Number(port),
          protocol: protocol ?? 'tcp',
          hostIp: binding.HostIp ?? '',
          hostPort: Number(binding.HostPort),
        });
      }
    }
    ports.sort((a, b) => a.containerPort - b.containerPort || a.hostIp.localeCompare(b.hostIp));
    const env: Record<string, string> = {};
    for (const entry of data.Config.Env ?? []) {
      const at = entry.indexOf('=');
      if (at > 0) env[entry.slice(0, at)] = entry.slice(at + 1);
    }
    const health = (data.State as { Health?: { Status?: string; Log?: { Output?: string }[] } })
      .Health;
    const hasHealthcheck =
      Array.isArray(data.Config.Healthcheck?.Test) &&
      data.Config.Healthcheck.Test.length > 0 &&
      data.Config.Healthcheck.Test[0] !== 'NONE';
    const lastProbe = health?.Log?.[health.Log.length - 1]?.Output?.trim();
    return {
      id: data.Id,
      name: data.Name.replace(/^\//, ''),
      project: labels[LABEL_PROJECT] ?? '',
      service: labels[LABEL_SERVICE] ?? '',
      number: Number(labels[LABEL_NUMBER] ?? 1) || 1,
      image: data.Config.Image,
      state: data.State.Status,
      health: hasHealthcheck ? (health?.Status ?? 'starting') : null,
      lastHealthOutput: lastProbe ? lastProbe : null,
      startedAt: dockerDate(data.State.StartedAt),
      finishedAt: dockerDate(data.State.FinishedAt),
      exitCode: data.State.Status === 'running' ? null : data.State.ExitCode,
      restartCount: data.RestartCount ?? 0,
      ports,
      mounts: (data.Mounts ?? []).map((mount) => ({
        type: mount.Type,
        source: mount.Source,
        destination: mount.Destination,
        readOnly: mount.RW === false,
        name: mount.Name,
      })),
      env,
      tty: data.Config.Tty === true,
      networks: Object.entries(data.NetworkSettings.Networks ?? {}).map(([name, network]) => ({
        name,
        ip: network.IPAddress,
      })),
      dependsOn: parseDependsOn(labels[LABEL_DEPENDS_ON]),
    };
  }

  /**
   * Copies a container's logs into two sinks, stdout and stderr apart (a container without a
   * TTY multiplexes both on one connection; demuxStream splits them). Resolves when the logs
   * end: at once without `follow`, when the container stops or `signal` aborts with it.
   */
  async logs(
    container: ContainerInfo,
    options: LogOptions,
    sinks: { stdout: ChunkSink; stderr: ChunkSink },
    signal?: AbortSignal,
  ): Promise<void> {
    const query = {
      stdout: true,
      stderr: true,
      tail: options.tail === 'all' ? 'all' : options.tail,
      timestamps: options.timestamps,
      ...(options.since === undefined ? {} : { since: dockerTimestamp(options.since) }),
    };
    const target = this.#docker.getContainer(container.id);
    let source: NodeJS.ReadableStream;
    try {
      if (options.follow) {
        source = await target.logs({ ...query, follow: true } as Docker.ContainerLogsOptions & {
          follow: true;
        });
      } else {
        const body: unknown = await target.logs({
          ...query,
          follow: false,
        } as Docker.ContainerLogsOptions & {
          follow?: false;
        });
        source =
          body instanceof Readable
            ? body
            : Readable.from([Buffer.isBuffer(body) ? body : Buffer.from(String(body ?? ''))]);
      }
    } catch (error) {
      throw this.#failure(`reading the logs of ${container.name}`, error);
    }
    if (signal?.aborted) {
      (source as Readable).destroy?.();
      return;
    }
    await new Promise<void>((resolve, reject) => {
      const onAbort = (): void => {
        (source as Readable).destroy?.();
        finish();
      };
      const finish = (error?: unknown): void => {
        signal?.removeEventListener('abort', onAbort);
        if (error) reject(this.#failure(`reading the logs of ${container.name}`, error));
        else resolve();
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      source.once('end', () => finish());
      source.once('close', () => finish());
      source.once('error', (error) => finish(error));
      if (container.tty) {
        source.on('data', (chunk: Buffer) => sinks.stdout.write(chunk));
      } else {
        // demuxStream only ever calls write() on its targets.
        this.#docker.modem.demuxStream(
          source,
          sinks.stdout as unknown as NodeJS.WritableStream,
          sinks.stderr as unknown as NodeJS.WritableStream,
        );
      }
    });
  }

  /** The last lines of a container's output, both streams, for error messages. */
  async lastLines(container: ContainerInfo, count: number): Promise<string[]> {
    const lines: string[] = [];
    let pending = '';
    const sink: ChunkSink = {
      write: (chunk: Buffer) => {
        pending += chunk.toString('utf8');
        const parts = pending.split('\n');
        pending = parts.pop() ?? '';
        lines.push(...parts);
      },
    };
    try {
      await this.logs(
        container,
        { follow: false, tail: count, since: undefined, timestamps: false },
        { stdout: sink, stderr: sink },
      );
    } catch {
      return [];
    }
    if (pending) lines.push(pending);
    return lines.slice(-count);
  }

  /** Stops (SIGTERM, then SIGKILL after `stopTimeoutSeconds`) and starts a container. */
  async restart(container: ContainerInfo, stopTimeoutSeconds: number): Promise<void> {
    try {
      await this.#docker.getContainer(container.id).restart({ t: stopTimeoutSeconds });
    } catch (error) {
      throw this.#failure(`restarting ${container.name}`, error);
    }
  }

  /** The size of a file inside a container, or null when there is none at `path`. */
  async fileSize(container: ContainerInfo, path: string): Promise<number | null> {
    try {
      const response = (await this.#docker
        .getContainer(container.id)
        .infoArchive({ path })) as unknown as Readable & { headers?: Record<string, string> };
      const stat = response.headers?.['x-docker-container-path-stat'];
      response.destroy?.();
      if (!stat) return 0;
      const parsed = JSON.parse(Buffer.from(stat, 'base64').toString('utf8')) as { size?: number };
      return parsed.size ?? 0;
    } catch (error) {
      if ((error as ErrorWithCode)?.statusCode === 404) return null;
      throw this.#failure(`looking for ${path} in ${container.name}`, error);
    }
  }

  /** Writes one file into a container's filesystem (through a volume or not). */
  async putFile(
    container: ContainerInfo,
    directory: string,
    name: string,
    data: Buffer,
    mode = 0o644,
  ): Promise<void> {
    try {
      await this.#docker
        .getContainer(container.id)
        .putArchive(singleFileTar(name, data, { mode }), { path: directory });
    } catch (error) {
      throw this.#failure(`copying ${name} into ${container.name}:${directory}`, error);
    }
  }
}
