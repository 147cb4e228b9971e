/**
 * What radioctl knows of a container: the compose labels that place it in a stack, and the
 * plain ContainerInfo made from Docker's inspect answer, so nothing else reads Docker's shapes.
 */
import type Docker from 'dockerode';

export const LABEL_PROJECT = 'com.docker.compose.project';
export const LABEL_SERVICE = 'com.docker.compose.service';
export const LABEL_NUMBER = 'com.docker.compose.container-number';
export const LABEL_ONEOFF = 'com.docker.compose.oneoff';
/** Compose v2 writes `service:condition:restart,...`; compose 1.29 writes nothing. */
export const LABEL_DEPENDS_ON = 'com.docker.compose.depends_on';

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

/** A container listed by compose for its project, one-off `run` containers excepted. */
export function isServiceContainer(summary: Docker.ContainerInfo): boolean {
  return (
    summary.Labels?.[LABEL_SERVICE] !== undefined &&
    summary.Labels?.[LABEL_ONEOFF]?.toLowerCase() !== 'true'
  );
}

function dockerDate(value: string | undefined): Date | null {
  // Docker says "0001-01-01T00:00:00Z" for never.
  if (!value || value.startsWith('0001-')) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

function parseDependsOn(label: string | undefined): string[] {
  if (!label) return [];
  return label
    .split(',')
    .map((entry) => entry.split(':')[0]?.trim() ?? '')
    .filter((name) => name !== '');
}

function portBindings(data: Docker.ContainerInspectInfo): PortBinding[] {
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
  return ports.sort(
    (a, b) => a.containerPort - b.containerPort || a.hostIp.localeCompare(b.hostIp),
  );
}

function environment(data: Docker.ContainerInspectInfo): Record<string, string> {
  const env: Record<string, string> = {};
  for (const entry of data.Config.Env ?? []) {
    const at = entry.indexOf('=');
    if (at > 0) env[entry.slice(0, at)] = entry.slice(at + 1);
  }
  return env;
}

/** The health status (null without a health check) and the last probe's output. */
function healthOf(
  data: Docker.ContainerInspectInfo,
): Pick<ContainerInfo, 'health' | 'lastHealthOutput'> {
  const health = (data.State as { Health?: { Status?: string; Log?: { Output?: string }[] } })
    .Health;
  const hasHealthcheck =
    Array.isArray(data.Config.Healthcheck?.Test) &&
    data.Config.Healthcheck.Test.length > 0 &&
    data.Config.Healthcheck.Test[0] !== 'NONE';
  const lastProbe = health?.Log?.[health.Log.length - 1]?.Output?.trim();
  return {
    health: hasHealthcheck ? (health?.Status ?? 'starting') : null,
    lastHealthOutput: lastProbe ? lastProbe : null,
  };
}

export function toContainerInfo(data: Docker.ContainerInspectInfo): ContainerInfo {
  const labels = data.Config.Labels ?? {};
  return {
    id: data.Id,
    name: data.Name.replace(/^\//, ''),
    project: labels[LABEL_PROJECT] ?? '',
    service: labels[LABEL_SERVICE] ?? '',
    number: Number(labels[LABEL_NUMBER] ?? 1) || 1,
    image: data.Config.Image,
    state: data.State.Status,
    ...healthOf(data),
    startedAt: dockerDate(data.State.StartedAt),
    finishedAt: dockerDate(data.State.FinishedAt),
    exitCode: data.State.Status === 'running' ? null : data.State.ExitCode,
    restartCount: data.RestartCount ?? 0,
    ports: portBindings(data),
    mounts: (data.Mounts ?? []).map((mount) => ({
      type: mount.Type,
      source: mount.Source,
      destination: mount.Destination,
      readOnly: mount.RW === false,
      name: mount.Name,
    })),
    env: environment(data),
    tty: data.Config.Tty === true,
    networks: Object.entries(data.NetworkSettings.Networks ?? {}).map(([name, network]) => ({
      name,
      ip: network.IPAddress,
    })),
    dependsOn: parseDependsOn(labels[LABEL_DEPENDS_ON]),
  };
}
