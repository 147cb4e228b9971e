import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { silentLogger } from '@radio/core';
import { generateTrack } from '@radio/core/test-audio';
import { waitFor } from '@radio/core/testing';
import { createStreamServer, type StreamServer } from '@radio/stream';
import { ControlClient } from './helpers/control-client.ts';
import { ADMIN, ffmpegPath, SOURCE_PASSWORD } from './helpers/station.ts';

jest.setTimeout(60_000);

const MAIN = fileURLToPath(new URL('../src/main.ts', import.meta.url));

function run(env: Record<string, string>): {
  child: ChildProcess;
  out: () => string;
  exit: Promise<number | null>;
} {
  const child = spawn(process.execPath, [MAIN], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    text += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    text += chunk.toString();
  });
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, out: () => text, exit };
}

describe('main.ts (the scheduler container)', () => {
  let dir: string;
  let stream: StreamServer;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sched-main-'));
    await generateTrack(
      join(dir, 'music', 'one.flac'),
      { format: 'flac', durationSeconds: 3 },
      { ffmpegPath },
    );
    stream = createStreamServer(
      {
        host: '127.0.0.1',
        port: 0,
        adminUser: ADMIN.user,
        adminPassword: ADMIN.password,
        sourcePassword: SOURCE_PASSWORD,
      },
      { logger: silentLogger() },
    );
    await stream.start();
  });

  afterAll(async () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    await stream?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('starts from the environment, answers on the control port and stops on SIGTERM', async () => {
    const proc = run({
      MUSIC_DIR: join(dir, 'music'),
      DATA_DIR: join(dir, 'data'),
      DATABASE_URL: `sqlite:${join(dir, 'data', 'radio.db')}`,
      STREAM_URL: stream.url,
      SOURCE_PASSWORD,
      ADMIN_PASSWORD: ADMIN.password,
      CONTROL_HOST: '127.0.0.1',
      CONTROL_PORT: '0',
      LIVE_PORT: '0',
      CROSSFADE_SECONDS: '0',
      LOG_LEVEL: 'info',
    });
    children.push(proc.child);
    const port = await waitFor(
      'the control port in the log',
      () => {
        const match = /"port":(\d+),"msg":"control port listening"/.exec(proc.out());
        return match ? Number(match[1]) : undefined;
      },
      20_000,
    );
    const client = await ControlClient.connect(port);
    expect(await client.command('version')).toMatch(/^Radio Scheduler \d+\.\d+\.\d+$/);
    const onAir = await waitFor(
      'on air',
      async () => (await client.command('request.on_air')) || undefined,
    );
    expect(onAir).toMatch(/^\d+ one \d+:\d\d \/ 0:03$/);
    client.close();
    proc.child.kill('SIGTERM');
    expect(await proc.exit).toBe(0);
    expect(proc.out()).toContain('"msg":"scheduler stopped"');
  });

  it('stops at once with one line naming a missing variable', async () => {
    const proc = run({ MUSIC_DIR: join(dir, 'music') });
    children.push(proc.child);
    expect(await proc.exit).toBe(78);
    expect(proc.out()).toMatch(/DATABASE_URL is required/);
    expect(proc.out().trim().split('\n')).toHaveLength(1);
  });
});
