import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  audioContentHash,
  createLogger,
  type Logger,
  locateFfmpeg,
  locateFfprobe,
} from '@radio/core';
import { waitFor } from '@radio/core/testing';
import type { Page } from 'playwright-core';
import { type Capture, listen } from '../../scheduler/tests/helpers/listen.ts';
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
 * Managing the library in Debian's Chromium against the whole station in this process: the
 * title of the track on air edited in the web app reaches the ICY title of /radio.mp3 and the
 * file's own tag (audio packets unchanged); then the track is moved, deleted while on air (it
 * plays on) and restored from the Trash page. One step per test, in order, on one page.
 */

const WAIT = 30_000;
const ADMIN = { username: 'library-boss', password: 'correct horse battery' };
const NEW_TITLE = 'Edited On Air';
const run = promisify(execFile);

interface TrackBody {
  id: number;
  path: string;
  title: string;
  status: string;
}

let logger: Logger;
let station: TestStation;
let session: BrowserPage;
let page: Page;
let onAir: TrackBody;

async function apiPost<T>(path: string, body: unknown): Promise<T> {
  return page.evaluate(
    async ([url, json]) => {
      const res = await fetch(url as string, {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(json),
      });
      return res.json();
    },
    [`/api/radio${path}`, body],
  ) as Promise<T>;
}

async function fileTitle(path: string): Promise<string | undefined> {
  const ffprobe = locateFfprobe(locateFfmpeg());
  const { stdout } = await run(ffprobe, [
    ...['-v', 'error', '-show_entries', 'format_tags=title:stream_tags=title', '-of', 'json'],
    join(station.musicDir, path),
  ]);
  const parsed = JSON.parse(stdout) as {
    format?: { tags?: { title?: string } };
    streams?: { tags?: { title?: string } }[];
  };
  return parsed.format?.tags?.title ?? parsed.streams?.find((s) => s.tags?.title)?.tags?.title;
}

/** Ticks the row of `title` in the library (searched for) and opens an action on it. */
async function onTrack(title: string, action: 'Edit tags' | 'Move to folder' | 'Delete') {
  await page.goto(`${station.webUrl}/library?q=${encodeURIComponent(title)}`);
  await page.getByRole('checkbox', { name: `Select ${title}` }).check();
  await page
    .getByRole('toolbar', { name: 'Selected tracks' })
    .getByRole('button', { name: action })
    .click();
}

beforeAll(async () => {
  logger = createLogger({ service: 'library-e2e', level: 'warn' });
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

describe('managing the library in Chromium', () => {
  it('makes the first admin with the setup code and puts a known track on air', async () => {
    await createFirstAdmin(page, station.webUrl, station.setupCode, ADMIN);
    const list = await apiGet<{ items: TrackBody[] }>(
      page,
      '/tracks?sort=duration&order=desc&limit=100',
    );
    onAir = list.items[0] as TrackBody;
    await apiPost('/player/play', { trackId: onAir.id });
    await waitFor('the chosen track on air', async () => {
      const player = await apiGet<{ nowPlaying: { trackId: number } | null }>(page, '/player');
      return player.nowPlaying?.trackId === onAir.id;
    });
  }, 60_000);

  it("edits the on-air track's title: the ICY title, the file's tag, the audio unchanged", async () => {
    const streams = await apiGet<{ mounts: { mount: string; url: string }[] }>(
      page,
      '/streaming-status',
    );
    const mp3 = streams.mounts.find((mount) => mount.mount === '/radio.mp3') as { url: string };
    const hash = await audioContentHash(join(station.musicDir, onAir.path));
    const listening = Date.now();
    const heard: Promise<Capture> = listen(mp3.url, 60_000, (capture) =>
      capture.titles.some((entry) => entry.title.endsWith(NEW_TITLE)),
    );

    await onTrack(onAir.title, 'Edit tags');
    const dialog = page.getByTestId('edit-tags');
    await dialog.getByLabel('Title').fill(NEW_TITLE);
    const clicked = Date.now();
    await dialog.getByRole('button', { name: 'Save to the files' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const saved = Date.now();
    await page.goto(`${station.webUrl}/library?q=${encodeURIComponent(NEW_TITLE)}`);
    await page.locator('[data-testid=track-row] .cell-title', { hasText: NEW_TITLE }).waitFor();
    await page.screenshot({ path: join(ARTIFACTS, 'library-01-edited.png'), fullPage: true });

    const capture = await heard;
    const icy = capture.titles.find((entry) => entry.title.endsWith(NEW_TITLE));
    expect(icy).toBeDefined();
    const at = listening + (icy?.ms ?? 0);
    process.stdout.write(
      `[library e2e] Save to ICY title on /radio.mp3: ${at - clicked} ms ` +
        `(the save answered after ${saved - clicked} ms, once the index showed the new tags)\n`,
    );
    expect(await fileTitle(onAir.path)).toBe(NEW_TITLE);
    expect(await audioContentHash(join(station.musicDir, onAir.path))).toBe(hash);
    const player = await apiGet<{ nowPlaying: { trackId: number; title: string } }>(
      page,
      '/player',
    );
    expect(player.nowPlaying).toMatchObject({ trackId: onAir.id, title: NEW_TITLE });
  }, 90_000);

  it('moves the track to a new folder; it keeps its id', async () => {
    await onTrack(NEW_TITLE, 'Move to folder');
    const dialog = page.getByTestId('move-tracks');
    await dialog.getByLabel(/Folder/).fill('E2E/Moved');
    await dialog.getByRole('button', { name: 'Move' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const moved = await apiGet<TrackBody>(page, `/tracks/${onAir.id}`);
    expect(moved.path).toMatch(/^E2E\/Moved\//);
    onAir = moved;
    await page.goto(`${station.webUrl}/library?folder=E2E%2FMoved`);
    await page.locator('[data-testid=track-row] .cell-title', { hasText: NEW_TITLE }).waitFor();
  }, 60_000);

  it('deletes the track on air: the notice says it plays on, and it does', async () => {
    await onTrack(NEW_TITLE, 'Delete');
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    const notice = page.getByTestId('delete-notice');
    await notice.getByText('Moved 1 track to the Trash').waitFor();
    await notice.getByText(`"${NEW_TITLE}" is on air now: it plays to its end.`).waitFor();
    await page.screenshot({ path: join(ARTIFACTS, 'library-02-deleted.png'), fullPage: true });
    await page.getByRole('button', { name: 'Done' }).click();
    // The decoder has the file open: the track plays on, its position still moving.
    const before = await apiGet<{ nowPlaying: { trackId: number }; position: number }>(
      page,
      '/player',
    );
    expect(before.nowPlaying.trackId).toBe(onAir.id);
    await waitFor('the deleted track to play on', async () => {
      const now = await apiGet<{ nowPlaying: { trackId: number } | null; position: number }>(
        page,
        '/player',
      );
      return now.nowPlaying?.trackId === onAir.id && now.position > before.position + 2;
    });
    const gone = await apiGet<{ total: number }>(
      page,
      `/tracks?q=${encodeURIComponent(NEW_TITLE)}`,
    );
    expect(gone.total).toBe(0);
  }, 60_000);

  it('restores it from the Trash page', async () => {
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Trash' })
      .click();
    const row = page.locator('[data-testid=trash-row]', { hasText: NEW_TITLE });
    await row.waitFor();
    await page.screenshot({ path: join(ARTIFACTS, 'library-03-trash.png'), fullPage: true });
    await row.getByRole('button', { name: `Restore ${NEW_TITLE}` }).click();
    await row.waitFor({ state: 'detached' });
    const back = await apiGet<TrackBody>(page, `/tracks/${onAir.id}`);
    expect(back).toMatchObject({ id: onAir.id, path: onAir.path, status: 'ok' });
    await page.goto(`${station.webUrl}/library?q=${encodeURIComponent(NEW_TITLE)}`);
    await page.locator('[data-testid=track-row] .cell-title', { hasText: NEW_TITLE }).waitFor();
  }, 60_000);
});
