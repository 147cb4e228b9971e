// radioctl against the real Docker engine: a four-service stack of its own (redis, stream,
// scheduler, api stand-ins, labelled like a compose project), every command, every error.
// Skips itself only when no Docker daemon answers.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { locateFfmpeg } from '@radio/core';
import { generateTrack, writeCorruptFile } from '@radio/core/test-audio';
import Docker from 'dockerode';
import { findFfprobe } from '../src/audio.ts';
import { controlCommand } from '../src/control-client.ts';
import { dockerEndpoint } from '../src/docker/index.ts';
import { FIRST_ADMIN_CREATED, WAITING_FOR_ADMIN } from '../src/setup-log.ts';
import {
  buildFakeImage,
  dockerUnavailable,
  type FakeService,
  removeAll,
  startService,
  waitHealthy,
} from './helpers/fake-stack.ts';
import { capture, radioctl } from './helpers/run.ts';

const BIN = fileURLToPath(new URL('../bin/radioctl.ts', import.meta.url));
const docker = new Docker(dockerEndpoint(process.env).options);
const unavailable = await dockerUnavailable(docker);
if (unavailable !== null) {
  console.warn(
    `radioctl Docker tests SKIPPED: the Docker daemon is not reachable at ${dockerEndpoint(process.env).url} (${unavailable}). Start dockerd to run them.`,
  );
}
const describeDocker = unavailable === null ? describe : describe.skip;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** The api's setup lines, as its JSON logger writes them. */
const SETUP_CODE = 'K7Q4-XM2P-93TD';
const apiLog = (msg: string, fields: Record<string, string> = {}): string =>
  JSON.stringify({ level: 'info', time: new Date().toISOString(), service: 'api', ...fields, msg });
const WAITING_LINE = apiLog(WAITING_FOR_ADMIN, { setupCode: SETUP_CODE });

async function eventually<T>(
  what: string,
  attempt: () => Promise<T | null>,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await attempt();
    if (value !== null) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(250);
  }
}

describe('radioctl when Docker is not reachable', () => {
  test('a bogus DOCKER_HOST (tcp) is exit 3 naming the address and the variable', async () => {
    const result = await radioctl(['ps'], {
      env: { DOCKER_HOST: 'tcp://127.0.0.1:1', COMPOSE_PROJECT_NAME: 'anything' },
    });
    expect(result.code).toBe(3);
    expect(result.err).toContain('Docker is not reachable at tcp://127.0.0.1:1 (from DOCKER_HOST)');
    expect(result.err).toContain('connection refused');
    expect(result.out).toBe('');
  });

  test('a socket that does not exist is exit 3, and --json puts the error on stdout', async () => {
    const result = await radioctl(['--json', 'status'], {
      env: { DOCKER_HOST: 'unix:///nonexistent/docker.sock', COMPOSE_PROJECT_NAME: 'anything' },
    });
    expect(result.code).toBe(3);
    expect(result.err).toContain('unix:///nonexistent/docker.sock');
    expect(JSON.parse(result.out)).toEqual({
      error: { code: 'OPS_DOCKER_UNREACHABLE', message: expect.any(String), exitCode: 3 },
    });
  });

  test('a DOCKER_HOST that is not an address is exit 3', async () => {
    const result = await radioctl(['ps'], { env: { DOCKER_HOST: 'tcp://' } });
    expect(result.code).toBe(3);
    expect(result.err).toContain('not an address Docker understands');
  });

  test('the bin runs under Node and exits 3 too', async () => {
    const error = await promisify(execFile)(process.execPath, [BIN, 'ps'], {
      env: { PATH: process.env.PATH, DOCKER_HOST: 'unix:///nonexistent/docker.sock' },
    }).then(
      () => null,
      (failure: { code?: number; stderr?: string }) => failure,
    );
    expect(error?.code).toBe(3);
    expect(error?.stderr).toContain('Docker is not reachable');
  });
});

describeDocker('radioctl against a real Docker engine', () => {
  const run = `radioctl-test-${process.pid}-${randomBytes(3).toString('hex')}`;
  const project = run;
  const image = `${run}:fake`;
  let workDir = '';
  let musicDir = '';
  let ids: string[] = [];
  const env = (): Record<string, string | undefined> => ({
    PATH: process.env.PATH,
    DOCKER_HOST: process.env.DOCKER_HOST,
    COMPOSE_PROJECT_NAME: project,
  });

  /** The scheduler's control port as published now (it changes with each restart). */
  async function controlAddress(): Promise<{ host: string; port: number }> {
    const info = await docker.getContainer(`${project}-scheduler-1`).inspect();
    const binding = info.NetworkSettings.Ports['1234/tcp']?.[0];
    return { host: '127.0.0.1', port: Number(binding?.HostPort) };
  }

  beforeAll(async () => {
    workDir = await mkdtemp(join(tmpdir(), 'radioctl-test-'));
    musicDir = join(workDir, 'music');
    await mkdir(musicDir);
    await buildFakeImage(docker, image);
    const services: FakeService[] = [
      { service: 'redis', role: 'plain' },
      { service: 'stream', role: 'stream', publish: [8000] },
      {
        service: 'scheduler',
        role: 'scheduler',
        publish: [1234],
        binds: [`${musicDir}:/music`],
        env: { MUSIC_DIR: '/music' },
      },
      // Slower to be ready, so restart has something to wait for. No admin yet: it logs the
      // setup code at each start.
      {
        service: 'api',
        role: 'plain',
        readyMs: 1500,
        env: { FAKE_STDOUT: WAITING_LINE, PUBLIC_URL: 'https://radio.example' },
      },
    ];
    ids = await Promise.all(
      services.map((service) => startService(docker, image, project, service)),
    );
    await waitHealthy(docker, ids);
  }, 300_000);

  afterAll(async () => {
    await removeAll(docker, run, image);
    if (workDir) await rm(workDir, { recursive: true, force: true });
  }, 120_000);

  describe('ps', () => {
    test('lists the services in start order with state, health, uptime and ports', async () => {
      const result = await radioctl(['ps'], { env: env() });
      expect(result.code).toBe(0);
      const lines = result.out.trimEnd().split('\n');
      expect(lines[0]).toMatch(/^SERVICE\s+CONTAINER\s+STATE\s+HEALTH\s+UPTIME\s+PORTS$/);
      expect(lines.slice(1).map((line) => line.split(/\s+/)[0])).toEqual([
        'redis',
        'stream',
        'scheduler',
        'api',
      ]);
      for (const line of lines.slice(1)) expect(line).toMatch(/\srunning\s+healthy\s+\d+[smhd]/);
      expect(lines[3]).toMatch(/127\.0\.0\.1:\d+->1234\/tcp$/);
      expect(result.out).not.toContain('\u001b[');
    });

    test('--json gives every container with its ports', async () => {
      const result = await radioctl(['ps', '--json'], { env: env() });
      expect(result.code).toBe(0);
      const parsed = JSON.parse(result.out) as {
        project: string;
        containers: {
          service: string;
          container: string;
          state: string;
          health: string;
          uptimeSeconds: number;
          ports: { containerPort: number; hostIp: string; hostPort: number }[];
        }[];
      };
      expect(parsed.project).toBe(project);
      expect(parsed.containers.map((c) => c.service)).toEqual([
        'redis',
        'stream',
        'scheduler',
        'api',
      ]);
      for (const container of parsed.containers) {
        expect(container).toMatchObject({ state: 'running', health: 'healthy' });
        expect(container.container).toBe(`${project}-${container.service}-1`);
        expect(container.uptimeSeconds).toBeGreaterThanOrEqual(0);
      }
      const scheduler = parsed.containers[2];
      expect(scheduler?.ports).toEqual([
        { containerPort: 1234, hostIp: '127.0.0.1', hostPort: expect.any(Number), protocol: 'tcp' },
      ]);
    });

    test('colours state and health on a terminal', async () => {
      const result = await radioctl(['ps'], { env: env(), tty: true });
      expect(result.code).toBe(0);
      expect(result.out).toContain('\u001b[32mhealthy\u001b[39m');
    });

    test('finds the project from the compose folder name, searching upwards, like compose', async () => {
      const folder = join(workDir, project.toUpperCase());
      await mkdir(join(folder, 'deep', 'er'), { recursive: true });
      await writeFile(join(folder, 'docker-compose.yml'), 'services: {}\n');
      const result = await radioctl(['ps', '--json'], {
        env: { PATH: process.env.PATH, DOCKER_HOST: process.env.DOCKER_HOST },
        cwd: join(folder, 'deep', 'er'),
      });
      expect(result.code).toBe(0);
      expect(JSON.parse(result.out).project).toBe(project);
    });

    test('the bin prints the same through a real process', async () => {
      const { stdout } = await promisify(execFile)(process.execPath, [BIN, '--json', 'ps'], {
        env: env() as NodeJS.ProcessEnv,
      });
      expect(JSON.parse(stdout).containers).toHaveLength(4);
    });
  });

  describe('logs', () => {
    test('keeps stdout and stderr apart', async () => {
      const result = await radioctl(['logs', 'scheduler'], { env: env() });
      expect(result.code).toBe(0);
      const out = result.out.split('\n');
      const err = result.err.split('\n');
      expect(out).toEqual(
        expect.arrayContaining(['scheduler out 1', 'scheduler out 2', 'scheduler out 3']),
      );
      expect(out).not.toContain('scheduler err 1');
      expect(err).toEqual(expect.arrayContaining(['scheduler err 1', 'scheduler err 2']));
      expect(err).not.toContain('scheduler out 1');
    });

    test('--tail N gives the last N lines of both streams', async () => {
      const result = await radioctl(['logs', 'redis', '--tail', '2'], { env: env() });
      expect(result.code).toBe(0);
      expect(result.out).toBe('redis out 3\n');
      expect(result.err).toBe('redis err 2\n');
    });

    test('stderr is red on a terminal, stdout is not', async () => {
      const result = await radioctl(['logs', 'redis', '-n', '2'], { env: env(), tty: true });
      expect(result.out).toBe('redis out 3\n');
      expect(result.err).toBe('\u001b[31mredis err 2\u001b[39m\n');
    });

    test('--since keeps only what came after', async () => {
      const since = (Date.now() / 1000).toFixed(3);
      const marker = `after-${randomBytes(4).toString('hex')}`;
      const address = await controlAddress();
      await controlCommand(address, `say ${marker} on stdout`);
      await controlCommand(address, `warn ${marker} on stderr`);
      const result = await eventually('the new lines', async () => {
        const attempt = await radioctl(['logs', 'scheduler', '--since', since], { env: env() });
        return attempt.out.includes(marker) && attempt.err.includes(marker) ? attempt : null;
      });
      expect(result.code).toBe(0);
      expect(result.out).toBe(`${marker} on stdout\n`);
      expect(result.err).toBe(`${marker} on stderr\n`);
      // A relative --since reaches back to the first lines.
      const wide = await radioctl(['logs', 'scheduler', '--since', '1h'], { env: env() });
      expect(wide.out).toContain('scheduler out 1');
    });

    test('--json gives one object per line, with the time when asked', async () => {
      const result = await radioctl(['logs', 'redis', '--tail', '2', '--timestamps', '--json'], {
        env: env(),
      });
      expect(result.code).toBe(0);
      const records = result.out
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as Record<string, string>);
      expect(records).toEqual([
        {
          service: 'redis',
          container: `${project}-redis-1`,
          stream: 'stdout',
          time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
          line: 'redis out 3',
        },
        {
          service: 'redis',
          container: `${project}-redis-1`,
          stream: 'stderr',
          time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
          line: 'redis err 2',
        },
      ]);
    });

    test('--follow streams new lines until interrupted', async () => {
      const controller = new AbortController();
      const stdout = capture();
      const following = radioctl(['logs', 'scheduler', '--follow', '--tail', '0'], {
        env: env(),
        signal: controller.signal,
        stdout,
      });
      const marker = `followed-${randomBytes(4).toString('hex')}`;
      const address = await controlAddress();
      // The follow may attach after a first line: say it until it shows.
      await eventually('a followed line', async () => {
        await controlCommand(address, `say ${marker}`);
        await sleep(200);
        return stdout.text.includes(marker) ? true : null;
      });
      controller.abort();
      const result = await following;
      expect(result.code).toBe(0);
      expect(stdout.text).not.toContain('scheduler out 1');
    }, 60_000);
  });

  describe('status', () => {
    test('shows containers, now playing, queue and listeners per mount', async () => {
      const result = await radioctl(['status'], { env: env() });
      expect(result.code).toBe(0);
      expect(result.out).toContain(`Project ${project}: 4 containers, 4 running, 4 healthy`);
      expect(result.out).toContain('Now playing: Station - Jingle (0:05 / 0:30, request 0)');
      expect(result.out).toContain('Playout: playing, on air: track');
      expect(result.out).toContain('Dead-air skips: 1');
      expect(result.out).toMatch(
        /Live: DJ Ana \(id 2\) since .* bytes in 960000, title none \(recording\)/,
      );
      expect(result.out).toMatch(/Queue: \d+ tracks?/);
      expect(result.out).toContain('Listeners: 4 on 3 mounts');
      expect(result.out).toMatch(/\/radio\.mp3\s+3\s+5\s+128\s+Station - Jingle/);
      expect(result.out).toMatch(/\/radio-low\.mp3\s+0\s+2\s+64/);
    });

    test('while the api waits for the first admin: its setup code and where to enter it', async () => {
      const result = await radioctl(['status'], { env: env() });
      expect(result.code).toBe(0);
      expect(result.out).toContain(`Setup: no admin yet; setup code ${SETUP_CODE}\n`);
      expect(result.out).toContain('  open https://radio.example/ and enter the code');
      const json = JSON.parse((await radioctl(['status', '--json'], { env: env() })).out);
      expect(json.setup).toEqual({ code: SETUP_CODE, webUrl: 'https://radio.example/' });
      expect(json.errors.api).toBeNull();
    });

    test('no setup line once the first admin is created', async () => {
      const done = `${run}-done`;
      const id = await startService(docker, image, done, {
        service: 'api',
        role: 'plain',
        env: { FAKE_STDOUT: `${WAITING_LINE}\n${apiLog(FIRST_ADMIN_CREATED)}` },
      });
      await waitHealthy(docker, [id]);
      const result = await radioctl(['status', '-p', done], { env: env() });
      expect(result.code).toBe(0);
      expect(result.out).toContain(`Project ${done}: 1 containers`);
      expect(result.out).not.toContain('Setup');
      expect(result.out).not.toContain(SETUP_CODE);
      const json = JSON.parse(
        (await radioctl(['status', '-p', done, '--json'], { env: env() })).out,
      );
      expect(json.setup).toBeNull();
    }, 60_000);

    test('--json for scripts', async () => {
      const result = await radioctl(['status', '--json'], { env: env() });
      expect(result.code).toBe(0);
      const parsed = JSON.parse(result.out);
      expect(parsed).toMatchObject({
        project,
        nowPlaying: {
          requestId: '0',
          title: 'Station - Jingle',
          position: '0:05',
          duration: '0:30',
        },
        listeners: 4,
        queueLength: expect.any(Number),
        playout: { state: 'playing', onAir: 'track', fallback: null, deadAirSkips: 1 },
        live: {
          onAir: expect.stringMatching(/^DJ Ana/),
          waiting: [],
          silent: false,
          recording: true,
        },
        errors: { stream: null, scheduler: null },
      });
      expect(parsed.containers).toHaveLength(4);
      expect(
        (parsed.mounts as { mount: string; listeners: number }[]).map((m) => [
          m.mount,
          m.listeners,
        ]),
      ).toEqual(
        expect.arrayContaining([
          ['/radio.mp3', 3],
          ['/radio.aac', 1],
          ['/radio-low.mp3', 0],
        ]),
      );
    });
  });

  describe('add', () => {
    let inbox = '';
    let ffmpegPath = '';
    beforeAll(async () => {
      inbox = join(workDir, 'inbox');
      await mkdir(inbox);
      ffmpegPath = locateFfmpeg().path;
    });

    test('copies a FLAC into the bind-mounted folder and waits until it is queued', async () => {
      const file = await generateTrack(
        join(inbox, 'Song One.flac'),
        { format: 'flac', durationSeconds: 1, tags: { title: 'Song One', artist: 'Tester' } },
        { ffmpegPath },
      );
      const result = await radioctl(['add', file, '--json'], { env: env() });
      expect(result.code).toBe(0);
      // With --json, progress goes to stderr so stdout is one JSON document.
      expect(result.err).toContain('Song One.flac indexed: request');
      const parsed = JSON.parse(result.out);
      expect(parsed.folder).toEqual({ kind: 'bind', host: musicDir, container: '/music' });
      expect(parsed.files).toEqual([
        expect.objectContaining({
          name: 'Song One.flac',
          format: 'flac',
          destination: join(musicDir, 'Song One.flac'),
          copied: true,
          indexed: true,
          requestId: expect.any(String),
          title: 'Fake Artist - Song One',
        }),
      ]);
      expect((await stat(join(musicDir, 'Song One.flac'))).size).toBe((await stat(file)).size);
      // No temporary file is left behind.
      expect(await readdir(musicDir)).toEqual(['Song One.flac']);
    }, 60_000);

    test('reports progress for people, relative paths from the current folder', async () => {
      await generateTrack(
        join(inbox, 'second.mp3'),
        { format: 'mp3', durationSeconds: 1 },
        { ffmpegPath },
      );
      const result = await radioctl(['add', 'second.mp3'], { env: env(), cwd: inbox });
      expect(result.code).toBe(0);
      expect(result.out).toContain('checked 1 file: second.mp3 (mp3,');
      expect(result.out).toContain(
        `copying into ${musicDir} (mounted at ${project}-scheduler-1:/music)`,
      );
      expect(result.out).toMatch(/second\.mp3 indexed: request \d+, Fake Artist - second/);
      expect(result.out).toContain('added 1 file, 1 indexed by scheduler');
    }, 60_000);

    test('the same file again is left as it is; another one of that name needs --force', async () => {
      const again = await radioctl(['add', join(inbox, 'Song One.flac')], { env: env() });
      expect(again.code).toBe(0);
      expect(again.out).toContain('Song One.flac is already there, unchanged');

      const other = join(workDir, 'other', 'Song One.flac');
      await generateTrack(
        other,
        { format: 'flac', durationSeconds: 2, frequency: 660 },
        { ffmpegPath },
      );
      const refused = await radioctl(['add', other], { env: env() });
      expect(refused.code).toBe(6);
      expect(refused.err).toContain('exists with other content');
      const forced = await radioctl(['add', other, '--force', '--no-wait'], { env: env() });
      expect(forced.code).toBe(0);
      expect((await stat(join(musicDir, 'Song One.flac'))).size).toBe((await stat(other)).size);
    }, 60_000);

    test('refuses what is not audio, and copies nothing when one file is refused', async () => {
      const before = await readdir(musicDir);
      const text = join(inbox, 'notes.mp3');
      await writeFile(text, 'these are not the sounds you are looking for\n');
      const image = join(inbox, 'cover.jpg');
      await writeFile(image, Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46]));
      const good = await generateTrack(
        join(inbox, 'good.flac'),
        { format: 'flac', durationSeconds: 1 },
        { ffmpegPath },
      );

      const notAudio = await radioctl(['add', good, text], { env: env() });
      expect(notAudio.code).toBe(6);
      expect(notAudio.err).toContain('notes.mp3: not audio');
      const wrongKind = await radioctl(['add', image], { env: env() });
      expect(wrongKind.code).toBe(6);
      expect(wrongKind.err).toContain('not an audio file the library plays');
      const missing = await radioctl(['add', join(inbox, 'missing.flac')], { env: env() });
      expect(missing.code).toBe(6);
      expect(missing.err).toContain('no such file');
      if (findFfprobe(process.env.PATH) !== null) {
        const corrupt = await writeCorruptFile(join(inbox, 'corrupt.mp3'));
        const refused = await radioctl(['add', corrupt, '--json'], { env: env() });
        expect(refused.code).toBe(6);
        expect(JSON.parse(refused.out).error.code).toBe('OPS_NOT_AUDIO');
      }
      expect(await readdir(musicDir)).toEqual(before);
    }, 60_000);

    test('writes through the Docker API where the folder is not a bind mount', async () => {
      const wav = await generateTrack(
        join(inbox, 'api.wav'),
        { format: 'wav', durationSeconds: 1 },
        { ffmpegPath },
      );
      const result = await radioctl(['add', wav, '--service', 'redis', '--no-wait'], {
        env: env(),
      });
      expect(result.code).toBe(0);
      expect(result.err).toContain('is not on a volume');
      expect(result.out).toContain(`copying into ${project}-redis-1:/music`);
      const info = (await docker
        .getContainer(`${project}-redis-1`)
        .infoArchive({ path: '/music/api.wav' })) as unknown as {
        headers: Record<string, string>;
        destroy(): void;
      };
      info.destroy(); // a HEAD response: only its headers matter, and its socket must close
      const statHeader = JSON.parse(
        Buffer.from(info.headers['x-docker-container-path-stat'] ?? '', 'base64').toString('utf8'),
      ) as { size: number };
      expect(statHeader.size).toBe((await stat(wav)).size);
      expect(existsSync(join(musicDir, 'api.wav'))).toBe(false);
    }, 60_000);
  });

  describe('errors', () => {
    test('no containers with the project label: exit 4 naming the project', async () => {
      const none = `radioctl-test-none-${randomBytes(3).toString('hex')}`;
      const result = await radioctl(['ps', '--project', none], { env: env() });
      expect(result.code).toBe(4);
      expect(result.err).toContain(`no containers of compose project "${none}" (from --project)`);
      expect(result.err).toContain(`com.docker.compose.project=${none}`);
    });

    test('an unknown service: exit 5 listing the known ones, for every command taking one', async () => {
      const known = 'known services: redis, stream, scheduler, api';
      const logs = await radioctl(['logs', 'nosuch'], { env: env() });
      expect(logs.code).toBe(5);
      expect(logs.err).toContain(`unknown service "nosuch" in project "${project}"; ${known}`);
      const restart = await radioctl(['restart', 'api', 'nosuch'], { env: env() });
      expect(restart.code).toBe(5);
      expect(restart.err).toContain(known);
      expect(restart.out).not.toContain('restarting');
      const wav = await generateTrack(
        join(workDir, 'x.wav'),
        { format: 'wav', durationSeconds: 1 },
        { ffmpegPath: locateFfmpeg().path },
      );
      const add = await radioctl(['add', wav, '--service', 'nosuch', '--json'], { env: env() });
      expect(add.code).toBe(5);
      expect(JSON.parse(add.out).error).toMatchObject({ code: 'OPS_UNKNOWN_SERVICE', exitCode: 5 });
    });
  });

  describe('restart', () => {
    test('one service: restarted and healthy again before it returns', async () => {
      const before = await docker.getContainer(`${project}-api-1`).inspect();
      const result = await radioctl(['restart', 'api'], { env: env() });
      expect(result.code).toBe(0);
      expect(result.out).toContain(`[1/1] restarting api (${project}-api-1)`);
      expect(result.out).toMatch(/api healthy in \d+\.\ds/);
      const after = await docker.getContainer(`${project}-api-1`).inspect();
      expect(after.State.StartedAt).not.toBe(before.State.StartedAt);
      expect(after.State.Health?.Status).toBe('healthy');
    }, 120_000);

    test('all of them in dependency order, each healthy before the next, --json', async () => {
      const result = await radioctl(['restart', '--json'], { env: env() });
      expect(result.code).toBe(0);
      // Progress goes to stderr with --json, the result to stdout.
      const order = [...result.err.matchAll(/restarting (\w+)/g)].map((match) => match[1]);
      expect(order).toEqual(['redis', 'stream', 'scheduler', 'api']);
      const parsed = JSON.parse(result.out) as {
        restarted: { service: string; state: string; health: string; seconds: number }[];
      };
      expect(parsed.restarted.map((entry) => [entry.service, entry.state, entry.health])).toEqual([
        ['redis', 'running', 'healthy'],
        ['stream', 'running', 'healthy'],
        ['scheduler', 'running', 'healthy'],
        ['api', 'running', 'healthy'],
      ]);
      // Still serving after the restart (on a new published port).
      const status = await radioctl(['status', '--json'], { env: env() });
      expect(JSON.parse(status.out)).toMatchObject({
        listeners: 4,
        errors: { stream: null, scheduler: null },
      });
    }, 240_000);

    test('a service that never gets healthy fails at the timeout with exit 1', async () => {
      const sick = `${run}-sick`;
      await startService(docker, image, sick, {
        service: 'api',
        role: 'plain',
        healthTest: ['CMD', '/usr/local/bin/node', '-e', 'process.exit(1)'],
      });
      // Restarted before Node has set its SIGTERM handler, it would wait Docker's 10 s for it.
      await eventually('the sick service to start', async () => {
        const logs = await radioctl(['logs', 'api', '-p', sick], { env: env() });
        return logs.out.includes('api out 1') ? true : null;
      });
      const result = await radioctl(['restart', '--timeout', '2', '-p', sick], { env: env() });
      expect(result.code).toBe(1);
      expect(result.err).toMatch(new RegExp(`${sick}-api-1 is (starting|unhealthy) after 2s`));
    }, 120_000);
  });
});
