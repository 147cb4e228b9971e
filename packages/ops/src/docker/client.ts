/**
 * The operations radioctl asks of the Docker engine. The rest of radioctl sees plain
 * ContainerInfo objects and these few calls; only this folder imports dockerode.
 */
import type { Readable } from 'node:stream';
import Docker from 'dockerode';
import type { OpsError } from '../errors.ts';
import { singleFileTar } from '../tar.ts';
import {
  type ContainerInfo,
  isServiceContainer,
  LABEL_PROJECT,
  toContainerInfo,
} from './container-info.ts';
import type { DockerEndpoint } from './endpoint.ts';
import { dockerFailure, isNotFound, unreachable } from './failures.ts';
import { copyLogs, type LogOptions, type LogSinks, lineCollector, openLogs } from './logs.ts';

/** Rejects with an ETIMEDOUT error after `timeoutMs`; `clear` stops the timer. */
function deadline(timeoutMs: number): { expired: Promise<never>; clear(): void } {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(Object.assign(new Error(`no answer in ${timeoutMs} ms`), { code: 'ETIMEDOUT' })),
      timeoutMs,
    );
  });
  return { expired, clear: () => clearTimeout(timer) };
}

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
      throw unreachable(endpoint, error);
    }
    const client = new DockerClient(endpoint, docker);
    const ping = deadline(timeoutMs);
    try {
      await Promise.race([docker.ping(), ping.expired]);
    } catch (error) {
      throw unreachable(endpoint, error);
    } finally {
      ping.clear();
    }
    return client;
  }

  #failure(what: string, error: unknown): OpsError {
    return dockerFailure(this.endpoint, what, error);
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
    const infos = await Promise.all(
      summaries
        .filter(isServiceContainer)
        .map((summary) => this.inspect(summary.Id).catch(() => null)),
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
    return toContainerInfo(data);
  }

  /**
   * Copies a container's logs into two sinks, stdout and stderr apart. Resolves when the logs
   * end: at once without `follow`, when the container stops or `signal` aborts with it.
   */
  async logs(
    container: ContainerInfo,
    options: LogOptions,
    sinks: LogSinks,
    signal?: AbortSignal,
  ): Promise<void> {
    const what = `reading the logs of ${container.name}`;
    let source: NodeJS.ReadableStream;
    try {
      source = await openLogs(this.#docker.getContainer(container.id), options);
    } catch (error) {
      throw this.#failure(what, error);
    }
    try {
      await copyLogs(this.#docker.modem, source, container.tty, sinks, signal);
    } catch (error) {
      throw this.#failure(what, error);
    }
  }

  /** The last lines of a container's output, both streams, for error messages. */
  async lastLines(container: ContainerInfo, count: number): Promise<string[]> {
    const collector = lineCollector();
    try {
      await this.logs(
        container,
        { follow: false, tail: count, since: undefined, timestamps: false },
        { stdout: collector.sink, stderr: collector.sink },
      );
    } catch {
      return [];
    }
    return collector.lines().slice(-count);
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
      if (isNotFound(error)) return null;
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
