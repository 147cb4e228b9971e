import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createLogger, type Logger, locateFfmpeg } from '@radio/core';
import { generateTrack, writeCorruptFile } from '@radio/core/test-audio';
import type { Page } from 'playwright-core';
import { ensureWebBuild } from '../server/index.ts';
import { ARTIFACTS, type BrowserPage, createFirstAdmin, openPage } from './helpers/browser.ts';
import { startTestStation, type TestStation } from './helpers/station.ts';

/*
 * Uploading in Debian's Chromium against the whole station in this process (web server, its
 * /api proxy, api, scheduler): three files picked on the Upload page, an MP3 and a FLAC added
 * and playable (pushed to the queue by their new paths), a corrupt one refused with its
 * reason, nothing of it left in the music folder. One step per test, in order, on one page.
 */

const WAIT = 60_000;
const ADMIN = { username: 'upload-boss', password: 'correct horse battery' };
const FOLDER = 'E2E Uploads';

let logger: Logger;
let station: TestStation;
let session: BrowserPage;
let page: Page;
let fixtures: string;

interface QueueAnswer {
  status: number;
  body: {
    requestId?: string;
    item?: { trackId: number | null; path: string; title: string };
    error?: { code: string; message: string };
  };
}

async function pushToQueue(uri: string): Promise<QueueAnswer> {
  return page.evaluate(async (path) => {
    const res = await fetch('/api/radio/player/queue', {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ uri: path }),
    });
    return { status: res.status, body: await res.json() };
  }, uri);
}

async function sha256(path: string): Promise<string> {
  return createHash('sha256')
    .update(await readFile(path))
    .digest('hex');
}

async function musicFiles(): Promise<string[]> {
  const entries = await readdir(station.musicDir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(station.musicDir.length + 1))
    .sort();
}

beforeAll(async () => {
  logger = createLogger({ service: 'upload-e2e', level: 'warn' });
  fixtures = await mkdtemp(join(tmpdir(), 'upload-e2e-'));
  const ffmpegPath = locateFfmpeg().path;
  const tags = (title: string) => ({ title, artist: 'Browser Band', album: 'Uploaded' });
  await generateTrack(
    join(fixtures, 'Browser Song.mp3'),
    { format: 'mp3', durationSeconds: 6, frequency: 350, tags: tags('Browser Song') },
    { ffmpegPath },
  );
  await generateTrack(
    join(fixtures, 'Browser Lossless.flac'),
    { format: 'flac', durationSeconds: 6, frequency: 470, tags: tags('Browser Lossless') },
    { ffmpegPath },
  );
  await writeCorruptFile(join(fixtures, 'Broken Upload.mp3'));
  // Three minutes of PCM, about 30 MB: long enough to reload the page half-way.
  await generateTrack(
    join(fixtures, 'Resumed Take.wav'),
    { format: 'wav', durationSeconds: 180, frequency: 530 },
    { ffmpegPath },
  );
  await ensureWebBuild();
  station = await startTestStation(logger);
  session = await openPage(WAIT);
  page = session.page;
}, 300_000);

afterAll(async () => {
  await session?.close();
  await station?.stop();
  if (fixtures) await rm(fixtures, { recursive: true, force: true });
  await new Promise<void>((resolve) => logger?.flush(() => resolve()) ?? resolve());
}, 60_000);

describe('uploading in Chromium', () => {
  it('makes the first admin with the setup code, who gets the Upload page', async () => {
    await createFirstAdmin(page, station.webUrl, station.setupCode, ADMIN);
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Upload' })
      .click();
    await page.getByRole('heading', { name: 'Upload' }).waitFor();
  });

  it('uploads an MP3, a FLAC and a corrupt file: two added, one refused with its reason', async () => {
    await page.getByTestId('upload-folder').fill(FOLDER);
    await page
      .getByTestId('upload-files')
      .setInputFiles(
        ['Browser Song.mp3', 'Browser Lossless.flac', 'Broken Upload.mp3'].map((name) =>
          join(fixtures, name),
        ),
      );
    const rows = page.getByTestId('upload-row');
    await page.waitForFunction(
      () => document.querySelectorAll('[data-testid=upload-row]').length === 3,
    );
    // Every row ends: added, or refused.
    await page.waitForFunction(
      () =>
        [...document.querySelectorAll('[data-testid=upload-row]')].every((row) =>
          ['added', 'refused', 'duplicate', 'failed'].includes(
            row.getAttribute('data-state') ?? '',
          ),
        ),
      null,
      { timeout: WAIT },
    );
    await page.screenshot({ path: join(ARTIFACTS, 'upload-results.png'), fullPage: true });
    const states = await rows.evaluateAll((all) =>
      all.map((row) => [
        row.querySelector('.cell-title')?.textContent,
        row.getAttribute('data-state'),
        row.querySelector('[data-testid=upload-outcome]')?.textContent,
      ]),
    );
    expect(states.map(([name, state]) => [name, state])).toEqual([
      [`${FOLDER}/Browser Song.mp3`, 'added'],
      [`${FOLDER}/Browser Lossless.flac`, 'added'],
      [`${FOLDER}/Broken Upload.mp3`, 'refused'],
    ]);
    expect(states[2]?.[2]).toMatch(
      /^Refused: an audio file that cannot be read|^Refused: the audio cannot be decoded/,
    );
  });

  it('links each added file to its track, and both play: pushed to the queue by their new paths', async () => {
    const links = page.getByTestId('upload-outcome').getByRole('link');
    expect(await links.count()).toBe(2);
    const added = [
      [`${FOLDER}/Browser Song.mp3`, 'Browser Song'],
      [`${FOLDER}/Browser Lossless.flac`, 'Browser Lossless'],
    ];
    for (const [path, title] of added) {
      const answer = await pushToQueue(path as string);
      expect([answer.status, answer.body.error]).toEqual([201, undefined]);
      // A library track (not a bare file): the scheduler indexed the upload.
      expect(answer.body.item).toMatchObject({ path, title, trackId: expect.any(Number) });
    }
    await links.first().click();
    await page.getByRole('cell', { name: 'Browser Song' }).first().waitFor();
  });

  it('leaves the corrupt file nowhere in the music folder, and no unfinished upload', async () => {
    const files = await musicFiles();
    expect(files).toContain(`${FOLDER}/Browser Song.mp3`);
    expect(files).toContain(`${FOLDER}/Browser Lossless.flac`);
    expect(files.filter((path) => path.includes('Broken Upload'))).toEqual([]);
    expect(files.filter((path) => path.startsWith('.uploads/'))).toEqual([]);
  });

  it('shows the uploads in the audit log and the free space on the Admin page', async () => {
    await page.goto(`${station.webUrl}/admin/audit`);
    const log = page.getByTestId('audit-log');
    await log.getByText(`${FOLDER}/Browser Lossless.flac`).waitFor();
    expect(await log.getByText(ADMIN.username).count()).toBe(2);
    await page.goto(`${station.webUrl}/admin/library`);
    const free = page.getByTestId('storage-free');
    await free.waitFor();
    expect(await free.textContent()).toMatch(/\d/);
  });

  it('resumes an upload after a reload of the page half-way, with one upload on the server', async () => {
    const file = join(fixtures, 'Resumed Take.wav');
    const { size } = await stat(file);
    const creations: string[] = [];
    const onRequest = (req: { method(): string; url(): string }) => {
      if (req.method() === 'POST' && req.url().endsWith('/api/radio/uploads'))
        creations.push(req.url());
    };
    session.context.on('request', onRequest);
    // A slow uplink (4 MB/s), so the reload lands in the middle of the upload.
    const cdp = await session.context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: 4 * 1024 * 1024,
    });
    await page.goto(`${station.webUrl}/upload`);
    await page.getByTestId('upload-files').setInputFiles(file);
    const bar = page.getByRole('progressbar', { name: 'Upload of Resumed Take.wav' });
    await page.waitForFunction((min) => {
      const now = document.querySelector(
        '[role=progressbar][aria-label="Upload of Resumed Take.wav"]',
      );
      return Number(now?.getAttribute('aria-valuenow')) > min;
    }, size / 4);
    const before = Number(await bar.getAttribute('aria-valuenow'));
    expect(before).toBeLessThan(size);
    await page.reload();
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
    await page.getByTestId('upload-files').setInputFiles(file);
    await page.locator('[data-testid=upload-row][data-state=added]').waitFor();
    session.context.off('request', onRequest);
    expect(creations).toHaveLength(1);
    const stored = join(station.musicDir, 'Resumed Take.wav');
    expect(await sha256(stored)).toBe(await sha256(file));
  });
});
