import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createLogger, type Logger, locateFfmpeg } from '@radio/core';
import { waitFor } from '@radio/core/testing';
import type { Page } from 'playwright-core';
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
 * Going live from the browser, end to end: Debian's Chromium with a fake microphone (it beeps
 * a 400 Hz square wave for about 50 ms every 500 ms) opens the Go live page of the whole
 * station in this process, and a listener of /radio.mp3, connected before and after, hears the
 * beeps: the browser's WebM/Opus went through the web server's proxy, the api's go-live
 * WebSocket and the scheduler's live input onto the mount.
 */

const WAIT = 30_000;
const ADMIN = { username: 'live-boss', password: 'correct horse battery' };
const DJ_NAME = 'Night Owl';
const RATE = 44_100;
/** 25 ms windows: a beep spans two of them, the gaps between beeps eighteen. */
const WINDOW = Math.round(RATE * 0.025);
const BEEP_HZ = 400;

let logger: Logger;
let station: TestStation;
let session: BrowserPage;
let page: Page;

/** A listener that decodes the mount to mono PCM as it arrives, and knows if it was cut. */
class Listener {
  readonly #child: ChildProcess;
  #chunks: Buffer[] = [];
  #bytes = 0;
  exited = false;

  constructor(url: string) {
    const ffmpeg = locateFfmpeg({}).path;
    this.#child = spawn(
      ffmpeg,
      [
        '-hide_banner',
        '-loglevel',
        'error',
        '-i',
        url,
        '-f',
        's16le',
        '-ac',
        '1',
        '-ar',
        String(RATE),
        '-',
      ],
      { stdio: ['ignore', 'pipe', 'ignore'] },
    );
    this.#child.stdout?.on('data', (chunk: Buffer) => {
      this.#chunks.push(chunk);
      this.#bytes += chunk.length;
    });
    this.#child.on('exit', () => {
      this.exited = true;
    });
  }

  /** Seconds of audio heard so far. */
  get seconds(): number {
    return this.#bytes / 2 / RATE;
  }

  /** The audio heard from `fromSeconds` on. */
  samples(fromSeconds = 0): Int16Array {
    const all = Buffer.concat(this.#chunks);
    const start = Math.min(all.length, Math.floor(fromSeconds * RATE) * 2);
    const view = all.subarray(start, all.length - ((all.length - start) % 2));
    return new Int16Array(view.buffer.slice(view.byteOffset, view.byteOffset + view.length));
  }

  stop(): void {
    this.#child.kill('SIGKILL');
  }
}

/** The level of one frequency in a window (Goertzel), linear, 1 = a full-scale sine. */
function toneLevel(pcm: Int16Array, start: number, size: number, hz: number): number {
  const k = 2 * Math.cos((2 * Math.PI * hz) / RATE);
  let s1 = 0;
  let s2 = 0;
  for (let i = start; i < start + size; i++) {
    const s0 = (pcm[i] as number) / 32_768 + k * s1 - s2;
    s2 = s1;
    s1 = s0;
  }
  return Math.sqrt(Math.max(0, s1 * s1 + s2 * s2 - k * s1 * s2)) / (size / 2);
}

function rms(pcm: Int16Array, start: number, size: number): number {
  let sum = 0;
  for (let i = start; i < start + size; i++) sum += ((pcm[i] as number) / 32_768) ** 2;
  return Math.sqrt(sum / size);
}

/**
 * Where the beeps start, in seconds: a window loud at 400 Hz after 200 ms of near silence. The
 * AutoDJ's tones (one of them 392 Hz) never have that silence before them.
 */
function beepOnsets(pcm: Int16Array): number[] {
  const windows = Math.floor(pcm.length / WINDOW);
  const quiet: boolean[] = [];
  const onsets: number[] = [];
  for (let w = 0; w < windows; w++) {
    const start = w * WINDOW;
    quiet.push(rms(pcm, start, WINDOW) < 0.01);
    const silentBefore = w >= 8 && quiet.slice(w - 8, w).every(Boolean);
    if (silentBefore && toneLevel(pcm, start, WINDOW, BEEP_HZ) > 0.05)
      onsets.push((w * WINDOW) / RATE);
  }
  return onsets;
}

/** The longest run of onsets 0.4-0.6 s apart: the fake microphone's beat. */
function regularRun(onsets: number[]): number {
  let best = onsets.length > 0 ? 1 : 0;
  let run = 1;
  for (let i = 1; i < onsets.length; i++) {
    const gap = (onsets[i] as number) - (onsets[i - 1] as number);
    run = gap > 0.4 && gap < 0.6 ? run + 1 : 1;
    best = Math.max(best, run);
  }
  return best;
}

beforeAll(async () => {
  logger = createLogger({ service: 'live-e2e', level: 'warn' });
  await ensureWebBuild();
  station = await startTestStation(logger);
  session = await openPage(WAIT, [
    '--use-fake-device-for-media-stream',
    '--use-fake-ui-for-media-stream',
    // A page in the background must keep recording and sending.
    '--disable-background-timer-throttling',
    '--disable-renderer-backgrounding',
  ]);
  page = session.page;
}, 300_000);

afterAll(async () => {
  await session?.close();
  await station?.stop();
  await new Promise<void>((resolve) => logger?.flush(() => resolve()) ?? resolve());
}, 60_000);

describe('going live from the browser', () => {
  it('gives the admin broadcast credentials on the DJs tab, the password shown once', async () => {
    await createFirstAdmin(page, station.webUrl, station.setupCode, ADMIN);

    await page.goto(`${station.webUrl}/admin/djs`);
    await page.getByText('No DJ has broadcast credentials yet.').waitFor();
    const form = page.getByRole('form', { name: 'Give broadcast credentials' });
    await form
      .getByLabel('DJ', { exact: true })
      .selectOption({ label: `${ADMIN.username} (admin)` });
    await form.getByLabel('Display name (on air)').fill(DJ_NAME);
    await form.getByRole('button', { name: 'Create credentials' }).click();
    const shown = page.getByRole('dialog', { name: 'Broadcast password' });
    await shown.waitFor();
    expect(await shown.getByLabel('Broadcast password').inputValue()).toMatch(/^[A-Za-z0-9]{24}$/);
    await shown.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('table', { name: 'DJ accounts' }).getByText(DJ_NAME).waitFor();

    await page.goto(`${station.webUrl}/dj`);
    const settings = page.getByRole('definition');
    await settings.filter({ hasText: '/live' }).first().waitFor();
    await page.getByText(`icecast://${ADMIN.username}:`).waitFor();
    await page.screenshot({ path: join(ARTIFACTS, 'live-01-dj-page.png'), fullPage: true });
  }, 300_000);

  it('goes live from the Go live page; a listener of /radio.mp3 hears the fake microphone', async () => {
    const streaming = await apiGet<{ mounts: { mount: string; url: string }[] }>(
      page,
      '/streaming-status',
    );
    const mp3 = streaming.mounts.find((mount) => mount.mount === '/radio.mp3');
    if (!mp3) throw new Error('no /radio.mp3 mount');
    const listener = new Listener(mp3.url);
    try {
      await waitFor(
        'the listener hears the AutoDJ',
        () => (listener.seconds > 2 ? true : undefined),
        WAIT,
        200,
      );

      await page.goto(`${station.webUrl}/go-live`);
      const before = listener.seconds;
      await page.getByRole('button', { name: 'Start broadcasting' }).click();
      await page.locator('.go-live-state[data-state=live]').waitFor();
      // The meter runs once the click let the page's audio start.
      await page.getByTestId('level').filter({ hasText: /dBFS/ }).waitFor();
      await page.getByTestId('live-on-air').filter({ hasText: DJ_NAME }).waitFor();
      await page.screenshot({ path: join(ARTIFACTS, 'live-02-go-live.png'), fullPage: true });

      const heard = await waitFor(
        'four beeps of the fake microphone, 0.5 s apart, at the listener',
        () => {
          const onsets = beepOnsets(listener.samples(before));
          return regularRun(onsets) >= 4 ? onsets : undefined;
        },
        40_000,
        500,
      );
      logger.warn({ beeps: heard.length, first: heard[0] }, 'beeps heard at the listener');

      const listen = await session.context.newPage();
      await listen.goto(`${station.webUrl}/`);
      await listen.getByTestId('live-badge').filter({ hasText: DJ_NAME }).waitFor();
      await listen.screenshot({ path: join(ARTIFACTS, 'live-03-listen-badge.png') });
      await listen.close();

      await page.getByRole('button', { name: 'Stop' }).click();
      await page.locator('.go-live-state[data-state=ended]').waitFor({ state: 'attached' });
      await waitFor('the live input empty again', async () => {
        const live = await apiGet<{ onAir: unknown }>(page, '/live');
        return live.onAir === null ? true : undefined;
      });
      const after = listener.seconds;
      await waitFor(
        'the AutoDJ back at the listener',
        () => {
          const pcm = listener.samples(after);
          return pcm.length > RATE && rms(pcm, pcm.length - RATE, RATE) > 0.01 ? true : undefined;
        },
        WAIT,
        200,
      );
      expect(listener.exited).toBe(false);
    } finally {
      listener.stop();
    }
  }, 180_000);
});
