// A small compose-like stack on the real Docker engine for radioctl's tests: one image made
// here (this Node binary and its libraries in a bare rootfs, `docker import`ed, so no registry
// and no prebuilt base image are needed) and containers labelled the way compose labels them.
import { execFile, spawn } from 'node:child_process';
import { copyFile, link, mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type Docker from 'dockerode';

export const TEST_LABEL = 'radio.ops-test';
// The fixture and the station's list of audio extensions it imports go into the image at
// their places in the repository, so the import resolves there as it does here.
const REPO = fileURLToPath(new URL('../../../../', import.meta.url));
const FIXTURE = 'packages/ops/tests/fixtures/fake-service.ts';
const EXTENSIONS = 'packages/core/src/audio/extensions.ts';
const NODE_IN_IMAGE = '/usr/local/bin/node';

export interface FakeService {
  service: string;
  role: 'plain' | 'stream' | 'scheduler';
  readyMs?: number;
  /** Container ports to publish on 127.0.0.1 (a free port each). */
  publish?: number[];
  binds?: string[];
  env?: Record<string, string>;
  /** Replaces the health check; ['NONE'] for none. */
  healthTest?: string[];
}

/** Why Docker cannot be used here, or null when it answers. */
export async function dockerUnavailable(docker: Docker): Promise<string | null> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      docker.ping(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error('no answer in 5 s')), 5_000);
      }),
    ]);
    return null;
  } catch (error) {
    return (error as Error).message;
  } finally {
    clearTimeout(timer);
  }
}

/** The shared libraries `ldd` lists for a binary (absolute paths). */
async function sharedLibraries(binary: string): Promise<string[]> {
  const { stdout } = await promisify(execFile)('ldd', [binary]);
  const paths: string[] = [];
  for (const line of stdout.split('\n')) {
    const match = /(?:=>\s*)?(\/\S+)\s+\(0x/.exec(line);
    if (match?.[1]) paths.push(match[1]);
  }
  return paths;
}

/** Imports `tag`: a rootfs holding only this Node, its libraries and the fake service. */
export async function buildFakeImage(docker: Docker, tag: string): Promise<void> {
  const staging = await mkdtemp(join(tmpdir(), 'radioctl-rootfs-'));
  try {
    const node = await realpath(process.execPath);
    const put = async (from: string, to: string): Promise<void> => {
      const target = join(staging, to);
      await mkdir(dirname(target), { recursive: true });
      // A hard link saves copying 120 MB when /tmp and Node share a filesystem.
      await link(from, target).catch(() => copyFile(from, target));
    };
    await put(node, NODE_IN_IMAGE);
    for (const library of await sharedLibraries(node)) {
      const target = join(staging, library);
      await mkdir(dirname(target), { recursive: true });
      await copyFile(library, target); // follows the symlink: the file itself, at the listed name
    }
    for (const file of [FIXTURE, EXTENSIONS]) await put(join(REPO, file), `/app/${file}`);
    await writeFile(join(staging, 'app/package.json'), '{"type":"module"}\n');
    for (const dir of ['tmp', 'music', 'proc', 'sys', 'dev', 'etc']) {
      await mkdir(join(staging, dir), { recursive: true });
    }
    await writeFile(join(staging, 'etc/passwd'), 'root:x:0:0:root:/:/bin/false\n');
    const tar = spawn('tar', ['--numeric-owner', '-C', staging, '-c', '.'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const tarExit = new Promise<number | null>((resolve) => tar.once('close', resolve));
    const [repo, version] = tag.split(':');
    const progress = await docker.importImage(tar.stdout, { repo, tag: version ?? 'latest' });
    await new Promise<void>((resolve, reject) =>
      docker.modem.followProgress(progress, (error: Error | null) =>
        error ? reject(error) : resolve(),
      ),
    );
    const code = await tarExit;
    if (code !== 0) throw new Error(`tar of the test rootfs exited with ${code}`);
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/** Creates and starts one compose-labelled container; returns its id. */
export async function startService(
  docker: Docker,
  image: string,
  project: string,
  spec: FakeService,
): Promise<string> {
  const exposed: Record<string, object> = {};
  const bindings: Record<string, { HostIp: string; HostPort: string }[]> = {};
  for (const port of spec.publish ?? []) {
    exposed[`${port}/tcp`] = {};
    bindings[`${port}/tcp`] = [{ HostIp: '127.0.0.1', HostPort: '' }];
  }
  const container = await docker.createContainer({
    name: `${project}-${spec.service}-1`,
    Image: image,
    Cmd: [NODE_IN_IMAGE, '--no-warnings', `/app/${FIXTURE}`],
    Env: [
      `FAKE_ROLE=${spec.role}`,
      `FAKE_NAME=${spec.service}`,
      `FAKE_READY_MS=${spec.readyMs ?? 200}`,
      ...Object.entries(spec.env ?? {}).map(([key, value]) => `${key}=${value}`),
    ],
    Labels: {
      'com.docker.compose.project': project,
      'com.docker.compose.service': spec.service,
      'com.docker.compose.container-number': '1',
      'com.docker.compose.oneoff': 'False',
      [TEST_LABEL]: project.replace(/-(sick|done)$/, ''),
    },
    ExposedPorts: exposed,
    Healthcheck: {
      Test: spec.healthTest ?? [
        'CMD',
        NODE_IN_IMAGE,
        '-e',
        "require('node:fs').accessSync('/tmp/ready')",
      ],
      Interval: 1_000_000_000,
      Timeout: 10_000_000_000,
      Retries: 120,
    },
    HostConfig: { PortBindings: bindings, Binds: spec.binds ?? [] },
  });
  await container.start();
  return container.id;
}

/** Waits (bounded) until every container of the project is running and healthy. */
export async function waitHealthy(
  docker: Docker,
  ids: string[],
  timeoutMs = 120_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const states = await Promise.all(ids.map((id) => docker.getContainer(id).inspect()));
    if (states.every((state) => state.State.Health?.Status === 'healthy')) return;
    if (Date.now() > deadline) {
      throw new Error(
        `test containers not healthy in ${timeoutMs} ms: ${states
          .map((state) => `${state.Name} ${state.State.Status}/${state.State.Health?.Status}`)
          .join(', ')}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Removes every container this test run created (by label), then the image. */
export async function removeAll(docker: Docker, runLabel: string, image: string): Promise<void> {
  const containers = await docker.listContainers({
    all: true,
    filters: { label: [`${TEST_LABEL}=${runLabel}`] },
  });
  await Promise.all(
    containers.map((container) =>
      docker
        .getContainer(container.Id)
        .remove({ force: true, v: true })
        .catch(() => undefined),
    ),
  );
  await docker
    .getImage(image)
    .remove({ force: true })
    .catch(() => undefined);
}
