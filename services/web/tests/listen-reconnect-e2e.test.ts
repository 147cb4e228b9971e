import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createLogger, type Logger } from '@radio/core';
import type { Page, Route } from 'playwright-core';
import { ensureWebBuild } from '../server/index.ts';
import { ARTIFACTS, type BrowserPage, createFirstAdmin, openPage } from './helpers/browser.ts';
import { startTestStation, type TestStation } from './helpers/station.ts';

/*
 * The Listen page in Debian's Chromium when its first requests for the mounts fail (a network
 * blip): it says it is reconnecting, tries again on its own, waiting longer each time, and shows
 * the mounts once the station answers.
 */

const WAIT = 30_000;
const ADMIN = { username: 'blip-boss', password: 'correct horse battery' };
const STATUS = '**/api/radio/streaming-status';
/** Requests the "network" drops before it lets one through. */
const DROPPED = 2;

let logger: Logger;
let station: TestStation;
let session: BrowserPage;
let page: Page;

beforeAll(async () => {
  logger = createLogger({ service: 'listen-reconnect-e2e', level: 'warn' });
  await ensureWebBuild();
  station = await startTestStation(logger);
  session = await openPage(WAIT);
  page = session.page;
}, 300_000);

afterAll(async () => {
  await session?.close();
  await station?.stop();
  await new Promise<void>((resolve) => logger?.flush(() => resolve()) ?? resolve());
}, 60_000);

describe('the Listen page after a network blip', () => {
  it('reconnects by itself and shows the mounts', async () => {
    await createFirstAdmin(page, station.webUrl, station.setupCode, ADMIN);

    const requestedAt: number[] = [];
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(STATUS, async (route: Route) => {
      requestedAt.push(Date.now());
      if (requestedAt.length <= DROPPED) return route.abort('internetdisconnected');
      // Held until the page has shown that it is reconnecting.
      await released;
      return route.continue();
    });

    await page.goto(station.webUrl);
    await page.getByRole('status').filter({ hasText: 'reconnecting' }).waitFor();
    await page.screenshot({ path: join(ARTIFACTS, 'listen-reconnecting.png'), fullPage: true });
    release();

    await page.getByRole('radio', { name: /High MP3/ }).waitFor();
    await page.waitForFunction(() => performance.getEntriesByName('listen-ready').length > 0);
    await expect(
      page.getByRole('status').filter({ hasText: 'reconnecting' }).count(),
    ).resolves.toBe(0);
    expect(requestedAt.length).toBeGreaterThan(DROPPED);
    const waits = requestedAt.slice(1).map((at, i) => at - (requestedAt[i] as number));
    process.stdout.write(
      `[listen reconnect] waits between the tries: ${waits.map((ms) => `${ms} ms`).join(', ')}\n`,
    );
    await page.unroute(STATUS);
  }, 120_000);
});
