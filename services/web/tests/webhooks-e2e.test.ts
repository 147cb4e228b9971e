import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createLogger, type Logger } from '@radio/core';
import { waitFor } from '@radio/core/testing';
import type { Page } from 'playwright-core';
import { signatureIsValid, WebhookReceiver } from '../../api/tests/helpers/webhook-receiver.ts';
import { ensureWebBuild } from '../server/index.ts';
import { ARTIFACTS, type BrowserPage, createFirstAdmin, openPage } from './helpers/browser.ts';
import { type OtherHost, startOtherHost } from './helpers/other-host.ts';
import { startTestStation, type TestStation } from './helpers/station.ts';

/*
 * The admin's Webhooks tab in Debian's Chromium against the whole station in this process: a
 * webhook is added (its secret shown once), a test is sent and its delivery listed, and a real
 * song change reaches the receiver signed. The station refuses every address of the machine it
 * runs on (they could be its own services), so the receiver stands on another host: a network
 * namespace whose relay pipes to it. The receiver's own address, the machine's end of that
 * link, is refused.
 */

const WAIT = 30_000;
const ADMIN = { username: 'hook-boss', password: 'correct horse battery' };
const HOOK = 'E2E receiver';

let logger: Logger;
let station: TestStation;
let session: BrowserPage;
let page: Page;
let otherHost: OtherHost;
let receiver: WebhookReceiver;
/** The receiver as the other host offers it: the URL the webhook is given. */
let receiverUrl: string;
let secret: string;

async function apiPost(path: string): Promise<number> {
  return page.evaluate(async (url) => {
    const res = await fetch(url, { method: 'POST', credentials: 'same-origin' });
    return res.status;
  }, `/api/radio${path}`);
}

beforeAll(async () => {
  logger = createLogger({ service: 'webhooks-e2e', level: 'warn' });
  otherHost = await startOtherHost();
  receiver = await new WebhookReceiver(otherHost.hostAddress).start();
  const url = new URL(receiver.url);
  await otherHost.forward(Number(url.port));
  url.hostname = otherHost.address;
  receiverUrl = url.href;
  await ensureWebBuild();
  station = await startTestStation(logger);
  session = await openPage(WAIT);
  page = session.page;
}, 300_000);

afterAll(async () => {
  await session?.close();
  await station?.stop();
  await receiver?.stop();
  await otherHost?.stop();
  await new Promise<void>((resolve) => logger?.flush(() => resolve()) ?? resolve());
}, 60_000);

describe('webhooks in Chromium', () => {
  it('adds a webhook on the admin Webhooks tab and shows its secret once', async () => {
    await createFirstAdmin(page, station.webUrl, station.setupCode, ADMIN);

    await page.goto(`${station.webUrl}/admin`);
    await page
      .getByRole('navigation', { name: 'Admin sections' })
      .getByRole('link', { name: 'Webhooks' })
      .click();
    await page.getByText('No webhook yet.').waitFor();
    const form = page.getByRole('region', { name: 'New webhook' });
    await form.getByLabel('Name').fill(HOOK);
    await form.getByLabel('URL').fill(receiver.url);
    await form.getByRole('checkbox', { name: /Dead air skipped/ }).check();
    await form.getByRole('button', { name: 'Add webhook' }).click();
    await form
      .getByRole('alert')
      .filter({ hasText: `${otherHost.hostAddress}, an address of the machine the api runs on` })
      .waitFor();

    await form.getByLabel('URL').fill(receiverUrl);
    await form.getByRole('button', { name: 'Add webhook' }).click();

    const shown = page.getByRole('dialog', { name: "The webhook's secret" });
    await shown.waitFor();
    secret = await shown.getByLabel('Webhook secret').inputValue();
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    await page.screenshot({ path: join(ARTIFACTS, 'webhooks-01-secret.png'), fullPage: true });
    await shown.getByRole('button', { name: 'Done' }).click();
    const row = page
      .getByRole('table', { name: 'Webhooks' })
      .getByRole('row', { name: new RegExp(HOOK) });
    await row.getByText('song.changed, playout.dead_air').waitFor();
  }, 300_000);

  it('sends a test and lists the delivery with its answer and latency', async () => {
    await page.getByRole('button', { name: `Send a test to ${HOOK}` }).click();
    const deliveries = page.getByRole('table', { name: `Deliveries of ${HOOK}` });
    const delivered = deliveries.locator('tr[data-status=delivered]', { hasText: 'test' });
    await delivered.waitFor();
    await expect(delivered.locator('td').nth(3).textContent()).resolves.toBe('204');
    await expect(delivered.locator('td').nth(4).textContent()).resolves.toMatch(/^\d+ ms$/);
    await page.screenshot({ path: join(ARTIFACTS, 'webhooks-02-test.png'), fullPage: true });
    const test = receiver.received.find((r) => r.headers['x-radio-event'] === 'test');
    expect(test && signatureIsValid(secret, test)).toBe(true);
  }, 60_000);

  it('tells the receiver of a real song change, signed', async () => {
    expect(await apiPost('/player/skip')).toBe(200);
    const change = await waitFor('song.changed at the receiver', () =>
      receiver.received.find((r) => r.headers['x-radio-event'] === 'song.changed'),
    );
    expect(signatureIsValid(secret, change)).toBe(true);
    expect(JSON.parse(change.body).data).toMatchObject({ title: expect.any(String) });
    const deliveries = page.getByRole('table', { name: `Deliveries of ${HOOK}` });
    await deliveries
      .locator('tr[data-status=delivered]', { hasText: 'song.changed' })
      .first()
      .waitFor();
  }, 60_000);

  it('disables and deletes the webhook', async () => {
    // The switch follows the api's answer, so it turns off once the change is saved.
    const enabled = page.getByRole('switch', { name: `${HOOK} enabled` });
    await enabled.click();
    await page.getByText(`Disabled ${HOOK}.`).waitFor();
    expect(await enabled.isChecked()).toBe(false);
    await page.getByRole('button', { name: `Delete ${HOOK}` }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete webhook' }).click();
    await page.getByText('No webhook yet.').waitFor();
  }, 60_000);
});
