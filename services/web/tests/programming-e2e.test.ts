import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createLogger, type Logger } from '@radio/core';
import { waitFor } from '@radio/core/testing';
import type { Locator, Page } from 'playwright-core';
import { ensureWebBuild } from '../server/index.ts';
import {
  ARTIFACTS,
  apiGet,
  type BrowserPage,
  createFirstAdmin,
  openPage,
} from './helpers/browser.ts';
import { startTestStation, type TestStation } from './helpers/station.ts';

/*
 * Programming in Debian's Chromium against the whole station in this process: the admin makes
 * a schedule entry in the week calendar, drags it two hours later (checked in the api), and is
 * refused an overlapping one with the api's message; sets the request rules in the Admin tab; a
 * listener requests two tracks, the admin removes one, and My requests follows both over the
 * event stream to "removed" and, with the real scheduler, to "played"; the Listen page shows
 * what is coming up and the Timeline page the plan. The admin then edits the entry's days and
 * times in its calendar dialog, and on the playlist's page sets its programming and adds a
 * schedule entry in the same dialog (refused first for an overlap), sees it in the calendar and
 * deletes it there again. One step per test, in order.
 *
 * The demo library has five tracks by three artists: the separation rules are set to zero so a
 * request is not held back for half an hour (the rules have their own tests in the scheduler).
 */

const WAIT = 30_000;
const ADMIN = { username: 'programme-boss', password: 'correct horse battery' };
const LISTENER = { username: 'request-fan', password: 'another good phrase' };

interface TrackBody {
  id: number;
  title: string;
  status: string;
}
interface ScheduleBody {
  id: number;
  playlistId: number | null;
  days: number[];
  startTime: string;
  endTime: string;
}

let logger: Logger;
let station: TestStation;
let session: BrowserPage;
let page: Page;
let listener: Page;
let playlist: { id: number; name: string };
let entryId: number;
let addedId: number;
let wanted: TrackBody;
let unwanted: TrackBody;

/** A JSON request of the api from inside `on`, with its session cookie. */
async function apiSend<T>(on: Page, method: string, path: string, body?: unknown): Promise<T> {
  return on.evaluate(
    async ([verb, url, json]) => {
      const res = await fetch(url as string, {
        method: verb as string,
        credentials: 'same-origin',
        headers: { 'content-type': 'application/json' },
        body: json === undefined ? undefined : JSON.stringify(json),
      });
      return res.status === 204 ? null : res.json();
    },
    [method, `/api/radio${path}`, body],
  ) as Promise<T>;
}

function shot(on: Page, name: string, fullPage = true): Promise<Buffer> {
  return on.screenshot({ path: join(ARTIFACTS, `programming-${name}.png`), fullPage });
}

/** The Monday column's point at `hour`:20 (the grid's hours are 40 px high). */
async function clickHour(hour: number): Promise<void> {
  const monday = page.locator('.week-day').first();
  await monday.click({ position: { x: 30, y: hour * 40 + 14 } });
}

/** Ticks exactly `days` (1 = Monday) among the day boxes of a schedule entry's dialog. */
async function chooseDays(dialog: Locator, days: number[]): Promise<void> {
  const names = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
  for (const [index, name] of names.entries()) {
    await dialog.getByRole('checkbox', { name, exact: true }).setChecked(days.includes(index + 1));
  }
}

async function schedules(): Promise<ScheduleBody[]> {
  return (await apiGet<{ schedules: ScheduleBody[] }>(page, '/schedules')).schedules;
}

beforeAll(async () => {
  logger = createLogger({ service: 'programming-e2e', level: 'warn' });
  await ensureWebBuild();
  station = await startTestStation(logger, {
    ARTIST_SEPARATION_MINUTES: '0',
    TRACK_SEPARATION_MINUTES: '0',
  });
  session = await openPage(WAIT);
  page = session.page;
}, 300_000);

afterAll(async () => {
  await session?.close();
  await station?.stop();
  await new Promise<void>((resolve) => logger?.flush(() => resolve()) ?? resolve());
}, 60_000);

describe('programming in Chromium', () => {
  it('signs in the admin and makes a playlist of the library', async () => {
    await createFirstAdmin(page, station.webUrl, station.setupCode, ADMIN);
    const tracks = await apiGet<{ items: TrackBody[] }>(page, '/tracks?limit=100');
    const playable = tracks.items.filter((track) => track.status === 'ok');
    expect(playable.length).toBeGreaterThanOrEqual(3);
    playlist = await apiSend(page, 'POST', '/playlists', { name: 'Morning Mix', isPublic: true });
    await apiSend(page, 'POST', `/playlists/${playlist.id}/tracks`, {
      trackIds: playable.map((track) => track.id),
    });
  }, 60_000);

  it('creates a schedule entry by clicking an empty hour of the calendar', async () => {
    await page.goto(`${station.webUrl}/schedule`);
    await page.getByTestId('week-grid').waitFor();
    await clickHour(10);
    const dialog = page.getByRole('dialog', { name: 'New schedule entry' });
    await expect(dialog.getByLabel('Start time').inputValue()).resolves.toBe('10:00');
    await dialog.getByRole('combobox', { name: 'Playlist' }).selectOption(String(playlist.id));
    await dialog.getByRole('button', { name: 'Create' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: /^Morning Mix \(Playlist\), 10:00 to 11:00/ }).waitFor();
    const [entry] = await schedules();
    expect(entry).toMatchObject({ days: [1], startTime: '10:00', endTime: '11:00' });
    entryId = (entry as ScheduleBody).id;
    await shot(page, '01-created');
  }, 60_000);

  it('drags the entry two hours later: the api has it at 12:00', async () => {
    const block = page.locator(`.week-block[data-schedule-id="${entryId}"]`);
    await block.scrollIntoViewIfNeeded();
    const box = await block.boundingBox();
    if (!box) throw new Error('the entry is not drawn');
    const x = box.x + box.width / 2;
    const y = box.y + 10;
    await page.mouse.move(x, y);
    await page.mouse.down();
    await page.mouse.move(x, y + 40, { steps: 5 });
    await page.mouse.move(x, y + 80, { steps: 5 });
    await page.mouse.up();
    await waitFor('the entry moved in the api', async () => {
      const [entry] = await schedules();
      return entry?.startTime === '12:00';
    });
    expect((await schedules())[0]).toMatchObject({
      id: entryId,
      days: [1],
      startTime: '12:00',
      endTime: '13:00',
    });
    await page.getByRole('button', { name: /^Morning Mix \(Playlist\), 12:00 to 13:00/ }).waitFor();
    await shot(page, '02-moved');
  }, 60_000);

  it('refuses an overlapping entry with the message naming the other one', async () => {
    await clickHour(11);
    const dialog = page.getByRole('dialog', { name: 'New schedule entry' });
    await dialog.getByLabel('End time').fill('12:30');
    await dialog.getByRole('combobox', { name: 'Playlist' }).selectOption(String(playlist.id));
    await dialog.getByRole('button', { name: 'Create' }).click();
    const alert = dialog.getByRole('alert');
    await alert.waitFor();
    const message = (await alert.textContent()) ?? '';
    expect(message).toContain('Morning Mix');
    expect(message).toMatch(/12:00/);
    await shot(page, '03-overlap');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(await schedules()).toHaveLength(1);
  }, 60_000);

  it('sets the request rules in the Admin tab', async () => {
    await page.goto(`${station.webUrl}/admin/requests`);
    const form = page.getByRole('form', { name: 'Request settings' });
    await form.getByLabel('Minimum delay before a request plays (minutes)').fill('1');
    await form.getByLabel('Not played or requested within (minutes)').fill('0');
    await form.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Request settings saved.').waitFor();
    const settings = await apiGet<{ minDelayMinutes: number; thresholdMinutes: number }>(
      page,
      '/settings/requests',
    );
    expect(settings).toMatchObject({ minDelayMinutes: 1, thresholdMinutes: 0, enabled: true });
  }, 60_000);

  it('lets a listener request two tracks from the library', async () => {
    await apiSend(page, 'POST', '/users', { ...LISTENER, role: 'listener' });
    const context = await session.browser.newContext({ viewport: { width: 1280, height: 900 } });
    listener = await context.newPage();
    listener.setDefaultTimeout(WAIT);
    await listener.goto(`${station.webUrl}/signin`);
    await listener.getByLabel('User name').fill(LISTENER.username);
    await listener.getByLabel('Password').fill(LISTENER.password);
    await listener.getByRole('button', { name: 'Sign in' }).click();
    await listener.locator('.account-name .badge', { hasText: 'listener' }).waitFor();

    const player = await apiGet<{ nowPlaying: { trackId: number } | null }>(listener, '/player');
    const tracks = await apiGet<{ items: TrackBody[] }>(listener, '/tracks?limit=100');
    const others = tracks.items.filter(
      (track) => track.status === 'ok' && track.id !== player.nowPlaying?.trackId,
    );
    [wanted, unwanted] = others as [TrackBody, TrackBody];
    for (const track of [wanted, unwanted]) {
      await listener.goto(`${station.webUrl}/library?q=${encodeURIComponent(track.title)}`);
      await listener.getByRole('button', { name: `Request ${track.title}` }).click();
      await listener.getByText(`Requested ${track.title}.`).waitFor();
    }
    await shot(listener, '04-library');
  }, 60_000);

  it('shows the admin the pending requests; one is removed, and its requester sees why', async () => {
    await listener.goto(`${station.webUrl}/requests`);
    await listener.getByTestId('my-requests').waitFor();
    await page.goto(`${station.webUrl}/admin/requests`);
    const pending = page.getByTestId('pending-requests');
    await pending.getByText(wanted.title).waitFor();
    await shot(page, '05-admin-requests');
    await pending
      .getByRole('button', {
        name: `Remove the request for ${unwanted.title} by ${LISTENER.username}`,
      })
      .click();
    await page.getByText('Request removed.').waitFor();
    const row = listener.getByTestId('request-row').filter({ hasText: unwanted.title });
    await row.getByText(/^Removed/).waitFor();
  }, 60_000);

  it('follows the kept request over the event stream: planned with a time, then played', async () => {
    const row = listener.getByTestId('request-row').filter({ hasText: wanted.title });
    await row.getByText(/^Planned at about \d\d:\d\d$/).waitFor({ timeout: 120_000 });
    await shot(listener, '06-planned');
    // After the minute's delay it takes the next slot: at most the longest demo track away.
    await row.getByText(/^Played at \d\d:\d\d$/).waitFor({ timeout: 200_000 });
    await shot(listener, '07-played');
    const mine = await apiGet<{ requests: { track: { id: number }; status: string }[] }>(
      listener,
      '/requests/mine',
    );
    expect(mine.requests.find((r) => r.track.id === wanted.id)?.status).toBe('played');
  }, 330_000);

  it('shows what is coming up on the Listen page, and the plan on the Timeline page', async () => {
    await listener.goto(`${station.webUrl}/`);
    const comingUp = listener.getByTestId('coming-up');
    await comingUp.getByRole('heading', { name: 'Coming up' }).waitFor();
    await waitFor(
      'three tracks coming up',
      async () => (await comingUp.locator('li').count()) === 3,
    );
    await shot(listener, '08-listen');

    await page.goto(`${station.webUrl}/schedule`);
    await page
      .getByRole('navigation', { name: 'Schedule views' })
      .getByRole('link', { name: 'Timeline' })
      .click();
    const rows = page.getByTestId('timeline').locator('tbody tr');
    await rows.first().waitFor();
    expect(await rows.count()).toBeGreaterThan(1);
    await shot(page, '09-timeline', false);

    // A DJ whose browser is in another zone reads the plan in the station's time (UTC here),
    // as the schedule is kept.
    const away = await session.browser.newContext({
      storageState: await session.context.storageState(),
      timezoneId: 'Pacific/Auckland',
    });
    try {
      const dj = await away.newPage();
      await dj.goto(`${station.webUrl}/schedule/timeline`);
      await dj.getByText('times in the station’s zone, UTC').waitFor({ timeout: WAIT });
      const first = dj.getByTestId('timeline').locator('tbody tr time').first();
      const at = (await first.getAttribute('datetime')) as string;
      expect((await first.textContent())?.trim()).toBe(at.slice(11, 16));
    } finally {
      await away.close();
    }
  }, 60_000);

  it('edits the entry in its calendar dialog: Monday and Wednesday, 14:00 to 15:00', async () => {
    await page.goto(`${station.webUrl}/schedule`);
    const block = page.locator(`.week-block[data-schedule-id="${entryId}"]`);
    await block.scrollIntoViewIfNeeded();
    await block.click();
    const dialog = page.getByRole('dialog', { name: 'Edit schedule entry' });
    await expect(dialog.getByLabel('Start time').inputValue()).resolves.toBe('12:00');
    await expect(dialog.getByRole('combobox', { name: 'Playlist' }).inputValue()).resolves.toBe(
      String(playlist.id),
    );
    await dialog.getByLabel('Start time').fill('14:00');
    await dialog.getByLabel('End time').fill('15:00');
    await chooseDays(dialog, [1, 3]);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByText('Schedule entry saved.').waitFor();
    expect(await schedules()).toEqual([
      expect.objectContaining({
        id: entryId,
        playlistId: playlist.id,
        days: [1, 3],
        startTime: '14:00',
        endTime: '15:00',
      }),
    ]);
    const label = /^Morning Mix \(Playlist\), 14:00 to 15:00/;
    await page.locator('.week-day').nth(0).getByRole('button', { name: label }).waitFor();
    await page.locator('.week-day').nth(2).getByRole('button', { name: label }).waitFor();
    expect(await page.getByRole('button', { name: /^Morning Mix \(Playlist\)/ }).count()).toBe(2);
    await shot(page, '10-edited');
  }, 60_000);

  it("edits the playlist's programming: on air, every 4 songs, in order", async () => {
    await page.goto(`${station.webUrl}/playlists/${playlist.id}`);
    const part = page.getByRole('region', { name: 'Programming' });
    await part.getByRole('switch', { name: 'On air' }).check();
    await part.getByLabel('Kind').selectOption('every_n_songs');
    await part.getByLabel('After every how many songs (1-100)').fill('4');
    await part.getByLabel('Order').selectOption('sequential');
    await part.getByRole('button', { name: 'Save programming' }).click();
    await page.getByText('Programming saved.').waitFor();
    const saved = await apiGet<Record<string, unknown>>(page, `/playlists/${playlist.id}`);
    expect(saved).toMatchObject({
      onAir: true,
      kind: 'every_n_songs',
      interval: 4,
      order: 'sequential',
    });
    await part.getByText('Mon, Wed 14:00–15:00').waitFor();
    await shot(page, '11-playlist');
  }, 60_000);

  it('adds a schedule entry from the playlist page: an overlap is refused, Sunday 06:00 is not', async () => {
    const part = page.getByRole('region', { name: 'Programming' });
    const section = part.getByTestId('playlist-schedule');
    await section.getByRole('button', { name: 'Add a schedule entry' }).click();
    const dialog = page.getByRole('dialog', { name: 'New schedule entry' });
    await expect(dialog.getByRole('combobox', { name: 'Playlist' }).inputValue()).resolves.toBe(
      String(playlist.id),
    );

    await chooseDays(dialog, [1]);
    await dialog.getByLabel('Start time').fill('14:30');
    await dialog.getByLabel('End time').fill('15:30');
    await dialog.getByRole('button', { name: 'Create' }).click();
    const alert = dialog.getByRole('alert');
    await alert.waitFor();
    const message = (await alert.textContent()) ?? '';
    expect(message).toContain('Morning Mix');
    expect(message).toMatch(/14:00/);
    await shot(page, '12-playlist-overlap', false);
    expect(await schedules()).toHaveLength(1);

    await chooseDays(dialog, [7]);
    await dialog.getByLabel('Start time').fill('06:00');
    await dialog.getByLabel('End time').fill('08:00');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await section.getByText('Sun 06:00–08:00').waitFor();
    const added = (await schedules()).find((entry) => entry.id !== entryId);
    expect(added).toMatchObject({
      playlistId: playlist.id,
      days: [7],
      startTime: '06:00',
      endTime: '08:00',
    });
    addedId = (added as ScheduleBody).id;
    // The entries by day, Monday first.
    const rows = await section.locator('li').allTextContents();
    expect(rows.map((row) => row.replace(/Edit$/, ''))).toEqual([
      'Mon, Wed 14:00–15:00',
      'Sun 06:00–08:00',
    ]);
    // Shown without the toasts over the entries' buttons.
    await waitFor('the toasts gone', async () => (await page.locator('.toast').count()) === 0);
    await shot(page, '13-playlist-added');
  }, 60_000);

  it('shows the added entry in the calendar, and deletes it from the playlist page', async () => {
    await page.goto(`${station.webUrl}/schedule`);
    const sunday = page.locator('.week-day').nth(6);
    await sunday
      .locator(`.week-block[data-schedule-id="${addedId}"]`)
      .getByText('06:00–08:00')
      .waitFor();
    await sunday
      .getByRole('button', { name: /^Morning Mix \(Playlist\), 06:00 to 08:00/ })
      .waitFor();

    await page.goto(`${station.webUrl}/playlists/${playlist.id}`);
    const section = page.getByTestId('playlist-schedule');
    await section.getByRole('button', { name: 'Edit the schedule entry Sun 06:00–08:00' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit schedule entry' });
    await expect(dialog.getByLabel('Start time').inputValue()).resolves.toBe('06:00');
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByText('Schedule entry deleted.').waitFor();
    await section.getByText('Sun 06:00–08:00').waitFor({ state: 'detached' });
    await section.getByText('Mon, Wed 14:00–15:00').waitFor();
    expect((await schedules()).map((entry) => entry.id)).toEqual([entryId]);
  }, 60_000);
});
