import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createMemoryBus, silentLogger } from '@radio/core';
import { createDb, type DbHandle, migrateToLatest } from '@radio/db';
import type { Page } from 'playwright-core';
import { insertPlays, insertSessions } from '../../api/tests/helpers/listener-sessions.ts';
import { createWebServer, ensureWebBuild, type WebServer } from '../server/index.ts';
import { ARTIFACTS, type BrowserPage, createFirstAdmin, openPage } from './helpers/browser.ts';

/*
 * The Reports page in Debian's Chromium, over the api and the web server with sessions of a
 * known hour put straight into the database: the figures, the world and client tables, the
 * per-track tune-outs and the CSV download. No stream server or scheduler: the sessions and the
 * play log are what they would have written.
 */

// biome-ignore lint/suspicious/noExplicitAny: the api's factory is typed in its own package
type AnyFunction = (...args: any[]) => any;

const WAIT = 30_000;
const ADMIN = { username: 'report-boss', password: 'correct horse battery' };
const MIN = 60_000;
const HOUR = 60 * MIN;
// Three hours ago, on an hour: inside the page's default "last 24 hours".
const T0 = Math.floor((Date.now() - 3 * HOUR) / HOUR) * HOUR;
const at = (minutes: number) => T0 + minutes * MIN;

let dir: string;
let db: DbHandle;
let web: WebServer;
let setupCode: string;
let session: BrowserPage;
let page: Page;
const stops: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  await ensureWebBuild();
  dir = await mkdtemp(join(tmpdir(), 'radio-web-reports-'));
  db = await createDb(`sqlite:${join(dir, 'radio.db')}`);
  stops.push(() => db.close());
  await migrateToLatest(db.db);
  await insertSessions(db, [
    {
      mount: '/radio.mp3',
      start: at(0),
      end: at(30),
      country: 'DE',
      client: 'browser',
      listener: 'L1',
    },
    {
      mount: '/radio.mp3',
      start: at(10),
      end: at(20),
      country: 'FR',
      client: 'player',
      listener: 'L2',
    },
    {
      mount: '/radio.aac',
      start: at(5),
      end: at(50),
      country: 'US',
      client: 'app',
      listener: 'L3',
    },
    {
      mount: '/radio.mp3',
      start: at(40),
      end: at(60),
      country: 'DE',
      client: 'browser',
      listener: 'L1',
    },
    {
      mount: '/radio.mp3',
      start: at(12),
      end: at(13),
      country: 'BR',
      client: 'bot',
      listener: null,
    },
    {
      mount: '/radio.aac',
      start: at(0.5),
      end: at(2),
      country: 'JP',
      client: 'other',
      listener: 'L5',
    },
  ]);
  await insertPlays(db, [
    { title: 'Song A', artist: 'Artist A', start: at(8), end: at(12) },
    { title: 'Jingle', artist: null, start: at(12), end: at(12.5), jingle: true },
    { title: 'Song B, "live"', artist: 'Artist B', start: at(12.5), end: at(25) },
  ]);
  const load = (name: string): Promise<unknown> => import(name);
  const { createApi } = (await load('@radio/api')) as { createApi: AnyFunction };
  const bus = createMemoryBus({ logger: silentLogger() });
  stops.push(() => bus.close());
  const api = createApi(
    {
      sessionSecret: randomBytes(24).toString('hex'),
      streamUrl: 'http://127.0.0.1:9',
      musicDir: dir,
      dataDir: dir,
    },
    { db, bus, logger: silentLogger() },
  );
  stops.push(() => api.close());
  await api.start();
  setupCode = api.setupCode;
  web = createWebServer(
    { apiUrl: api.url, port: 0, host: '127.0.0.1' },
    { logger: silentLogger() },
  );
  stops.push(() => web.close());
  await web.start();
  session = await openPage(WAIT);
  page = session.page;
}, 300_000);

afterAll(async () => {
  await session?.close();
  for (const stop of stops.reverse()) await stop().catch(() => {});
  if (dir) await rm(dir, { recursive: true, force: true });
}, 60_000);

/** The text of a table's row whose header cell is `name`, cell by cell. */
async function rowCells(table: string, name: string): Promise<string[]> {
  const row = page.getByRole('table', { name: table }).getByRole('row', { name: new RegExp(name) });
  return (await row.locator('td').allTextContents()).map((text) => text.trim());
}

const FIGURES = ['Peak', 'Cume', 'AQH', 'Listening hours', 'Sessions', 'Unique 24 hours'] as const;

/** The figures the page shows, once the report body has its answer. */
async function shownFigures(): Promise<Record<string, string>> {
  const shown: Record<string, string> = {};
  for (const name of FIGURES) {
    shown[name] = ((await page.locator(`[data-figure="${name}"] dd`).textContent()) ?? '').trim();
  }
  return shown;
}

/**
 * The api's listeners report for the page's period (as its From and To inputs give it) and
 * `filters`, fetched in the page with its session, as the page would format its figures.
 */
async function apiFigures(
  filters: Record<string, string>,
): Promise<{ figures: Record<string, string>; sessions: number; hours: number }> {
  return page.evaluate(
    async ({ filters, names }) => {
      const inputs = document.querySelectorAll<HTMLInputElement>(
        'form[aria-label="Period"] input[type="datetime-local"]',
      );
      const iso = (value: string) => new Date(value).toISOString();
      const query = new URLSearchParams({
        from: iso((inputs[0] as HTMLInputElement).value),
        to: iso((inputs[1] as HTMLInputElement).value),
        ...filters,
      });
      const res = await fetch(`/api/radio/reports/listeners?${query}`, {
        credentials: 'same-origin',
      });
      if (!res.ok) throw new Error(`listeners report: ${res.status} ${await res.text()}`);
      const report = await res.json();
      const unique = (n: number) => `${report.uniquesEstimated ? '≈ ' : ''}${n.toLocaleString()}`;
      const hours = report.listeningHours as number;
      const all: Record<string, string> = {
        Peak: report.peak.listeners.toLocaleString(),
        Cume: unique(report.cume),
        AQH: report.averageQuarterHour.toLocaleString(),
        'Listening hours': hours.toLocaleString(undefined, {
          maximumFractionDigits: hours < 10 ? 2 : 1,
        }),
        Sessions: report.sessions.toLocaleString(),
        'Unique 24 hours': unique(report.uniqueListeners.day),
      };
      const figures: Record<string, string> = {};
      for (const name of names) figures[name] = all[name] as string;
      return { figures, sessions: report.sessions as number, hours };
    },
    { filters, names: [...FIGURES] },
  );
}

/** Waits until the page shows `expected` with no report loading, then checks it. */
async function expectFigures(expected: Record<string, string>): Promise<void> {
  await page
    .waitForFunction(
      ({ expected }) => {
        if (document.querySelector('.report-body[aria-busy="true"]')) return false;
        return Object.entries(expected).every(
          ([name, value]) =>
            document.querySelector(`[data-figure="${name}"] dd`)?.textContent?.trim() === value,
        );
      },
      { expected },
      { timeout: 20_000 },
    )
    .catch(() => {});
  expect(await shownFigures()).toEqual(expected);
}

describe('the Reports page in Chromium', () => {
  it('shows the figures, the world table and the clients of a known hour', async () => {
    await createFirstAdmin(page, web.url, setupCode, ADMIN);
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Reports' })
      .click();
    await page.getByRole('heading', { name: 'Reports', level: 1 }).waitFor();
    const figures = page.getByRole('definition');
    await figures.first().waitFor();
    const figure = async (name: string) =>
      (await page.locator(`[data-figure="${name}"] dd`).textContent())?.trim();
    const report = await page.evaluate(async () => {
      const res = await fetch('/api/radio/reports/listeners', { credentials: 'same-origin' });
      return (await res.json()) as { from: string; to: string; uniquesEstimated: boolean };
    });
    // Counts merged from the hourly sketches are marked as estimates.
    const unique = (count: string) => `${report.uniquesEstimated ? '≈ ' : ''}${count}`;
    expect(await figure('Peak')).toBe('4');
    // L1, L2, L3, L5 and the bot, whose address is not kept.
    expect(await figure('Cume')).toBe(unique('5'));
    expect(await figure('Sessions')).toBe('6');
    // 107.5 minutes.
    expect(await figure('Listening hours')).toBe('1.79');
    // 6,450 s over 6 sessions: 17 min 55 s.
    expect(await figure('Average session')).toBe('17 min');
    expect(await figure('Unique 24 hours')).toBe(unique('5'));
    // Ten quarter hours with ≥ 5 minutes over the day's quarter hours.
    const quarter = 15 * MIN;
    const quarters =
      Math.ceil(Date.parse(report.to) / quarter) - Math.floor(Date.parse(report.from) / quarter);
    expect(await figure('AQH')).toBe(String(Math.round((10 / quarters) * 100) / 100));

    expect(await rowCells('Listeners by country', 'Germany')).toEqual([
      '🇩🇪 Germany',
      '2',
      '1',
      '0.83',
    ]);
    expect(await rowCells('Listeners by country', 'Japan')).toEqual(['🇯🇵 Japan', '1', '1', '0.03']);
    const countries = page.getByRole('table', { name: 'Listeners by country' }).locator('tbody tr');
    await expect(countries.count()).resolves.toBe(5);
    expect(await rowCells('Listeners by client', 'Web browsers')).toEqual([
      'Web browsers',
      '2',
      '1',
      '0.83',
    ]);
    expect(await rowCells('Listeners by client', 'Bots')).toEqual([
      'Bots and monitors',
      '1',
      '1',
      '0.02',
    ]);
    // The chart draws one point per minute of the day.
    const points = Number(
      await page.locator('.chart-line[data-points]').getAttribute('data-points'),
    );
    expect(points).toBeGreaterThanOrEqual(24 * 60);
  }, 300_000);

  it('lists each track with its tune-outs and downloads the play log as CSV', async () => {
    const plays = page.getByRole('table', { name: 'Listeners per track' });
    await plays.waitFor();
    const cells = async (title: string) =>
      (
        await plays
          .getByRole('row', { name: new RegExp(title) })
          .locator('td')
          .allTextContents()
      ).slice(2);
    expect(await cells('Song A')).toEqual(['2', '4', '0', '0 %']);
    expect(await cells('Song B')).toEqual(['4', '2', '2', '50 %']);
    await expect(plays.getByText('Jingle').count()).resolves.toBe(0);
    await page.screenshot({ path: join(ARTIFACTS, 'reports-01-page.png'), fullPage: true });

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^plays-\d{4}-\d\d-\d\d-\d{4}-\d\d-\d\d\.csv$/);
    const csv = await readFile((await download.path()) as string, 'utf8');
    const iso = (ms: number) => new Date(ms).toISOString();
    expect(csv).toBe(
      [
        'time,artist,title,album,isrc,duration,listeners',
        `${iso(at(8))},Artist A,Song A,,,240,3`,
        `${iso(at(12.5))},Artist B,"Song B, ""live""",,,750,4`,
        '',
      ].join('\r\n'),
    );
  }, 120_000);

  it('filters the report by country and client, kept in the URL', async () => {
    const filters = page.getByRole('group', { name: 'Filters' });
    const line = page.locator('.report-filtered');
    const country = filters.getByLabel('Country');
    const client = filters.getByLabel('Client');
    const whole = await apiFigures({});
    await expectFigures(whole.figures);
    // The choices are the whole report's groups; the unknown country is not one (none here).
    const countryChoices = await country.locator('option').allTextContents();
    expect(countryChoices).toEqual([
      'All countries',
      ...['Brazil', 'France', 'Germany', 'Japan', 'United States'],
    ]);
    expect(await filters.getByLabel('Mount').locator('option').allTextContents()).toEqual(
      expect.arrayContaining(['All mounts', '/radio.mp3', '/radio.aac']),
    );
    await expect(line.count()).resolves.toBe(0);

    // Germany only: L1's two sessions on /radio.mp3, 50 minutes.
    await country.selectOption({ label: 'Germany' });
    await page.waitForURL(/[?&]country=DE(&|$)/);
    const germany = await apiFigures({ country: 'DE' });
    expect(germany.sessions).toBe(2);
    expect(germany.figures['Listening hours']).toBe('0.83');
    await expectFigures(germany.figures);
    expect(germany.figures).not.toEqual(whole.figures);
    expect((await line.locator('strong').textContent())?.trim()).toBe('Germany');
    const countryRows = page
      .getByRole('table', { name: 'Listeners by country' })
      .locator('tbody tr');
    await expect(countryRows.count()).resolves.toBe(1);
    // The choices stay the whole report's, not the filtered one's.
    await expect(country.locator('option').count()).resolves.toBe(countryChoices.length);

    // And web browsers only.
    await client.selectOption({ label: 'Web browsers' });
    await page.waitForURL(/[?&]client=browser(&|$)/);
    expect(new URL(page.url()).searchParams.get('country')).toBe('DE');
    const browsers = await apiFigures({ country: 'DE', client: 'browser' });
    await expectFigures(browsers.figures);
    expect((await line.locator('strong').textContent())?.trim()).toBe('Germany · Web browsers');
    await page.screenshot({ path: join(ARTIFACTS, 'reports-03-filtered.png'), fullPage: true });

    // A reload (or a shared link) shows the same.
    await page.reload();
    await page.getByRole('heading', { name: 'Reports', level: 1 }).waitFor();
    await expectFigures((await apiFigures({ country: 'DE', client: 'browser' })).figures);
    expect(await country.inputValue()).toBe('DE');
    expect(await client.inputValue()).toBe('browser');
    expect((await line.locator('strong').textContent())?.trim()).toBe('Germany · Web browsers');

    // Clear filters: the whole report again, and a clean URL.
    await line.getByRole('button', { name: 'Clear filters' }).click();
    await page.waitForURL((url) => url.search === '');
    await expectFigures((await apiFigures({})).figures);
    expect(await page.locator('[data-figure="Sessions"] dd').textContent()).toBe('6');
    expect(await country.inputValue()).toBe('');
    expect(await client.inputValue()).toBe('');
    await expect(line.count()).resolves.toBe(0);
    await expect(countryRows.count()).resolves.toBe(5);

    // A row of the clients table filters to it: the app is L3's 45 minutes on /radio.aac.
    await page
      .getByRole('table', { name: 'Listeners by client' })
      .getByRole('button', { name: 'Apps' })
      .click();
    await page.waitForURL(/[?&]client=app(&|$)/);
    const apps = await apiFigures({ client: 'app' });
    expect(apps.sessions).toBe(1);
    expect(apps.figures['Listening hours']).toBe('0.75');
    await expectFigures(apps.figures);
    expect(await client.inputValue()).toBe('app');
    expect((await line.locator('strong').textContent())?.trim()).toBe('Apps');
    await line.getByRole('button', { name: 'Clear filters' }).click();
    await page.waitForURL((url) => url.search === '');
    await expectFigures((await apiFigures({})).figures);
  }, 180_000);

  it('shows another period from the picker', async () => {
    const local = (ms: number) => {
      const d = new Date(ms);
      const pad = (n: number) => String(n).padStart(2, '0');
      return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
    };
    const period = page.getByRole('form', { name: 'Period' });
    await period.getByLabel('From').fill(local(at(30)));
    await period.getByLabel('To').fill(local(at(45)));
    await period.getByRole('button', { name: 'Show' }).click();
    // Only L3 listens from 30 to 45 minutes; L1 is back at 40.
    await page.locator('[data-figure="Sessions"] dd', { hasText: /^2$/ }).waitFor();
    expect(await page.locator('[data-figure="Peak"] dd').textContent()).toBe('2');
    await page.screenshot({ path: join(ARTIFACTS, 'reports-02-period.png'), fullPage: true });
  }, 60_000);
});
