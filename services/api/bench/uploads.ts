/**
 * The upload rows of `pnpm bench:api`: the whole station in one child process, as embedded mode
 * runs it (stream server, scheduler playing out, api, web server with its /api proxy), and
 * uploads over tus through the web server as a browser sends them:
 *  - one 200 MB file alone: MB/s on loopback, from the first byte to the answer (probe, hash and
 *    the move included);
 *  - four 200 MB files at once: MB/s together, the station process's CPU and RSS sampled every
 *    250 ms (RSS must stay flat: no file is held in memory);
 *  - playout meanwhile: a listener of /radio.mp3 counts bytes against its nominal rate, and
 *    the scheduler's log is searched for its clock falling behind (an underrun).
 * The files are WAV (PCM), so a 200 MB file is made in a second and the probe and hash read
 * every byte. Environment: BENCH_UPLOAD_MB (200), BENCH_UPLOAD_PARALLEL (4).
 */
import { type ChildProcess, fork } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { get, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  createLogger,
  embeddedSpec,
  fileAndConsoleDestination,
  type Logger,
  loadConfig,
  locateFfmpeg,
  runFfmpeg,
  silentLogger,
} from '@radio/core';

const SIZE_MB = Number(process.env.BENCH_UPLOAD_MB ?? 200);
const PARALLEL = Number(process.env.BENCH_UPLOAD_PARALLEL ?? 4);
const SAMPLE_MS = 250;
const BASELINE_MS = 5000;
const REPO_ROOT = resolve(import.meta.dirname, '../../..');
const PCM_BYTES_PER_SECOND = 44_100 * 2 * 2;

interface StationUrls {
  web: string;
  mp3: string;
  pid: number;
  logFile: string;
  /** The code that makes the first admin (a fresh station has none). */
  setupCode: string;
}

/** The child: the embedded station, its URLs sent to the parent; stops on 'stop'. */
export async function serveStation(dir: string): Promise<void> {
  const logFile = join(dir, 'station.log');
  const logger = createLogger({
    service: 'station',
    level: 'info',
    destination: fileAndConsoleDestination(logFile, 'silent'),
  });
  // Loaded by path: the launcher is no package of the api's, and is type-checked on its own.
  const { startStation } = (await import(
    pathToFileURL(join(REPO_ROOT, 'embedded', 'station.ts')).href
  )) as {
    startStation: (
      config: unknown,
      loggerFor: (service: string) => Logger,
    ) => Promise<{
      urls: readonly { name: string; url: string }[];
      setupCode: string | null;
      stop(): Promise<void>;
    }>;
  };
  const secrets = { ADMIN_PASSWORD: 'bench-admin-1', SOURCE_PASSWORD: 'bench-source-1' };
  const config = {
    ...loadConfig(embeddedSpec, {
      MUSIC_DIR: join(dir, 'music'),
      DATA_DIR: join(dir, 'data'),
      STREAM_PORT: '0',
      CONTROL_PORT: '0',
      LIVE_PORT: '0',
      API_PORT: '0',
      WEB_PORT: '0',
      MAX_UPLOAD_MB: String(SIZE_MB * 2),
      LOG_LEVEL: 'info',
    }),
    ...secrets,
    SESSION_SECRET: 'bench-session-secret-0123456789',
  };
  const station = await startStation(config, (service) => logger.child({ service }));
  const url = (match: (entry: { name: string; url: string }) => boolean) =>
    station.urls.find(match)?.url ?? '';
  process.send?.({
    web: url((entry) => entry.name === 'Web app').replace(/\/+$/, ''),
    mp3: url((entry) => entry.url.endsWith('/radio.mp3')),
    pid: process.pid,
    logFile,
    setupCode: station.setupCode ?? '',
  });
  process.on('message', async (message) => {
    if (message !== 'stop') return;
    await station.stop();
    process.exit(0);
  });
}

/**
 * CPU seconds (user + system) of a process and of its children that ended (the probes and
 * hashes' ffmpeg), and its RSS bytes, from /proc.
 */
async function processStats(pid: number): Promise<{ cpu: number; children: number; rss: number }> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = (from: number) => Number(fields[from]) + Number(fields[from + 1]);
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const rssKb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return { cpu: ticks(11) / 100, children: ticks(13) / 100, rss: rssKb * 1024 };
}

/** Bytes of a stream received so far, counted as they arrive. */
function listen(url: string): { bytes: () => number; stop: () => void } {
  let received = 0;
  const req = get(url, (res) => res.on('data', (chunk: Buffer) => (received += chunk.length)));
  req.on('error', () => {});
  return { bytes: () => received, stop: () => req.destroy() };
}

async function send(
  method: string,
  url: string,
  headers: Record<string, string | number>,
  body?: NodeJS.ReadableStream | string,
): Promise<{ status: number; headers: Record<string, unknown>; text: string }> {
  return new Promise((resolvePromise, reject) => {
    const req = request(url, { method, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () =>
        resolvePromise({ status: res.statusCode ?? 0, headers: res.headers, text }),
      );
    });
    req.on('error', reject);
    if (body === undefined) req.end();
    else if (typeof body === 'string') req.end(body);
    else body.pipe(req);
  });
}

/** The station's first admin, made with its setup code: its session cookie. */
async function adminCookie(web: string, code: string): Promise<string> {
  const body = JSON.stringify({ code, username: 'bench', password: 'bench password 1' });
  const answer = await send(
    'POST',
    `${web}/api/radio/auth/setup`,
    { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), Origin: web },
    body,
  );
  if (answer.status !== 201) throw new Error(`setup: ${answer.status} ${answer.text}`);
  const cookies = answer.headers['set-cookie'] as string[];
  return cookies.map((cookie) => cookie.split(';')[0]).join('; ');
}

/** One tus upload through the web server: create, then the file in one PATCH. */
async function upload(web: string, cookie: string, file: string, as: string): Promise<number> {
  const { size } = await stat(file);
  const name = Buffer.from(as).toString('base64');
  const base = { Cookie: cookie, Origin: web, 'Tus-Resumable': '1.0.0' };
  const created = await send('POST', `${web}/api/radio/uploads`, {
    ...base,
    'Upload-Length': size,
    'Upload-Metadata': `filename ${name},folder ${Buffer.from('bench').toString('base64')}`,
  });
  if (created.status !== 201) throw new Error(`create: ${created.status} ${created.text}`);
  const done = await send(
    'PATCH',
    new URL(String(created.headers.location), web).toString(),
    {
      ...base,
      'Content-Type': 'application/offset+octet-stream',
      'Content-Length': size,
      'Upload-Offset': 0,
    },
    createReadStream(file),
  );
  if (done.status !== 200) throw new Error(`upload: ${done.status} ${done.text}`);
  return size;
}

async function makeWav(path: string, frequency: number): Promise<void> {
  const seconds = Math.ceil((SIZE_MB * 1024 * 1024) / PCM_BYTES_PER_SECOND);
  const tone = `sine=f=${frequency}:d=${seconds}`;
  await runFfmpeg(
    ['-loglevel', 'error', '-y', '-f', 'lavfi', '-i', tone, '-ac', '2', '-c:a', 'pcm_s16le', path],
    { ffmpegPath: locateFfmpeg().path, logger: silentLogger(), name: 'bench wav' },
  );
}

function startStationProcess(dir: string): Promise<{ child: ChildProcess; urls: StationUrls }> {
  return new Promise((resolvePromise, reject) => {
    const child = fork(join(import.meta.dirname, 'api.ts'), ['--serve-station', dir], {
      stdio: 'inherit',
    });
    child.once('message', (urls) => resolvePromise({ child, urls: urls as StationUrls }));
    child.once('exit', (code) => reject(new Error(`the station process exited with ${code}`)));
  });
}

interface Window {
  seconds: number;
  cpuPercent: number;
  childrenPercent: number;
  rssMin: number;
  rssMax: number;
  listenerBytes: number;
}

/** Runs `work` while sampling the station's CPU and RSS and the listener's bytes. */
async function measure(
  urls: StationUrls,
  listener: { bytes: () => number },
  work: () => Promise<unknown>,
): Promise<Window> {
  const heard = listener.bytes();
  const rss: number[] = [];
  const sampler = setInterval(() => {
    processStats(urls.pid).then(
      (s) => rss.push(s.rss),
      () => {},
    );
  }, SAMPLE_MS);
  const before = await processStats(urls.pid);
  const started = performance.now();
  try {
    await work();
  } finally {
    clearInterval(sampler);
  }
  const seconds = (performance.now() - started) / 1000;
  const after = await processStats(urls.pid);
  rss.push(after.rss);
  return {
    seconds,
    cpuPercent: ((after.cpu - before.cpu) / seconds) * 100,
    childrenPercent: ((after.children - before.children) / seconds) * 100,
    rssMin: Math.min(before.rss, ...rss),
    rssMax: Math.max(...rss),
    listenerBytes: listener.bytes() - heard,
  };
}

const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);

/** The upload rows, as the api bench prints them. */
export async function uploadRows(): Promise<{ rows: string[][]; notes: string[] }> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-uploads-'));
  const sources = join(dir, 'sources');
  await mkdir(sources, { recursive: true });
  const files = Array.from({ length: PARALLEL + 1 }, (_, i) => join(sources, `tone-${i}.wav`));
  console.error(`uploads: making ${files.length} files of ${SIZE_MB} MB ...`);
  for (const [i, file] of files.entries()) await makeWav(file, 220 + i * 55);
  const { child, urls } = await startStationProcess(dir);
  const listener = listen(urls.mp3);
  try {
    const cookie = await adminCookie(urls.web, urls.setupCode);
    const pause = () => new Promise((done) => setTimeout(done, BASELINE_MS));
    // Past the stream server's burst to a new listener; then the station at rest, playing.
    await pause();
    const idle = await measure(urls, listener, pause);
    // /radio.mp3 is 128 kbit/s CBR: what a listener must get, burst or not.
    const rate = 128_000 / 8;
    console.error('uploads: one file alone ...');
    const one = await measure(urls, listener, () =>
      upload(urls.web, cookie, files[0] as string, 'alone.wav'),
    );
    // The second round sends the same audio under other names: each is found a duplicate.
    const batch = (round: number) => () =>
      Promise.all(
        files.slice(1).map((file, i) => upload(urls.web, cookie, file, `round-${round}-${i}.wav`)),
      );
    console.error(`uploads: ${PARALLEL} at once ...`);
    const many = await measure(urls, listener, batch(1));
    console.error(`uploads: ${PARALLEL} at once, again ...`);
    const again = await measure(urls, listener, batch(2));
    const log = await readFile(urls.logFile, 'utf8');
    const behind = log.split('\n').filter((line) => line.includes('fell behind')).length;
    const row = (name: string, w: Window, megabytes: number): string[] => [
      name,
      (megabytes / w.seconds).toFixed(0),
      w.seconds.toFixed(1),
      w.cpuPercent.toFixed(0),
      w.childrenPercent.toFixed(0),
      `${mb(w.rssMin)}–${mb(w.rssMax)}`,
      `${((w.listenerBytes / w.seconds / rate) * 100).toFixed(1)}%`,
    ];
    return {
      rows: [
        row('station idle, playing (baseline)', idle, 0),
        row(`1 × ${SIZE_MB} MB`, one, SIZE_MB),
        row(`${PARALLEL} × ${SIZE_MB} MB at once`, many, SIZE_MB * PARALLEL),
        row(`${PARALLEL} × ${SIZE_MB} MB again (duplicates)`, again, SIZE_MB * PARALLEL),
      ],
      notes: [
        `The playout clock fell behind ${behind} time${behind === 1 ? '' : 's'} during the run (an underrun is one or more).`,
        'Listener rate: bytes per second a listener of /radio.mp3 got, against its nominal 128 kbit/s (16 kB/s); the stream server sends a new listener a burst first, so the listener connects 5 s before the baseline.',
        'ffmpeg CPU: the probes and hashes (children that ended in the window); the scheduler also analyses each added file in the background.',
      ],
    };
  } finally {
    listener.stop();
    child.send('stop');
    await new Promise((done) => child.once('exit', done));
    await rm(dir, { recursive: true, force: true });
  }
}

export const UPLOAD_HEADER = [
  'uploads (through the web proxy)',
  'MB/s',
  'seconds',
  'station CPU %',
  'ffmpeg CPU %',
  'station RSS MB (min–max)',
  'listener rate',
];
