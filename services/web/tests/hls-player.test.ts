import { access, readFile } from 'node:fs/promises';
import http from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type FfmpegProcess, locateFfmpeg, silentLogger, spawnFfmpeg } from '@radio/core';
import { waitFor } from '@radio/core/testing';
import { type Browser, chromium } from 'playwright-core';

/*
 * The stream server's HLS in Debian's headless Chromium with hls.js, as the web player loads
 * it where the browser has no native HLS: a tiny page plays /hls/radio.m3u8 from a real stream
 * server fed by a real ffmpeg AAC source, and hears the title as timed ID3.
 */

const CHROMIUM = '/usr/bin/chromium';
const SOURCE_PASSWORD = 'hls-source';
const TITLE = 'HLS Test Artist - Timed Title';

interface StreamServer {
  port: number;
  start(): Promise<void>;
  close(): Promise<void>;
  setMetadata(mount: string, title: string): boolean;
}

let server: StreamServer;
let source: FfmpegProcess;
let page: http.Server;
let pageUrl = '';
let browser: Browser;

const PAGE = (hlsJs: string, playlist: string): string => `<!doctype html>
<html><head><meta charset="utf-8"><title>hls</title></head><body>
<audio id="audio"></audio>
<script>${hlsJs}</script>
<script>
  window.report = { titles: [], fatal: null, native: document.createElement('audio').canPlayType('application/vnd.apple.mpegurl') };
  const audio = document.getElementById('audio');
  const hls = new Hls();
  hls.on(Hls.Events.FRAG_PARSING_METADATA, (_e, data) => {
    for (const sample of data.samples) {
      const text = new TextDecoder().decode(sample.data);
      if (text.includes('TIT2')) window.report.titles.push(text);
    }
  });
  hls.on(Hls.Events.ERROR, (_e, data) => { if (data.fatal) window.report.fatal = data.details; });
  hls.loadSource(${JSON.stringify(playlist)});
  hls.attachMedia(audio);
  audio.muted = true;
  audio.play().catch((error) => { window.report.fatal = String(error); });
</script></body></html>`;

beforeAll(async () => {
  await access(CHROMIUM);
  const load = (name: string): Promise<unknown> => import(name);
  const { createStreamServer } = (await load('@radio/stream')) as {
    createStreamServer: (options: object, deps: object) => StreamServer;
  };
  server = createStreamServer(
    {
      host: '127.0.0.1',
      port: 0,
      adminUser: 'admin',
      adminPassword: 'hls-admin',
      sourcePassword: SOURCE_PASSWORD,
      hlsSegmentSeconds: 1,
    },
    { logger: silentLogger() },
  );
  await server.start();
  source = spawnFfmpeg(
    ['-loglevel', 'error', '-re', '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=44100']
      .concat(['-ac', '2', '-c:a', 'aac', '-b:a', '96k', '-f', 'adts'])
      .concat(['-content_type', 'audio/aac'])
      .concat([`icecast://source:${SOURCE_PASSWORD}@127.0.0.1:${server.port}/radio.aac`]),
    { ffmpegPath: locateFfmpeg().path, logger: silentLogger(), name: 'hls source' },
  );
  const master = `http://127.0.0.1:${server.port}/hls/radio.m3u8`;
  await waitFor('the master playlist', async () => (await fetch(master)).ok);
  server.setMetadata('/radio.aac', TITLE);

  const require = createRequire(import.meta.url);
  const hlsJs = await readFile(require.resolve('hls.js/dist/hls.min.js'), 'utf8');
  page = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(PAGE(hlsJs, master));
  });
  await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
  pageUrl = `http://127.0.0.1:${(page.address() as AddressInfo).port}/`;

  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--autoplay-policy=no-user-gesture-required',
    ],
  });
}, 60_000);

afterAll(async () => {
  await browser?.close().catch(() => {});
  await new Promise<void>((resolve) => (page ? page.close(() => resolve()) : resolve()));
  await source?.dispose();
  await server?.close();
}, 30_000);

describe('HLS in headless Chromium', () => {
  it('hls.js plays /hls/radio.m3u8 and raises the title from the timed ID3', async () => {
    const tab = await browser.newPage();
    await tab.goto(pageUrl);
    await tab.waitForFunction(
      () => (document.getElementById('audio') as HTMLAudioElement).currentTime > 3,
      null,
      { timeout: 30_000 },
    );
    const report = (await tab.evaluate('window.report')) as {
      titles: string[];
      fatal: string | null;
      native: string;
    };
    process.stdout.write(`[hls] canPlayType(HLS) in this Chromium: '${report.native}'\n`);
    expect(report.fatal).toBeNull();
    expect(report.titles.some((text) => text.includes(TITLE))).toBe(true);
    await tab.close();
  }, 60_000);

  it('plays natively too, where canPlayType says it can (Safari; the web player prefers hls.js wherever Media Source exists)', async () => {
    const tab = await browser.newPage();
    await tab.goto(pageUrl);
    const native = await tab.evaluate(async (url) => {
      const audio = document.createElement('audio');
      if (audio.canPlayType('application/vnd.apple.mpegurl') === '') return false;
      audio.id = 'native';
      audio.muted = true;
      audio.src = url;
      document.body.append(audio);
      await audio.play();
      return true;
    }, `http://127.0.0.1:${server.port}/hls/radio.m3u8`);
    if (native) {
      await tab.waitForFunction(
        () => (document.getElementById('native') as HTMLAudioElement).currentTime > 3,
        null,
        { timeout: 30_000 },
      );
      const error = await tab.evaluate(
        () => (document.getElementById('native') as HTMLAudioElement).error?.message ?? null,
      );
      expect(error).toBeNull();
    }
    await tab.close();
  }, 60_000);
});
