import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from '@jest/globals';
import { parseMp3Header } from '../src/formats/mp3.ts';
import {
  ADMIN_AUTH,
  decodeErrors,
  pushSine,
  Resources,
  request,
  StreamListener,
  sleep,
  waitFor,
} from './helpers.ts';

const resources = new Resources();
afterAll(() => resources.dispose());

describe('source loss', () => {
  test('a listener connected across a 5 s source outage stays and hears audio afterwards', async () => {
    const server = await resources.server({ sourceGraceMs: 10_000 });
    const first = pushSine(resources, server, { mount: '/radio.mp3', frequency: 440 });
    await waitFor(
      () => server.snapshot().mounts.some((m) => m.state === 'live'),
      'the first source',
    );
    await request(server, '/admin/metadata?mount=/radio.mp3&mode=updinfo&song=Before', {
      headers: { Authorization: ADMIN_AUTH },
    });
    const listener = new StreamListener(server.port, '/radio.mp3', { icy: true, keepAudio: true });
    resources.socket(listener.socket);
    await waitFor(() => listener.audioBytes > 70_000, 'the burst and live audio');

    await first.dispose();
    await waitFor(
      () => server.snapshot().mounts.some((m) => m.path === '/radio.mp3' && m.state === 'grace'),
      'the grace period',
    );
    const lostAt = Date.now();
    const atLoss = listener.audioBytes;
    // Silence keeps coming at the stream's rate (16,000 B/s).
    await waitFor(() => listener.audioBytes - atLoss > 3 * 16_000, 'silence during the outage');
    await sleep(Math.max(0, 5000 - (Date.now() - lostAt)));
    expect(listener.closed).toBe(false);

    pushSine(resources, server, { mount: '/radio.mp3', frequency: 880, legacy: true });
    await waitFor(
      () => server.snapshot().mounts.some((m) => m.path === '/radio.mp3' && m.state === 'live'),
      'the source to come back',
    );
    await request(server, '/admin/metadata?mount=/radio.mp3&mode=updinfo&song=After', {
      headers: { Authorization: ADMIN_AUTH },
    });
    const back = listener.audioBytes;
    await waitFor(() => listener.titles.includes('After'), 'the new source and its title', 30_000);
    await waitFor(() => listener.audioBytes > back + 32_000, 'live audio after the outage');
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
    await waitFor(() => server.snapshot().mounts.some((m) => m.state === 'live'), 'the source');
    const listener = new StreamListener(server.port, '/radio-low.mp3');
    resources.socket(listener.socket);
    await waitFor(() => listener.bodyBytes > 0, 'audio');
    await source.dispose();
    await waitFor(() => listener.closed, 'the listener to be let go');
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
      () => server.snapshot().mounts.filter((m) => m.state === 'live').length === 2,
      'both sources',
    );
    const listener = new StreamListener(server.port, '/main.mp3');
    resources.socket(listener.socket);
    await waitFor(() => listener.bodyBytes > 0, 'audio');
    const listeners = (path: string): number =>
      server.snapshot(true).mounts.find((m) => m.path === path)?.listeners ?? -1;
    expect(listeners('/main.mp3')).toBe(1);

    await main.dispose();
    await waitFor(() => listeners('/backup.mp3') === 1, 'the listener on the fallback');
    expect(listeners('/main.mp3')).toBe(0);

    pushSine(resources, server, { mount: '/main.mp3', frequency: 660 });
    await waitFor(() => listeners('/main.mp3') === 1, 'the listener back on its mount');
    const before = listener.bodyBytes;
    await waitFor(() => listener.bodyBytes > before + 16_000, 'audio from the returned source');
    expect(listener.closed).toBe(false);
  });
});
