import { mkdtemp, readFile, rm } from 'node:fs/promises';
import type { IncomingHttpHeaders } from 'node:http';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createLogger, type Logger, locateFfmpeg } from '@radio/core';
import { generateTrack } from '@radio/core/test-audio';
import { freePort, type LogLine, waitFor } from '@radio/core/testing';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { ensureWebBuild } from '../server/index.ts';
import { ARTIFACTS, CHROMIUM, createFirstAdmin } from './helpers/browser.ts';
import { type RunningNginx, startNginx } from './helpers/nginx.ts';
import { startTestStation, type TestStation } from './helpers/station.ts';
import { homeTrusting, makeTestCertificates, type TestCertificates } from './helpers/tls.ts';

/*
 * docker/nginx/radio.conf as operators use it: Debian's nginx terminates TLS with a certificate
 * from a throwaway CA, in front of a whole station (TRUSTED_PROXIES=127.0.0.1, PUBLIC_URL its
 * https origin), and Debian's Chromium, trusting that CA through its NSS database, makes the
 * first admin with the printed setup code, signs in, uploads, goes live and plays the MP3
 * mount and HLS, all over HTTPS. One step per test, in order, on one page.
 */

const WAIT = 60_000;
const ADMIN = { username: 'tls-boss', password: 'correct horse battery' };
const SETUP_LINE = 'waiting for the first admin: open the web app and enter the setup code';
const HSTS = 'max-age=31536000';

let root: string;
let certs: TestCertificates;
let origin: string;
let httpPort: number;
let station: TestStation;
let nginx: RunningNginx;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let fixture: string;
const lines: LogLine[] = [];
const answers: { url: string; status: number; hsts: string | undefined }[] = [];
const consoleErrors: string[] = [];

function print(line: string): void {
  process.stdout.write(`${line}\n`);
}

/** The station's log lines, kept (info and above) to read the setup code back. */
function keptLogger(): Logger {
  return createLogger({
    service: 'nginx-https',
    level: 'info',
    destination: { write: (line: string) => void lines.push(JSON.parse(line) as LogLine) },
  });
}

async function distinctPorts(count: number): Promise<number[]> {
  const ports = new Set<number>();
  while (ports.size < count) ports.add(await freePort());
  return [...ports];
}

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  rawHeaders: string[];
  /** The first chunk of the body (a stream never ends), and how long it took to come. */
  first: Buffer;
  firstByteMs: number;
}

/** One HTTPS request through nginx, checked against the test CA like a browser would. */
function fetchTls(path: string, headers: Record<string, string> = {}): Promise<Answer> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(`${origin}${path}`, { ca: certs.ca, headers }, (res) => {
      const done = (first: Buffer) => {
        const firstByteMs = performance.now() - started;
        res.destroy();
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          rawHeaders: res.rawHeaders,
          first,
          firstByteMs,
        });
      };
      res.once('data', (chunk: Buffer) => done(chunk));
      res.once('end', () => done(Buffer.alloc(0)));
    });
    req.on('error', reject);
    req.end();
  });
}

function count(rawHeaders: string[], name: string): number {
  return rawHeaders.filter((value, i) => i % 2 === 0 && value.toLowerCase() === name).length;
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'radio-nginx-https-'));
  await ensureWebBuild();
  certs = await makeTestCertificates(join(root, 'tls'));
  fixture = join(root, 'TLS Upload.mp3');
  await generateTrack(
    fixture,
    { format: 'mp3', durationSeconds: 5, frequency: 610, tags: { title: 'TLS Upload' } },
    { ffmpegPath: locateFfmpeg().path },
  );
  const [httpsPort, plainPort, webPort, streamPort] = (await distinctPorts(4)) as [
    number,
    number,
    number,
    number,
  ];
  httpPort = plainPort;
  origin = `https://localhost:${httpsPort}`;
  station = await startTestStation(keptLogger(), {
    WEB_PORT: String(webPort),
    STREAM_PORT: String(streamPort),
    TRUSTED_PROXIES: '127.0.0.1',
    PUBLIC_URL: origin,
  });
  nginx = await startNginx(join(root, 'nginx'), {
    httpsPort,
    httpPort,
    certPath: certs.certPath,
    keyPath: certs.keyPath,
    web: `127.0.0.1:${webPort}`,
    stream: `127.0.0.1:${streamPort}`,
  });
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--autoplay-policy=no-user-gesture-required',
    ],
    env: { ...process.env, HOME: await homeTrusting(join(root, 'home'), certs.caPath) },
  });
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  // The player's <audio> lives outside the document: the page notes each element it plays.
  await context.addInitScript(() => {
    const play = HTMLMediaElement.prototype.play;
    HTMLMediaElement.prototype.play = function (this: HTMLMediaElement) {
      (window as unknown as { playedAudio: HTMLMediaElement }).playedAudio = this;
      return play.call(this);
    };
  });
  page = await context.newPage();
  page.setDefaultTimeout(WAIT);
  // Every answer from the network: Chromium's cache keeps no Strict-Transport-Security, so a
  // cached copy (the favicon, say) would read as an answer without one.
  const devtools = await context.newCDPSession(page);
  await devtools.send('Network.enable');
  await devtools.send('Network.setCacheDisabled', { cacheDisabled: true });
  page.on('response', (res) => {
    if (!res.url().startsWith(origin)) return;
    // allHeaders: headers() leaves out some that only the network layer reports.
    void res.allHeaders().then(
      (headers) =>
        answers.push({
          url: res.url(),
          status: res.status(),
          hsts: headers['strict-transport-security'],
        }),
      () => {},
    );
  });
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
}, 300_000);

afterAll(async () => {
  await context?.close().catch(() => {});
  await browser?.close().catch(() => {});
  await nginx?.stop();
  await station?.stop();
  if (root) await rm(root, { recursive: true, force: true });
}, 60_000);

describe('the station behind docker/nginx/radio.conf, in Chromium over HTTPS', () => {
  it('printed its setup code at start, the one the station holds', () => {
    const line = lines.find((each) => each.msg === SETUP_LINE);
    expect(line?.level).toBe('info');
    expect(line?.setupCode).toBe(station.setupCode);
  });

  it('answers over HTTPS with one HSTS header, sends plain HTTP there, and hides /metrics', async () => {
    const home = await fetchTls('/');
    expect(home.status).toBe(200);
    expect(home.headers['strict-transport-security']).toBe(HSTS);
    // The web server's own header is replaced, not doubled: browsers read only the first.
    expect(count(home.rawHeaders, 'strict-transport-security')).toBe(1);
    expect((await fetchTls('/metrics')).status).toBe(404);

    const plain = await fetch(`http://127.0.0.1:${httpPort}/library?x=1`, { redirect: 'manual' });
    expect(plain.status).toBe(301);
    expect(plain.headers.get('location')).toBe('https://127.0.0.1/library?x=1');
  });

  it('passes the mounts and HLS through without waiting to fill a buffer', async () => {
    // The scheduler's source connects a moment after the station starts.
    const mp3 = await waitFor('the MP3 mount through nginx', async () => {
      const answer = await fetchTls('/radio.mp3');
      return answer.status === 200 && answer;
    });
    expect(mp3.headers['content-type']).toBe('audio/mpeg');
    expect(mp3.first.length).toBeGreaterThan(0);
    expect(mp3.headers['strict-transport-security']).toBe(HSTS);
    const playlist = await waitFor('the HLS playlist through nginx', async () => {
      const answer = await fetchTls('/hls/radio.m3u8');
      return answer.status === 200 && answer;
    });
    expect(playlist.first.toString('utf8')).toMatch(/^#EXTM3U/);
    const status = await fetchTls('/status-json.xsl');
    expect(status.status).toBe(200);
    print(
      `[nginx https] first audio byte of /radio.mp3 through nginx in ${mp3.firstByteMs.toFixed(0)} ms (${mp3.first.length} bytes in the first chunk)`,
    );
  });

  it('opens the web app trusting the CA, and makes the first admin with the setup code', async () => {
    const opened = await page.goto(`${origin}/`);
    expect(opened?.ok()).toBe(true);
    expect((await opened?.securityDetails())?.issuer).toBe('Radio test CA');
    const answer = page.waitForResponse((res) => res.url() === `${origin}/api/radio/auth/setup`);
    await createFirstAdmin(page, origin, station.setupCode, ADMIN);
    const setup = await answer;
    expect(setup.status()).toBe(201);
    expect(await setup.headerValue('set-cookie')).toMatch(/;\s*Secure/i);
    expect(setup.headers()['strict-transport-security']).toBe(HSTS);
    // The live updates come through nginx as they are written.
    await page.locator('.connection-open').waitFor();
    await page.screenshot({ path: join(ARTIFACTS, 'nginx-https-admin.png') });
  }, 120_000);

  it('signs out and in again, with a Secure session cookie', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('link', { name: 'Sign in' }).first().click();
    await page.getByLabel('User name').fill(ADMIN.username);
    await page.getByLabel('Password').fill(ADMIN.password);
    const answer = page.waitForResponse((res) => res.url() === `${origin}/api/radio/auth/login`);
    await page.locator('form').getByRole('button', { name: 'Sign in' }).click();
    const login = await answer;
    expect(login.status()).toBe(200);
    expect(await login.headerValue('set-cookie')).toMatch(/;\s*Secure/i);
    await page.locator('.account-name .badge', { hasText: 'admin' }).waitFor();
  }, 60_000);

  it('uploads a file', async () => {
    await page.goto(`${origin}/upload`);
    await page.getByRole('heading', { name: 'Upload' }).waitFor();
    await page.getByTestId('upload-folder').fill('Over TLS');
    await page.getByTestId('upload-files').setInputFiles([fixture]);
    const row = page.getByTestId('upload-row');
    await page.waitForFunction(
      () =>
        ['added', 'refused', 'duplicate', 'failed'].includes(
          document.querySelector('[data-testid=upload-row]')?.getAttribute('data-state') ?? '',
        ),
      null,
      { timeout: WAIT },
    );
    expect(await row.getAttribute('data-state')).toBe('added');
  }, 120_000);

  it('opens the Go live WebSocket through nginx', async () => {
    const opened = await page.evaluate(async () => {
      const me = (await (await fetch('/api/radio/auth/me')).json()) as { user: { id: number } };
      const created = await fetch('/api/radio/dj-accounts', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ userId: me.user.id }),
      });
      if (created.status !== 201) return `dj account: ${created.status} ${await created.text()}`;
      return new Promise<string>((resolve) => {
        const socket = new WebSocket(`wss://${location.host}/api/radio/live/ws`);
        socket.onopen = () => {
          socket.close();
          resolve('open');
        };
        socket.onerror = () => resolve('error');
        socket.onclose = (event) => resolve(`closed ${event.code} ${event.reason}`);
      });
    });
    expect(opened).toBe('open');
  }, 60_000);

  /** The page's audio element, polled until its time has moved past `seconds`. */
  async function playedPast(seconds: number) {
    const now = await page.evaluate(() => {
      const element = (window as unknown as { playedAudio?: HTMLMediaElement }).playedAudio;
      return {
        src: element?.currentSrc ?? '',
        time: element?.currentTime ?? 0,
        error: element?.error ? (element.error.message ?? 'media error') : null,
      };
    });
    if (now.time > seconds && now.error === null) return now;
    throw new Error(`the element: ${JSON.stringify(now)}`);
  }

  it('plays /radio.mp3 over HTTPS', async () => {
    await page.goto(`${origin}/`);
    await page.getByRole('radio', { name: /^High MP3/ }).check();
    await page.getByRole('button', { name: 'Play the stream' }).click();
    await page
      .locator('.stream-status')
      .filter({ hasText: /^Playing$/ })
      .waitFor();
    const played = await waitFor('two seconds of MP3 played', () => playedPast(2), WAIT);
    expect(played.src).toBe(`${origin}/radio.mp3`);
    await page.getByRole('button', { name: 'Stop the stream' }).click();
    await page.getByRole('button', { name: 'Play the stream' }).waitFor();
  }, 120_000);

  it('plays HLS over HTTPS', async () => {
    const delivery = page.getByRole('group', { name: 'Delivery' });
    await delivery.getByRole('radio', { name: /^HLS\b/ }).check();
    const segment = page.waitForResponse(
      (res) =>
        res.url().startsWith(`${origin}/hls/`) &&
        new URL(res.url()).pathname.endsWith('.aac') &&
        res.ok(),
    );
    await page.getByRole('button', { name: 'Play the stream' }).click();
    await segment;
    await page
      .locator('.stream-status')
      .filter({ hasText: /^Playing$/ })
      .waitFor();
    const played = await waitFor('two seconds of HLS played', () => playedPast(2), WAIT);
    print(`[nginx https] HLS in Chromium over HTTPS: ${played.time.toFixed(1)} s played`);
    await page.getByRole('button', { name: 'Stop the stream' }).click();
    await page.screenshot({ path: join(ARTIFACTS, 'nginx-https-hls.png') });
  }, 120_000);

  it('sent HSTS on every answer, and the browser saw no mixed content', async () => {
    const missing = answers.filter((each) => each.status !== 101 && each.hsts !== HSTS);
    expect(missing).toEqual([]);
    expect(answers.length).toBeGreaterThan(10);
    expect(consoleErrors.filter((text) => /mixed content|certificate/i.test(text))).toEqual([]);
    const errors = await readFile(nginx.errorLog, 'utf8');
    expect(errors).not.toMatch(/\[(emerg|alert|crit)\]/);
  });
});
