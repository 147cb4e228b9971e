// The compose end-to-end test's `tls` stages (scripts/compose-e2e.ts): the station behind the
// tls profile's Caddy on https://localhost:PORT, as a browser meets it. Caddy's internal root CA
// is copied out of its volume into the NSS database of a Chromium profile (so nothing is
// trusted that a real browser would not be told to trust); Chromium then makes the first admin
// with the setup code the api logged, signs in, uploads a file and plays /radio.mp3 and HLS,
// every request over HTTPS through Caddy. Plain HTTP is redirected, the session cookie is
// Secure, every answer carries Strict-Transport-Security and another origin may change nothing.

import { mkdir, readFile, rm } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { join } from 'node:path';
import { waitFor } from '@radio/core/testing';
// playwright-core is the web app's test dependency: taken from there, not duplicated here.
// A CommonJS module whose exports Node cannot name: its default export is all of them.
import playwright, {
  type BrowserContext,
  type Page,
  type Response,
} from '../services/web/node_modules/playwright-core/index.js';

const CHROMIUM = '/usr/bin/chromium';
const WAIT_MS = 30_000;
/** Where Caddy keeps its internal CA's root in its data volume. */
const CADDY_ROOT = '/data/caddy/pki/authorities/local/root.crt';

export interface TlsRun {
  code: number | null;
  stdout: string;
  output: string;
}

export interface TlsTools {
  run(
    command: string,
    args: string[],
    options?: { timeoutMs?: number; allowFail?: boolean },
  ): Promise<TlsRun>;
  note(text: string): void;
  check(condition: unknown, message: string): void;
}

/** The station as the tls stages reach it. */
export interface TlsSite {
  /** https://localhost:PORT: PUBLIC_URL. */
  origin: string;
  host: string;
  httpsPort: number;
  httpPort: number;
}

export interface Account {
  username: string;
  password: string;
}

/**
 * Copies Caddy's root certificate out of its container (it exists once Caddy has made its CA,
 * at its first start) and makes a home folder whose Chromium trusts it and nothing more.
 */
export async function trustCaddyRoot(
  tools: TlsTools,
  caddyContainer: string,
  folder: string,
): Promise<{ home: string; rootPem: string }> {
  const rootFile = join(folder, 'caddy-root.crt');
  await waitFor(
    `Caddy's root certificate (${CADDY_ROOT})`,
    async () =>
      (
        await tools.run('docker', ['cp', `${caddyContainer}:${CADDY_ROOT}`, rootFile], {
          allowFail: true,
          timeoutMs: 30_000,
        })
      ).code === 0,
    60_000,
    1000,
  );
  const rootPem = await readFile(rootFile, 'utf8');
  tools.check(rootPem.includes('BEGIN CERTIFICATE'), `${rootFile} is no PEM certificate`);
  const home = join(folder, 'chromium-home');
  const nssdb = join(home, '.pki', 'nssdb');
  // certutil -N asks for the password of a database that exists: always start from none.
  await rm(nssdb, { recursive: true, force: true });
  await mkdir(nssdb, { recursive: true });
  await tools.run('certutil', ['-d', `sql:${nssdb}`, '-N', '--empty-password']);
  await tools.run('certutil', [
    '-d',
    `sql:${nssdb}`,
    '-A',
    '-t',
    'C,,',
    '-n',
    'caddy',
    '-i',
    rootFile,
  ]);
  const subject = await tools.run('certutil', ['-d', `sql:${nssdb}`, '-L', '-n', 'caddy']);
  const name = /Subject: "([^"]+)"/.exec(subject.stdout)?.[1] ?? '?';
  tools.note(`Caddy's root "${name}" copied out of its volume and trusted in ${nssdb}`);
  return { home, rootPem };
}

/** Plain HTTP on the published port 80 answers with a redirect to the same path over HTTPS. */
export async function checkRedirect(tools: TlsTools, site: TlsSite): Promise<void> {
  const answer = await new Promise<{ status: number; location: string }>((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: site.httpPort,
        path: '/library?x=1',
        headers: { host: site.host },
      },
      (res) => {
        res.resume();
        resolve({ status: res.statusCode ?? 0, location: res.headers.location ?? '' });
      },
    );
    req.setTimeout(10_000, () => req.destroy(new Error('no answer on the HTTP port')));
    req.once('error', reject);
    req.end();
  });
  tools.check(
    answer.status === 308 && answer.location === `https://${site.host}/library?x=1`,
    `http://${site.host}:${site.httpPort}/library?x=1 answered ${answer.status} ${answer.location}`,
  );
  tools.note(`http:// on port ${site.httpPort}: ${answer.status} to ${answer.location}`);
}

/** A change sent from another origin through Caddy: the api refuses it. */
export async function checkForeignOrigin(
  tools: TlsTools,
  site: TlsSite,
  rootPem: string,
): Promise<void> {
  const body = JSON.stringify({ username: 'nobody', password: 'not-a-password' });
  const answer = await new Promise<{ status: number; text: string; hsts: string }>(
    (resolve, reject) => {
      const req = httpsRequest(
        {
          host: '127.0.0.1',
          port: site.httpsPort,
          servername: site.host,
          ca: rootPem,
          method: 'POST',
          path: '/api/radio/auth/login',
          headers: {
            host: `${site.host}:${site.httpsPort}`,
            origin: 'https://evil.example',
            'content-type': 'application/json',
          },
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            text += chunk;
          });
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              text,
              hsts: String(res.headers['strict-transport-security'] ?? ''),
            }),
          );
        },
      );
      req.setTimeout(10_000, () => req.destroy(new Error('no answer from the api')));
      req.once('error', reject);
      req.end(body);
    },
  );
  tools.check(
    answer.status === 403 && answer.text.includes('API_CROSS_ORIGIN'),
    `a login with Origin https://evil.example answered ${answer.status}: ${answer.text.slice(0, 200)}`,
  );
  tools.check(
    answer.hsts.startsWith('max-age='),
    'the refusal carries no Strict-Transport-Security',
  );
  tools.note('a login sent with Origin https://evil.example: 403 API_CROSS_ORIGIN');
}

/** What the browser stages saw of the answers from the station's origin. */
interface Seen {
  responses: number;
  withoutHsts: string[];
}

/**
 * Each URL's first answer: a later one may come from the HTTP cache, which Chromium keeps
 * without Strict-Transport-Security (it stores no security state with a cached answer).
 */
function watchResponses(page: Page, origin: string): Seen {
  const seen: Seen = { responses: 0, withoutHsts: [] };
  const urls = new Set<string>();
  page.on('response', (response: Response) => {
    if (!response.url().startsWith(`${origin}/`) || urls.has(response.url())) return;
    urls.add(response.url());
    seen.responses++;
    if (!response.headers()['strict-transport-security']?.startsWith('max-age=')) {
      seen.withoutHsts.push(`${response.status()} ${new URL(response.url()).pathname}`);
    }
  });
  return seen;
}

/** Waits for `action`'s answer from `path` and checks it sets a Secure session cookie. */
async function secureCookieFrom(
  tools: TlsTools,
  page: Page,
  path: string,
  status: number,
  action: () => Promise<void>,
): Promise<void> {
  const [response] = await Promise.all([
    page.waitForResponse(
      (r) => new URL(r.url()).pathname === path && r.request().method() === 'POST',
    ),
    action(),
  ]);
  const cookie = (await response.allHeaders())['set-cookie'] ?? '';
  tools.check(response.status() === status, `POST ${path} answered ${response.status()}`);
  tools.check(
    cookie !== '' && cookie.split('\n').every((line) => /;\s*secure(;|$)/i.test(line)),
    `POST ${path}: the session cookie is not Secure: ${cookie}`,
  );
}

/** The setup page with the code, then a sign-out and a sign-in, each cookie Secure. */
async function firstAdminAndSignIn(
  tools: TlsTools,
  page: Page,
  site: TlsSite,
  code: string,
  admin: Account,
): Promise<void> {
  await page.goto(`${site.origin}/`);
  await page.getByRole('heading', { name: 'Set up your station' }).waitFor();
  await page.getByLabel('Setup code').fill(code);
  await page.getByLabel('User name').fill(admin.username);
  await page.getByLabel('Password', { exact: true }).fill(admin.password);
  await page.getByLabel('Password again').fill(admin.password);
  await secureCookieFrom(tools, page, '/api/radio/auth/setup', 201, () =>
    page.getByRole('button', { name: 'Create the admin account' }).click(),
  );
  await page.locator('.account-name .badge', { hasText: 'admin' }).waitFor();
  tools.note(`${admin.username} made admin with the setup code on ${site.origin}/: Secure cookie`);

  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByRole('link', { name: 'Sign in' }).first().click();
  await page.getByLabel('User name').fill(admin.username);
  await page.getByLabel('Password').fill(admin.password);
  await secureCookieFrom(tools, page, '/api/radio/auth/login', 200, () =>
    page.getByRole('button', { name: 'Sign in' }).click(),
  );
  await page.locator('.account-name .badge', { hasText: 'admin' }).waitFor();
  // The session cookie's path is the API's.
  const cookies = await page.context().cookies(`${site.origin}/api/radio/`);
  tools.check(
    cookies.length > 0 && cookies.every((cookie) => cookie.secure),
    `cookies of ${site.origin}/api/radio/: ${cookies.map((c) => `${c.name} secure=${c.secure}`).join(', ') || 'none'}`,
  );
  tools.note(`signed out and in again: ${cookies.map((c) => c.name).join(', ')} Secure`);
}

/** The Upload page, one MP3, added to the library (tus over HTTPS through Caddy). */
async function upload(tools: TlsTools, page: Page, file: string): Promise<void> {
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Upload' })
    .click();
  await page.getByRole('heading', { name: 'Upload' }).waitFor();
  await page.getByTestId('upload-files').setInputFiles(file);
  const row = page.getByTestId('upload-row').first();
  const ended = ['added', 'refused', 'duplicate', 'failed'].map((s) => `[data-state=${s}]`);
  await page
    .locator(`[data-testid=upload-row]:is(${ended.join(',')})`)
    .first()
    .waitFor({ timeout: 60_000 });
  const state = await row.getAttribute('data-state');
  tools.check(state === 'added', `the upload ended ${state}: ${await row.textContent()}`);
  tools.note(`uploaded ${file.split('/').at(-1)} from the Upload page: added`);
}

interface Played {
  src: string;
  time: number;
  error: string | null;
}

/** What is read of the page's media element (this program has no DOM types). */
interface MediaElement {
  currentSrc: string;
  currentTime: number;
  error: { message: string } | null;
}

/**
 * The player's <audio> lives outside the document: this script, run in every page before its
 * own, notes each media element that is played.
 */
const NOTE_PLAYED_AUDIO = `{
  const play = HTMLMediaElement.prototype.play;
  HTMLMediaElement.prototype.play = function () {
    window.playedAudio = this;
    return play.call(this);
  };
}`;

/** The element the player plays, as NOTE_PLAYED_AUDIO noted it. */
function playedAudio(page: Page): Promise<Played> {
  return page.evaluate(() => {
    const element = (globalThis as { playedAudio?: MediaElement }).playedAudio;
    return {
      src: element?.currentSrc ?? '',
      time: element?.currentTime ?? 0,
      error: element?.error ? element.error.message || 'media error' : null,
    };
  });
}

/** Presses play with the Delivery switch at `delivery`, waits for 2 s of audio, stops. */
async function play(
  tools: TlsTools,
  page: Page,
  delivery: 'Direct' | 'HLS',
  expectedPath: RegExp,
): Promise<Played> {
  await page
    .getByRole('group', { name: 'Delivery' })
    .getByRole('radio', { name: new RegExp(`^${delivery}\\b`) })
    .check();
  const first = page.waitForResponse((r) => expectedPath.test(new URL(r.url()).pathname) && r.ok());
  await page.getByRole('button', { name: 'Play the stream' }).click();
  const response = await first;
  tools.check(response.url().startsWith('https://'), `${delivery}: ${response.url()} is not HTTPS`);
  const played = await waitFor(
    `2 s of ${delivery} audio played over HTTPS`,
    async () => {
      const now = await playedAudio(page);
      if (now.error !== null) throw new Error(`the player failed: ${now.error}`);
      return now.time > 2 && now;
    },
    60_000,
    250,
  );
  await page.getByRole('button', { name: 'Stop the stream' }).click();
  await page.getByRole('button', { name: 'Play the stream' }).waitFor();
  return played;
}

/** The Listen page: /radio.mp3 (High MP3, Direct), then HLS, both through Caddy. */
async function listen(tools: TlsTools, page: Page, site: TlsSite): Promise<void> {
  await page.goto(`${site.origin}/`);
  await page.getByRole('button', { name: 'Play the stream' }).waitFor();
  await page.getByRole('radio', { name: /High MP3/ }).check();
  const direct = await play(tools, page, 'Direct', /^\/radio\.mp3$/);
  tools.check(
    direct.src.startsWith(`${site.origin}/radio.mp3`),
    `the player played ${direct.src}, not ${site.origin}/radio.mp3`,
  );
  tools.note(`/radio.mp3 played ${direct.time.toFixed(1)} s from ${direct.src}`);
  const hls = await play(tools, page, 'HLS', /^\/hls\/[^/]+\/[^/]+\.aac$/);
  tools.note(
    `HLS played ${hls.time.toFixed(1)} s (${hls.src.startsWith('blob:') ? 'hls.js' : hls.src}), segments over HTTPS`,
  );
}

async function launch(home: string): Promise<{ context: BrowserContext; close(): Promise<void> }> {
  const browser = await playwright.chromium.launch({
    executablePath: CHROMIUM,
    env: { ...process.env, HOME: home },
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--autoplay-policy=no-user-gesture-required',
    ],
  });
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.addInitScript({ content: NOTE_PLAYED_AUDIO });
  return {
    context,
    async close() {
      await context.close().catch(() => {});
      await browser.close().catch(() => {});
    },
  };
}

/**
 * Chromium (its HOME from trustCaddyRoot) through the whole visit; a failure leaves a
 * screenshot in `folder`.
 */
export async function browseOverHttps(
  tools: TlsTools,
  options: {
    site: TlsSite;
    home: string;
    setupCode: string;
    admin: Account;
    file: string;
    folder: string;
  },
): Promise<void> {
  const { site } = options;
  const browser = await launch(options.home);
  const page = await browser.context.newPage();
  page.setDefaultTimeout(WAIT_MS);
  const seen = watchResponses(page, site.origin);
  try {
    await firstAdminAndSignIn(tools, page, site, options.setupCode, options.admin);
    await upload(tools, page, options.file);
    await listen(tools, page, site);
    tools.check(
      seen.withoutHsts.length === 0,
      `answers without Strict-Transport-Security: ${seen.withoutHsts.slice(0, 10).join(', ')}`,
    );
    tools.note(
      `${seen.responses} URLs of ${site.origin} answered, each first answer with Strict-Transport-Security`,
    );
  } catch (error) {
    const shot = join(options.folder, 'tls-failure.png');
    await page.screenshot({ path: shot, fullPage: true }).catch(() => {});
    tools.note(`the page at the failure: ${shot} (${page.url()})`);
    throw error;
  } finally {
    await browser.close();
  }
}
