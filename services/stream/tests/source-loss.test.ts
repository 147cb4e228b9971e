import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from '@jest/globals';
import { parseMp3Header } from '@radio/core';
import { waitFor } from '@radio/core/testing';
import {
  ADMIN_AUTH,
  decodeErrors,
  pushSine,
  Resources,
  request,
  StreamListener,
  sleep,
} from './helpers.ts';

const resources = new Resources();
afterAll(() => resources.dispose());

describe('source loss', () => {
  test('a listener connected across a 5 s source outage stays and hears audio afterwards', async () => {
    const server = await resources.server({ sourceGraceMs: 10_000 });
    const first = pushSine(resources, server, { mount: '/radio.mp3', frequency: 440 });
    await waitFor('the first source', () =>
      server.snapshot().mounts.some((m) => m.state === 'live'),
    );
    await request(server, '/admin/metadata?mount=/radio.mp3&mode=updinfo&song=Before', {
      headers: { Authorization: ADMIN_AUTH },
    });
    const listener = new StreamListener(server.port, '/radio.mp3', { icy: true, keepAudio: true });
    resources.socket(listener.socket);
    await waitFor('the burst and live audio', () => listener.audioBytes > 70_000);

    await first.dispose();
    await waitFor('the grace period', () =>
      server.snapshot().mounts.some((m) => m.path === '/radio.mp3' && m.state === 'grace'),
    );
    const lostAt = Date.now();
    const atLoss = listener.audioBytes;
    // Silence keeps coming at the stream's rate (16,000 B/s).
    await waitFor('silence during the outage', () => listener.audioBytes - atLoss > 3 * 16_000);
    await sleep(Math.max(0, 5000 - (Date.now() - lostAt)));
    expect(listener.closed).toBe(false);

    pushSine(resources, server, { mount: '/radio.mp3', frequency: 880, legacy: true });
    await waitFor('the source to come back', () =>
      server.snapshot().mounts.some((m) => m.path === '/radio.mp3' && m.state === 'live'),
    );
    await request(server, '/admin/metadata?mount=/radio.mp3&mode=updinfo&song=After', {
      headers: { Authorization: ADMIN_AUTH },
    });
    const back = listener.audioBytes;
    await waitFor('the new source and its title', () => listener.titles.includes('After'), 30_000);
    await waitFor('live audio after the outage', () => listener.audioBytes > back + 32_000);
    expect(listener.closed).toBe(false);
    expect(listener.titles).toContain('Before');

    // Live audio, silence and live audio again decode as one clean MP3 stream.
    const dir = await resources.tempDir();
    const file = join(dir, 'across.mp3');
    const audio = Buffer.concat(listener.audio);
    await writeFile(file, audio);
    expect(await decodeErrors(file)).toEqual([]);
    const header = parseMp3Header(audio, 0);
    expect(header?.bitrate).toBe(128);
    listener.close();
  });

  test('after the grace period without a source, listeners are disconnected', async () => {
    const server = await resources.server({ sourceGraceMs: 1000 });
    const source = pushSine(resources, server, { mount: '/radio-low.mp3', bitrate: 64 });
    await waitFor('the source', () => server.snapshot().mounts.some((m) => m.state === 'live'));
    const listener = new StreamListener(server.port, '/radio-low.mp3');
    resources.socket(listener.socket);
    await waitFor('audio', () => listener.bodyBytes > 0);
    await source.dispose();
    await waitFor('the listener to be let go', () => listener.closed);
    const snapshot = server.snapshot(true).mounts.find((m) => m.path === '/radio-low.mp3');
    expect(snapshot?.state).toBe('idle');
    // An idle mount is not found, as in Icecast.
    const res = await request(server, '/radio-low.mp3', { method: 'HEAD' });
    expect(res.status).toBe(404);
  });

  test('with a fallback mount, listeners move there when the source leaves and come back', async () => {
    const server = await resources.server({
      mounts: [
        {
          path: '/main.mp3',
          contentType: 'audio/mpeg',
          bitrate: 128,
          fallbackMount: '/backup.mp3',
        },
        { path: '/backup.mp3', contentType: 'audio/mpeg', bitrate: 128 },
      ],
    });
    pushSine(resources, server, { mount: '/backup.mp3', frequency: 220 });
    const main = pushSine(resources, server, { mount: '/main.mp3', frequency: 660 });
    await waitFor(
      'both sources',
      () => server.snapshot().mounts.filter((m) => m.state === 'live').length === 2,
    );
    const listener = new StreamListener(server.port, '/main.mp3');
    resources.socket(listener.socket);
    await waitFor('audio', () => listener.bodyBytes > 0);
    const listeners = (path: string): number =>
      server.snapshot(true).mounts.find((m) => m.path === path)?.listeners ?? -1;
    expect(listeners('/main.mp3')).toBe(1);

    await main.dispose();
    await waitFor('the listener on the fallback', () => listeners('/backup.mp3') === 1);
    expect(listeners('/main.mp3')).toBe(0);

    pushSine(resources, server, { mount: '/main.mp3', frequency: 660 });
    await waitFor('the listener back on its mount', () => listeners('/main.mp3') === 1);
    const before = listener.bodyBytes;
    await waitFor('audio from the returned source', () => listener.bodyBytes > before + 16_000);
    expect(listener.closed).toBe(false);
  });
});
