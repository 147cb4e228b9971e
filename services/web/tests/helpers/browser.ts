import { access, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { WEB_ROOT } from '../../server/index.ts';

/** Debian's Chromium: the tests drive it, never a downloaded browser. */
export const CHROMIUM = '/usr/bin/chromium';
/** Where the browser tests leave their screenshots. */
export const ARTIFACTS = join(WEB_ROOT, 'test-artifacts');

export interface BrowserPage {
  browser: Browser;
  context: BrowserContext;
  page: Page;
  close(): Promise<void>;
}

/**
 * Headless Chromium with one page of a desktop size, each wait bounded by `waitMs`; `args` are
 * added to the usual flags (a fake microphone, say). The artifacts folder is made too.
 */
export async function openPage(waitMs: number, args: readonly string[] = []): Promise<BrowserPage> {
  await access(CHROMIUM);
  await mkdir(ARTIFACTS, { recursive: true });
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      ...args,
    ],
  });
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  page.setDefaultTimeout(waitMs);
  return {
    browser,
    context,
    page,
    async close() {
      await context.close().catch(() => {});
      await browser.close().catch(() => {});
    },
  };
}

/**
 * Makes the station's first admin from the web app: the "Set up your station" page, which a
 * station without an admin shows first, with the setup code it printed at start.
 */
export async function createFirstAdmin(
  page: Page,
  webUrl: string,
  setupCode: string,
  user: { username: string; password: string },
): Promise<void> {
  await page.goto(webUrl);
  await page.getByRole('heading', { name: 'Set up your station' }).waitFor();
  await page.getByLabel('Setup code').fill(setupCode);
  await page.getByLabel('User name').fill(user.username);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByLabel('Password again').fill(user.password);
  await page.getByRole('button', { name: 'Create the admin account' }).click();
  await page.locator('.account-name .badge', { hasText: 'admin' }).waitFor();
}

/** A GET of the api from inside the page, with its session cookie. */
export function apiGet<T>(page: Page, path: string): Promise<T> {
  return page.evaluate(async (url) => {
    const res = await fetch(url, { credentials: 'same-origin' });
    return res.json();
  }, `/api/radio${path}`) as Promise<T>;
}
