import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { ContainerInfo, DockerClient } from './docker/index.ts';
import { LABEL_PROJECT } from './docker/index.ts';
import { OpsError } from './errors.ts';

/** The order services start in when compose did not record `depends_on` (compose 1.29). */
export const FIXED_ORDER: readonly string[] = [
  'redis',
  'postgres',
  'stream',
  'scheduler',
  'api',
  'web',
];

const COMPOSE_FILES = ['compose.yaml', 'compose.yml', 'docker-compose.yaml', 'docker-compose.yml'];

export interface Project {
  name: string;
  /** How the name was chosen, for messages. */
  from: '--project' | 'COMPOSE_PROJECT_NAME' | '.env' | 'folder';
  /** The folder holding the compose file, when one was found. */
  folder: string | undefined;
}

/** Compose's rule for project names: lower case, only a-z 0-9 _ -, not starting with _ or -. */
export function normaliseProjectName(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^-_a-z0-9]/g, '')
    .replace(/^[-_]+/, '');
}

/** The nearest folder from `cwd` upwards holding a compose file, as compose looks for it. */
export function findComposeFolder(cwd: string): string | undefined {
  let folder = cwd;
  for (;;) {
    if (COMPOSE_FILES.some((file) => existsSync(join(folder, file)))) return folder;
    const parent = dirname(folder);
    if (parent === folder) return undefined;
    folder = parent;
  }
}

function projectFromDotEnv(folder: string): string | undefined {
  let text: string;
  try {
    text = readFileSync(join(folder, '.env'), 'utf8');
  } catch {
    return undefined;
  }
  for (const line of text.split(/\r?\n/)) {
    const match = /^\s*(?:export\s+)?COMPOSE_PROJECT_NAME\s*=\s*(.*?)\s*$/.exec(line);
    if (match?.[1]) return match[1].replace(/^(['"])(.*)\1$/, '$2');
  }
  return undefined;
}

/**
 * The compose project the way docker compose picks it: --project, COMPOSE_PROJECT_NAME, the
 * compose folder's .env, then the compose folder's name (the current folder without one).
 */
export function resolveProject(options: {
  flag: string | undefined;
  env: { COMPOSE_PROJECT_NAME?: string | undefined };
  cwd: string;
}): Project {
  const folder = findComposeFolder(options.cwd);
  const pick = (raw: string, from: Project['from']): Project => {
    const name = normaliseProjectName(raw);
    if (name === '') {
      throw new OpsError(
        'OPS_USAGE',
        `"${raw}" (from ${from}) is not a usable compose project name: use letters, digits, _ or -`,
      );
    }
    return { name, from, folder };
  };
  if (options.flag) return pick(options.flag, '--project');
  if (options.env.COMPOSE_PROJECT_NAME) {
    return pick(options.env.COMPOSE_PROJECT_NAME, 'COMPOSE_PROJECT_NAME');
  }
  const fromDotEnv = folder ? projectFromDotEnv(folder) : undefined;
  if (fromDotEnv) return pick(fromDotEnv, '.env');
  return pick(basename(folder ?? options.cwd), 'folder');
}

function rank(service: string): number {
  const index = FIXED_ORDER.indexOf(service);
  return index < 0 ? FIXED_ORDER.length : index;
}

function byRank(a: string, b: string): number {
  return rank(a) - rank(b) || a.localeCompare(b);
}

/**
 * Services in start order: dependencies first, from compose's depends_on labels where it wrote
 * them, with FIXED_ORDER (then the name) breaking ties and standing in when there are none.
 */
export function dependencyOrder(
  services: readonly string[],
  dependsOn: ReadonlyMap<string, readonly string[]>,
): string[] {
  const pending = new Set(services);
  const order: string[] = [];
  while (pending.size > 0) {
    const ready = [...pending]
      .filter((service) =>
        (dependsOn.get(service) ?? []).every((dep) => !pending.has(dep) || dep === service),
      )
      .sort(byRank);
    // A cycle (compose refuses them, but labels can lie): fall back to the fixed order.
    const next = ready[0] ?? [...pending].sort(byRank)[0];
    if (next === undefined) break;
    order.push(next);
    pending.delete(next);
  }
  return order;
}

/** The containers of one compose project, as Docker reports them now. */
export class Stack {
  readonly project: Project;
  /** In service start order, then by container number. */
  readonly containers: readonly ContainerInfo[];
  readonly #order: string[];

  constructor(project: Project, containers: readonly ContainerInfo[]) {
    this.project = project;
    const dependsOn = new Map<string, string[]>();
    for (const container of containers) {
      const deps = dependsOn.get(container.service) ?? [];
      dependsOn.set(container.service, [...new Set([...deps, ...container.dependsOn])]);
    }
    this.#order = dependencyOrder([...dependsOn.keys()], dependsOn);
    this.containers = [...containers].sort(
      (a, b) =>
        this.#order.indexOf(a.service) - this.#order.indexOf(b.service) ||
        a.number - b.number ||
        a.name.localeCompare(b.name),
    );
  }

  /** Loads the project's containers; none at all means the stack is not running. */
  static async load(docker: DockerClient, project: Project): Promise<Stack> {
    const containers = await docker.projectContainers(project.name);
    if (containers.length === 0) {
      const where =
        project.from === 'folder'
          ? ` (the name of ${project.folder ?? 'the current folder'})`
          : ` (from ${project.from})`;
      throw new OpsError(
        'OPS_STACK_NOT_RUNNING',
        `the stack is not running: no containers of compose project "${project.name}"${where} (label ${LABEL_PROJECT}=${project.name}). Start it with "docker compose up -d" in its folder, or name another project with --project or COMPOSE_PROJECT_NAME.`,
      );
    }
    return new Stack(project, containers);
  }

  /** Service names in start order. */
  services(): string[] {
    return [...this.#order];
  }

  /** `names` in start order; an unknown name is an error listing the known ones. */
  ordered(names: readonly string[]): string[] {
    for (const name of names) this.containersOf(name);
    return this.#order.filter((service) => names.includes(service));
  }

  containersOf(service: string): ContainerInfo[] {
    const found = this.containers.filter((container) => container.service === service);
    if (found.length === 0) {
      throw new OpsError(
        'OPS_UNKNOWN_SERVICE',
        `unknown service "${service}" in project "${this.project.name}"; known services: ${this.#order.join(', ')}`,
      );
    }
    return found;
  }
}

export interface Address {
  host: string;
  port: number;
  via: 'published' | 'container network';
}

/**
 * Where the host reaches a container's TCP port: its published port (on the engine's host),
 * else, for a local engine, the container's own address on its network.
 */
export function reachableAddress(
  container: ContainerInfo,
  containerPort: number,
  publishedHost: string,
): Address | null {
  const bindings = container.ports.filter(
    (binding) =>
      binding.containerPort === containerPort && binding.protocol === 'tcp' && binding.hostPort > 0,
  );
  const everywhere = (ip: string): boolean => ip === '' || ip === '0.0.0.0' || ip === '::';
  const preferred =
    bindings.find((binding) => binding.hostIp === '127.0.0.1' || binding.hostIp === '0.0.0.0') ??
    bindings[0];
  if (preferred) {
    const host = everywhere(preferred.hostIp) ? publishedHost : preferred.hostIp;
    return { host, port: preferred.hostPort, via: 'published' };
  }
  const local = publishedHost === '127.0.0.1';
  const ip = container.networks.find((network) => network.ip)?.ip;
  if (local && ip && container.state === 'running') {
    return { host: ip, port: containerPort, via: 'container network' };
  }
  return null;
}

/** A port a service listens on inside its container: its env variable, else the default. */
export function servicePort(container: ContainerInfo, variable: string, fallback: number): number {
  const value = Number(container.env[variable]);
  return Number.isInteger(value) && value > 0 ? value : fallback;
}
