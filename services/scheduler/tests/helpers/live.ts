import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { hashPassword, runFfmpeg, silentLogger } from '@radio/core';
import type { DbHandle } from '@radio/db';
import { ffmpegPath, TestStation } from './station.ts';

/** The AutoDJ's tone, DJ A's and DJ B's. */
export const AUTO_HZ = 500;
export const A_HZ = 1000;
export const B_HZ = 1500;
const WINDOW = 0.05;

export interface TestDj {
  id: number;
  username: string;
  password: string;
  name: string;
}

/** A user with the dj role and broadcast credentials (a cheap scrypt cost: tests are many). */
export async function createDj(
  db: DbHandle,
  username: string,
  options: { enabled?: boolean; recordShows?: boolean; name?: string } = {},
): Promise<TestDj> {
  const password = `${username}-secret`;
  const hash = await hashPassword(password, 4);
  const user = await db.db
    .insertInto('users')
    .values({ username, password_hash: hash, role: 'dj' })
    .returning('id')
    .executeTakeFirstOrThrow();
  const name = options.name ?? `DJ ${username}`;
  await db.db
    .insertInto('dj_accounts')
    .values({
      user_id: user.id,
      broadcast_username: username,
      password_hash: hash,
      display_name: name,
      enabled: options.enabled === false ? 0 : 1,
      record_shows: options.recordShows ? 1 : 0,
    })
    .execute();
  return { id: user.id, username, password, name };
}

/** A station whose AutoDJ plays one long AUTO_HZ tone, with the live input on a free port. */
export async function startLiveStation(
  dir: string,
  live: { silenceSeconds?: number; idleTimeoutMs?: number; headerTimeoutMs?: number } = {},
): Promise<TestStation> {
  const music = join(dir, 'music');
  await mkdir(music, { recursive: true });
  await runFfmpeg(
    [
      '-loglevel',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      `sine=f=${AUTO_HZ}:d=60`,
      '-ac',
      '2',
      join(music, 'auto.flac'),
    ],
    { ffmpegPath, logger: silentLogger(), name: 'test track' },
  );
  return TestStation.start({
    crossfadeSeconds: 0,
    reuse: { dir, fixtures: { dir: music, valid: [], corrupt: '', empty: '' } },
    scheduler: {
      dataDir: dir,
      live: {
        port: 0,
        fadeSeconds: 0.3,
        silenceSeconds: live.silenceSeconds ?? 3,
        idleTimeoutMs: live.idleTimeoutMs ?? 3000,
        headerTimeoutMs: live.headerTimeoutMs ?? 2000,
        loginLimit: { maxFailures: 5, windowMs: 60_000 },
      },
    },
  });
}

/** ffmpeg sending a tone to the live input like a DJ's encoder would (`args`: codec and format). */
export function ffmpegSource(
  port: number,
  dj: TestDj,
  hz: number,
  seconds: number,
  args: string[] = [
    '-c:a',
    'libmp3lame',
    '-b:a',
    '128k',
    '-f',
    'mp3',
    '-content_type',
    'audio/mpeg',
  ],
): ChildProcess {
  const url = `icecast://${dj.username}:${dj.password}@127.0.0.1:${port}/live`;
  return spawn(
    ffmpegPath,
    [
      '-hide_banner',
      '-loglevel',
      'error',
      '-re',
      '-f',
      'lavfi',
      '-i',
      `sine=f=${hz}:d=${seconds}`,
      '-ac',
      '2',
      ...args,
      url,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
}

export function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

/** The level of one frequency in a window of the left channel (Goertzel), linear. */
function toneLevel(pcm: Int16Array, start: number, size: number, hz: number): number {
  const k = 2 * Math.cos((2 * Math.PI * hz) / 44_100);
  let s1 = 0;
  let s2 = 0;
  for (let i = start; i < start + size; i++) {
    const s0 = (pcm[2 * i] as number) / 32_768 + k * s1 - s2;
    s2 = s1;
    s1 = s0;
  }
  return Math.sqrt(s1 * s1 + s2 * s2 - k * s1 * s2) / (size / 2);
}

/** Which tone each 50 ms holds: 'o' AutoDJ, 'A' DJ A, 'B' DJ B, '-' none. */
export function toneMarks(pcm: Int16Array): string {
  const size = Math.round(WINDOW * 44_100);
  let marks = '';
  for (let start = 0; start + size <= pcm.length / 2; start += size) {
    const levels = [AUTO_HZ, A_HZ, B_HZ].map((hz) => toneLevel(pcm, start, size, hz));
    const loudest = Math.max(...levels);
    marks += loudest < 0.02 ? '-' : 'oAB'[levels.indexOf(loudest)];
  }
  return marks;
}

/** The marks with runs shorter than `min` windows taken out, then repeated marks folded. */
export function toneSequence(marks: string, min = 4): string {
  return [...marks.matchAll(/(.)\1*/g)]
    .map((run) => run[0])
    .filter((run) => run.length >= min && run[0] !== '-')
    .map((run) => run[0])
    .join('')
    .replace(/(.)\1+/g, '$1');
}

/** A raw TCP connection to the live port (for the bad-input cases). */
export function rawConnection(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Everything the server sends until it closes the connection (or `ms` passes). */
export function readAll(socket: Socket, ms = 10_000): Promise<{ text: string; closed: boolean }> {
  return new Promise((resolve) => {
    let text = '';
    const timer = setTimeout(() => resolve({ text, closed: false }), ms);
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('latin1');
    });
    socket.on('error', () => {});
    socket.once('close', () => {
      clearTimeout(timer);
      resolve({ text, closed: true });
    });
  });
}

export function basic(user: string, password: string): string {
  return `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
}
