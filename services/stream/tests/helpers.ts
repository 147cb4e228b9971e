import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type Bus,
  type FfmpegProcess,
  locateFfmpeg,
  locateFfprobe,
  silentLogger,
  spawnFfmpeg,
} from '@radio/core';
import { IcyReader } from '../src/icy.ts';
import { createStreamServer, type StreamServer, type StreamServerOptions } from '../src/index.ts';

export const ADMIN_USER = 'admin';
export const ADMIN_PASSWORD = 'admin-secret';
export const SOURCE_PASSWORD = 'source-secret';
export const ADMIN_AUTH = `Basic ${Buffer.from(`${ADMIN_USER}:${ADMIN_PASSWORD}`).toString('base64')}`;
export const SOURCE_AUTH = `Basic ${Buffer.from(`source:${SOURCE_PASSWORD}`).toString('base64')}`;

export const ffmpegPath = locateFfmpeg().path;
export const ffprobePath = locateFfprobe(locateFfmpeg());

/**
 * Everything a test file starts, so afterAll can stop it all: servers, child processes (by
 * PID), sockets, temp folders.
 */
export class Resources {
  readonly #servers: StreamServer[] = [];
  readonly #processes: FfmpegProcess[] = [];
  readonly #children: ChildProcess[] = [];
  readonly #sockets: net.Socket[] = [];
  readonly #dirs: string[] = [];
  readonly #cleanups: (() => Promise<void> | void)[] = [];

  async server(options: Partial<StreamServerOptions> = {}, bus?: Bus): Promise<StreamServer> {
    const server = createStreamServer(
      {
        host: '127.0.0.1',
        port: 0,
        adminUser: ADMIN_USER,
        adminPassword: ADMIN_PASSWORD,
        sourcePassword: SOURCE_PASSWORD,
        ...options,
      },
      { logger: silentLogger(), bus },
    );
    this.#servers.push(server);
    await server.start();
    return server;
  }

  ffmpeg(job: FfmpegProcess): FfmpegProcess {
    this.#processes.push(job);
    return job;
  }

  child(child: ChildProcess): ChildProcess {
    this.#children.push(child);
    return child;
  }

  socket(socket: net.Socket): net.Socket {
    this.#sockets.push(socket);
    return socket;
  }

  async tempDir(prefix = 'stream-test-'): Promise<string> {
    const dir = await mkdtemp(join(tmpdir(), prefix));
    this.#dirs.push(dir);
    return dir;
  }

  onCleanup(fn: () => Promise<void> | void): void {
    this.#cleanups.push(fn);
  }

  async dispose(): Promise<void> {
    for (const socket of this.#sockets) socket.destroy();
    await Promise.all(this.#processes.map((job) => job.dispose()));
    await Promise.all(
      this.#children.map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) {
              resolve();
              return;
            }
            const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
            child.once('exit', () => {
              clearTimeout(timer);
              resolve();
            });
            child.kill('SIGTERM');
          }),
      ),
    );
    for (const fn of this.#cleanups.splice(0)) await fn();
    await Promise.all(this.#servers.map((server) => server.close()));
    await Promise.all(this.#dirs.map((dir) => rm(dir, { recursive: true, force: true })));
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export interface SineSource {
  mount: string;
  codec?: 'mp3' | 'aac';
  bitrate?: number;
  frequency?: number;
  /** SOURCE (ffmpeg's legacy_icecast) instead of PUT. */
  legacy?: boolean;
  password?: string;
  /** Real time (-re): off to push as fast as ffmpeg encodes. */
  realtime?: boolean;
  seconds?: number;
  sampleRate?: number;
  channels?: number;
  extra?: string[];
}

/** A real ffmpeg pushing a sine tone to the server with the Icecast protocol. */
export function pushSine(
  resources: Resources,
  server: StreamServer,
  source: SineSource,
): FfmpegProcess {
  const codec = source.codec ?? 'mp3';
  const bitrate = source.bitrate ?? (codec === 'mp3' ? 128 : 96);
  const args = ['-loglevel', 'error'];
  if (source.realtime !== false) args.push('-re');
  args.push(
    '-f',
    'lavfi',
    '-i',
    `sine=frequency=${source.frequency ?? 440}:sample_rate=${source.sampleRate ?? 44100}${source.seconds ? `:duration=${source.seconds}` : ''}`,
    '-ac',
    String(source.channels ?? 2),
  );
  if (codec === 'mp3') {
    args.push(
      '-c:a',
      'libmp3lame',
      '-b:a',
      `${bitrate}k`,
      '-content_type',
      'audio/mpeg',
      '-f',
      'mp3',
    );
  } else {
    args.push('-c:a', 'aac', '-b:a', `${bitrate}k`, '-content_type', 'audio/aac', '-f', 'adts');
  }
  if (source.legacy) args.push('-legacy_icecast', '1');
  args.push(...(source.extra ?? []));
  args.push(
    `icecast://source:${source.password ?? SOURCE_PASSWORD}@127.0.0.1:${server.port}${source.mount}`,
  );
  return resources.ffmpeg(
    spawnFfmpeg(args, { ffmpegPath, logger: silentLogger(), name: `source ${source.mount}` }),
  );
}

export interface HttpResult {
  status: number;
  statusLine: string;
  headers: http.IncomingHttpHeaders;
  rawHeaders: string[];
  body: string;
}

/** One HTTP request on a fresh connection (no agent, no keep-alive), from `localAddress`. */
export function request(
  server: StreamServer,
  path: string,
  options: {
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    localAddress?: string;
  } = {},
): Promise<HttpResult> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port: server.port,
        path,
        method: options.method ?? 'GET',
        headers: options.headers,
        localAddress: options.localAddress,
        agent: false,
      },
      (res) => {
        const parts: Buffer[] = [];
        res.on('data', (chunk: Buffer) => parts.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            statusLine: `HTTP/${res.httpVersion} ${res.statusCode} ${res.statusMessage}`,
            headers: res.headers,
            rawHeaders: res.rawHeaders,
            body: Buffer.concat(parts).toString('utf8'),
          }),
        );
        res.on('error', reject);
      },
    );
    req.setTimeout(15_000, () => req.destroy(new Error(`request ${path} timed out`)));
    req.on('error', reject);
    req.end(options.body);
  });
}

/** Sends raw bytes (from `localAddress`) and collects the answer until the server closes (or `waitMs`). */
export function rawExchange(
  port: number,
  data: string | Buffer,
  waitMs = 5000,
  localAddress?: string,
): Promise<{ text: string; closed: boolean }> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: '127.0.0.1', localAddress }, () => socket.write(data));
    const parts: Buffer[] = [];
    let done = false;
    const finish = (closed: boolean): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ text: Buffer.concat(parts).toString('latin1'), closed });
    };
    const timer = setTimeout(() => finish(false), waitMs);
    socket.on('data', (chunk: Buffer) => parts.push(chunk));
    socket.on('close', () => finish(true));
    socket.on('error', () => finish(true));
  });
}

/**
 * A listener on a raw socket: sends the GET, parses the response head, counts body bytes,
 * and (with ICY) separates audio from metadata blocks.
 */
export class StreamListener {
  readonly socket: net.Socket;
  statusLine = '';
  head = '';
  headers = new Map<string, string>();
  bodyBytes = 0;
  audio: Buffer[] = [];
  closed = false;
  #pending: Buffer | null = Buffer.alloc(0);
  #icy: IcyReader | null = null;
  readonly #keep: boolean;

  constructor(
    port: number,
    path: string,
    options: { icy?: boolean; keepAudio?: boolean; headers?: string[] } = {},
  ) {
    this.#keep = options.keepAudio ?? false;
    const extra = options.headers ?? [];
    const lines = [`GET ${path} HTTP/1.0`];
    if (!extra.some((line) => /^user-agent:/i.test(line)))
      lines.push('User-Agent: stream-test/1.0');
    if (options.icy) lines.push('Icy-MetaData: 1');
    lines.push(...extra);
    this.socket = net.connect(port, '127.0.0.1', () =>
      this.socket.write(`${lines.join('\r\n')}\r\n\r\n`),
    );
    this.socket.on('data', (data: Buffer) => this.#onData(data));
    this.socket.on('error', () => {});
    this.socket.on('close', () => {
      this.closed = true;
    });
  }

  get titles(): string[] {
    return this.#icy?.titles ?? [];
  }

  get audioBytes(): number {
    return this.#icy ? this.#icy.audioBytes : this.bodyBytes;
  }

  #onData(data: Buffer): void {
    if (this.#pending !== null) {
      this.#pending = Buffer.concat([this.#pending, data]);
      const end = this.#pending.indexOf('\r\n\r\n');
      if (end < 0) return;
      this.head = this.#pending.subarray(0, end).toString('latin1');
      const [statusLine, ...lines] = this.head.split('\r\n');
      this.statusLine = statusLine ?? '';
      for (const line of lines) {
        const colon = line.indexOf(':');
        if (colon > 0)
          this.headers.set(line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim());
      }
      const metaint = Number(this.headers.get('icy-metaint'));
      if (metaint > 0) this.#icy = new IcyReader(metaint);
      data = this.#pending.subarray(end + 4);
      this.#pending = null;
    }
    this.bodyBytes += data.length;
    const audio = this.#icy ? this.#icy.push(data) : [data];
    if (this.#keep) this.audio.push(...audio.map((part) => Buffer.from(part)));
  }

  close(): void {
    this.socket.destroy();
  }
}

/** Runs ffprobe on a URL or file and returns its first audio stream. */
export function ffprobe(
  target: string,
): Promise<{ codec_name: string; bit_rate?: string; sample_rate: string; channels: number }> {
  return new Promise((resolve, reject) => {
    execFile(
      ffprobePath,
      [
        '-v',
        'error',
        '-show_entries',
        'stream=codec_name,bit_rate,sample_rate,channels',
        '-of',
        'json',
        target,
      ],
      { timeout: 30_000 },
      (error, stdout) => {
        if (error) return reject(error);
        const parsed = JSON.parse(stdout) as {
          streams: {
            codec_name: string;
            bit_rate?: string;
            sample_rate: string;
            channels: number;
          }[];
        };
        const stream = parsed.streams[0];
        if (!stream) return reject(new Error(`ffprobe found no stream in ${target}`));
        resolve(stream);
      },
    );
  });
}

/** Decodes a file with ffmpeg; returns the stderr lines of errors (empty when clean). */
export function decodeErrors(file: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(ffmpegPath, ['-v', 'error', '-i', file, '-f', 'null', '-'], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let text = '';
    child.stderr.on('data', (chunk: Buffer) => {
      text += chunk.toString();
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('error', reject);
    child.on('close', () => {
      clearTimeout(timer);
      resolve(text.split('\n').filter((line) => line.trim() !== ''));
    });
  });
}

/**
 * A raw SOURCE on `mount` pushing silent MP3 frames at about real time (128 kbit/s) until the
 * test's resources are disposed; resolves once the server has accepted it.
 */
export async function frameSource(
  resources: Resources,
  server: StreamServer,
  mount: string,
): Promise<net.Socket> {
  const frames = mp3Frames(400);
  const socket = resources.socket(net.connect(server.port, '127.0.0.1'));
  socket.on('error', () => {});
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  socket.write(
    `SOURCE ${mount} HTTP/1.0\r\nAuthorization: ${SOURCE_AUTH}\r\nContent-Type: audio/mpeg\r\n\r\n`,
  );
  await new Promise<void>((resolve) => socket.once('data', () => resolve()));
  // A burst's worth at once, so a listener has audio (and an ICY block) at once.
  socket.write(frames.subarray(0, 80_000));
  let offset = 80_000;
  const timer = setInterval(() => {
    if (offset + 4000 > frames.length) offset = 0;
    socket.write(frames.subarray(offset, offset + 4000));
    offset += 4000;
  }, 250);
  resources.onCleanup(() => clearInterval(timer));
  socket.on('close', () => clearInterval(timer));
  return socket;
}

/** `count` silent MPEG-1 Layer III frames, 128 kbit/s 44.1 kHz stereo (417/418 bytes). */
export function mp3Frames(count: number): Buffer {
  const parts: Buffer[] = [];
  for (let i = 0; i < count; i++) {
    const padded = Math.floor((i + 1) * 417.959) - Math.floor(i * 417.959) > 417;
    const frame = Buffer.alloc(padded ? 418 : 417);
    frame.set([0xff, 0xfb, 0x90 | (padded ? 2 : 0), 0x44]);
    parts.push(frame);
  }
  return Buffer.concat(parts);
}
