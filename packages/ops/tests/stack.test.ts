import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { musicTarget } from '../src/commands/add-music.ts';
import { type ContainerInfo, dockerEndpoint } from '../src/docker/index.ts';
import { OpsError } from '../src/errors.ts';
import {
  dependencyOrder,
  normaliseProjectName,
  reachableAddress,
  resolveProject,
  Stack,
  servicePort,
} from '../src/stack.ts';

function container(overrides: Partial<ContainerInfo>): ContainerInfo {
  return {
    id: 'f'.repeat(64),
    name: 'radio-x-1',
    project: 'radio',
    service: 'x',
    number: 1,
    image: 'x',
    state: 'running',
    health: null,
    lastHealthOutput: null,
    startedAt: null,
    finishedAt: null,
    exitCode: null,
    restartCount: 0,
    ports: [],
    mounts: [],
    env: {},
    tty: false,
    networks: [],
    dependsOn: [],
    ...overrides,
  };
}

describe('project name', () => {
  let root = '';
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'radioctl-project-'));
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  test('normalised like compose: lower case, only a-z 0-9 _ -', () => {
    expect(normaliseProjectName('My Radio.Station')).toBe('myradiostation');
    expect(normaliseProjectName('_radio-2')).toBe('radio-2');
    expect(normaliseProjectName('Radio_Main')).toBe('radio_main');
  });

  test('--project, then COMPOSE_PROJECT_NAME, then .env, then the compose folder', async () => {
    const stack = join(root, 'Station One');
    const deep = join(stack, 'services', 'api');
    await mkdir(deep, { recursive: true });
    await writeFile(join(stack, 'docker-compose.yml'), 'services: {}\n');

    expect(resolveProject({ flag: undefined, env: {}, cwd: deep })).toEqual({
      name: 'stationone',
      from: 'folder',
      folder: stack,
    });
    await writeFile(join(stack, '.env'), '# comment\nCOMPOSE_PROJECT_NAME="OnAir"\n');
    expect(resolveProject({ flag: undefined, env: {}, cwd: deep })).toMatchObject({
      name: 'onair',
      from: '.env',
    });
    expect(
      resolveProject({ flag: undefined, env: { COMPOSE_PROJECT_NAME: 'Env' }, cwd: deep }),
    ).toMatchObject({ name: 'env', from: 'COMPOSE_PROJECT_NAME' });
    expect(
      resolveProject({ flag: 'Flag', env: { COMPOSE_PROJECT_NAME: 'Env' }, cwd: deep }),
    ).toMatchObject({ name: 'flag', from: '--project' });
  });

  test('without a compose file: the current folder', async () => {
    const plain = join(root, 'Just A Folder');
    await mkdir(plain);
    expect(resolveProject({ flag: undefined, env: {}, cwd: plain })).toMatchObject({
      name: 'justafolder',
      from: 'folder',
    });
  });

  test('a name with nothing usable left is refused', () => {
    expect(() => resolveProject({ flag: '...', env: {}, cwd: root })).toThrow(OpsError);
  });
});

describe('dependency order', () => {
  test('the fixed order stands in when compose recorded no depends_on', () => {
    expect(
      dependencyOrder(
        ['web', 'api', 'zeta', 'scheduler', 'stream', 'postgres', 'redis', 'alpha'],
        new Map(),
      ),
    ).toEqual(['redis', 'postgres', 'stream', 'scheduler', 'api', 'web', 'alpha', 'zeta']);
  });

  test('depends_on labels win over the fixed order', () => {
    const deps = new Map<string, string[]>([
      ['web', []],
      ['api', ['web']],
      ['stream', ['api']],
    ]);
    expect(dependencyOrder(['stream', 'api', 'web'], deps)).toEqual(['web', 'api', 'stream']);
  });

  test('a cycle does not hang', () => {
    const deps = new Map<string, string[]>([
      ['a', ['b']],
      ['b', ['a']],
    ]);
    expect(dependencyOrder(['b', 'a'], deps)).toEqual(['a', 'b']);
  });

  test('Stack sorts containers and names the known services on an unknown one', () => {
    const stack = new Stack({ name: 'radio', from: 'folder', folder: undefined }, [
      container({ service: 'api', name: 'radio-api-2', number: 2 }),
      container({ service: 'api', name: 'radio-api-1', number: 1 }),
      container({ service: 'redis', name: 'radio-redis-1' }),
      container({ service: 'scheduler', name: 'radio-scheduler-1', dependsOn: ['redis'] }),
    ]);
    expect(stack.containers.map((c) => c.name)).toEqual([
      'radio-redis-1',
      'radio-scheduler-1',
      'radio-api-1',
      'radio-api-2',
    ]);
    expect(stack.ordered(['api', 'redis'])).toEqual(['redis', 'api']);
    let error: unknown;
    try {
      stack.containersOf('nosuch');
    } catch (caught) {
      error = caught;
    }
    expect(error).toMatchObject({
      code: 'OPS_UNKNOWN_SERVICE',
      exitCode: 5,
      message: 'unknown service "nosuch" in project "radio"; known services: redis, scheduler, api',
    });
  });
});

describe('reaching a container', () => {
  test('a published port, on the engine host when published everywhere', () => {
    const c = container({
      ports: [
        { containerPort: 8000, protocol: 'tcp', hostIp: '0.0.0.0', hostPort: 18000 },
        { containerPort: 1234, protocol: 'tcp', hostIp: '127.0.0.1', hostPort: 11234 },
      ],
    });
    expect(reachableAddress(c, 8000, '127.0.0.1')).toEqual({
      host: '127.0.0.1',
      port: 18000,
      via: 'published',
    });
    expect(reachableAddress(c, 8000, 'docker.example')).toMatchObject({ host: 'docker.example' });
    expect(reachableAddress(c, 1234, '127.0.0.1')).toEqual({
      host: '127.0.0.1',
      port: 11234,
      via: 'published',
    });
  });

  test("else the container's address, for a local engine only", () => {
    const c = container({ networks: [{ name: 'radio_default', ip: '172.18.0.5' }] });
    expect(reachableAddress(c, 1234, '127.0.0.1')).toEqual({
      host: '172.18.0.5',
      port: 1234,
      via: 'container network',
    });
    expect(reachableAddress(c, 1234, 'remote')).toBeNull();
    expect(reachableAddress({ ...c, state: 'exited' }, 1234, '127.0.0.1')).toBeNull();
  });

  test('the port a service listens on comes from its environment', () => {
    expect(servicePort(container({ env: { CONTROL_PORT: '2345' } }), 'CONTROL_PORT', 1234)).toBe(
      2345,
    );
    expect(servicePort(container({ env: { CONTROL_PORT: 'x' } }), 'CONTROL_PORT', 1234)).toBe(1234);
  });
});

describe('music folder', () => {
  let host = '';
  beforeAll(async () => {
    host = await mkdtemp(join(tmpdir(), 'radioctl-music-'));
    await mkdir(join(host, 'library'));
  });
  afterAll(async () => {
    await rm(host, { recursive: true, force: true });
  });

  test('the host side of a bind mount of MUSIC_DIR or of a folder above it', () => {
    const exact = container({
      env: { MUSIC_DIR: '/music' },
      mounts: [
        { type: 'bind', source: host, destination: '/music', readOnly: true, name: undefined },
      ],
    });
    expect(musicTarget(exact, true)).toEqual({
      kind: 'bind',
      hostDir: host,
      containerDir: '/music',
      readOnly: true,
    });
    const above = container({
      env: { MUSIC_DIR: '/srv/library/' },
      mounts: [
        { type: 'bind', source: host, destination: '/srv', readOnly: false, name: undefined },
      ],
    });
    expect(musicTarget(above, true)).toMatchObject({
      kind: 'bind',
      hostDir: join(host, 'library'),
    });
  });

  test('a volume, a remote engine or no mount: through the container', () => {
    const volume = container({
      mounts: [
        {
          type: 'volume',
          source: '/var/lib/docker/volumes/m/_data',
          destination: '/music',
          readOnly: false,
          name: 'radio_music',
        },
      ],
    });
    expect(musicTarget(volume, true)).toEqual({
      kind: 'container',
      containerDir: '/music',
      volume: 'radio_music',
      readOnly: false,
    });
    const bind = container({
      mounts: [
        { type: 'bind', source: host, destination: '/music', readOnly: false, name: undefined },
      ],
    });
    expect(musicTarget(bind, false)).toMatchObject({ kind: 'container' });
    expect(musicTarget(container({}), true)).toEqual({
      kind: 'container',
      containerDir: '/music',
      volume: undefined,
      readOnly: false,
    });
  });
});

describe('DOCKER_HOST', () => {
  test('unset: the local socket', () => {
    expect(dockerEndpoint({})).toMatchObject({
      url: 'unix:///var/run/docker.sock',
      fromEnv: false,
      publishedHost: '127.0.0.1',
      options: { socketPath: '/var/run/docker.sock', host: undefined },
    });
  });

  test('unix, tcp, tls and ssh forms', () => {
    expect(
      dockerEndpoint({ DOCKER_HOST: 'unix:///run/user/1000/docker.sock' }).options,
    ).toMatchObject({
      socketPath: '/run/user/1000/docker.sock',
    });
    expect(dockerEndpoint({ DOCKER_HOST: 'tcp://10.1.2.3:2375' })).toMatchObject({
      publishedHost: '10.1.2.3',
      options: { protocol: 'http', host: '10.1.2.3', port: '2375', socketPath: undefined },
    });
    expect(dockerEndpoint({ DOCKER_HOST: 'tcp://docker:2376' }).options.protocol).toBe('https');
    expect(dockerEndpoint({ DOCKER_HOST: 'ssh://ops@box' }).options).toMatchObject({
      protocol: 'ssh',
      host: 'box',
      username: 'ops',
    });
  });

  test('nonsense is an OPS_DOCKER_UNREACHABLE (exit 3)', () => {
    expect(() => dockerEndpoint({ DOCKER_HOST: 'ftp://x' })).toThrow(
      expect.objectContaining({ code: 'OPS_DOCKER_UNREACHABLE', exitCode: 3 }),
    );
  });
});
