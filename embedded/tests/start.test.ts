import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { waitFor } from '@radio/core/testing';

const root = resolve(import.meta.dirname, '../..');

interface Run {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function startEmbedded(dir: string): Run {
  let output = '';
  const child = spawn(process.execPath, ['embedded/main.ts'], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATA_DIR: join(dir, 'data'),
      MUSIC_DIR: join(dir, 'music'),
      STREAM_PORT: '0',
      CONTROL_PORT: '0',
      LIVE_PORT: '0',
      API_PORT: '0',
      WEB_PORT: '0',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  return { child, output: () => output, exited };
}

describe('pnpm start (embedded mode)', () => {
  let dir: string;
  let run: Run | undefined;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'radio-embedded-'));
  });
  afterAll(async () => {
    if (run && run.child.exitCode === null) {
      run.child.kill('SIGKILL');
      await run.exited;
    }
    await rm(dir, { recursive: true, force: true });
  });

  it('starts on a fresh folder, prints its URLs, and stops cleanly on SIGINT', async () => {
    run = startEmbedded(dir);
    await waitFor(
      'the banner',
      () =>
        run?.output().includes('Press Ctrl-C to stop.') === true || run?.child.exitCode !== null,
      120_000,
    );
    const banner = run.output();
    expect(banner).toContain('The station is on air.');
    expect(banner).toMatch(/Stream admin login: admin \/ \S+/);
    // Nobody is admin yet: the first admin needs the printed one-time code, not a race.
    expect(banner).toMatch(/setup code [A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}/);

    // A fresh music folder got demo tracks; the database and the generated secrets exist.
    expect((await readdir(join(dir, 'music'))).length).toBeGreaterThan(0);
    const secrets = JSON.parse(await readFile(join(dir, 'data', 'secrets.json'), 'utf8')) as Record<
      string,
      string
    >;
    expect(Object.keys(secrets).sort()).toEqual([
      'ADMIN_PASSWORD',
      'SESSION_SECRET',
      'SOURCE_PASSWORD',
    ]);
    expect(await readdir(join(dir, 'data'))).toContain('radio.db');

    run.child.kill('SIGINT');
    expect(await run.exited).toBe(0);
    expect(run.output()).toContain('Stopped.');
  });

  it('keeps its secrets across restarts and prints the admin password only once', async () => {
    run = startEmbedded(dir);
    await waitFor(
      'the banner',
      () => run?.output().includes('Press Ctrl-C to stop.') === true,
      120_000,
    );
    expect(run.output()).not.toContain('Stream admin login');
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
  });

  it('refuses a malformed variable with one line naming it', async () => {
    const child = spawn(process.execPath, ['embedded/main.ts'], {
      cwd: root,
      env: { PATH: process.env.PATH, DATA_DIR: join(dir, 'data'), STREAM_PORT: 'eighty' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const code = await new Promise<number | null>((done) => child.once('exit', done));
    expect(code).toBe(78);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(/STREAM_PORT must be a TCP port/);
  });
});
