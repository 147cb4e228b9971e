import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, jest, test } from '@jest/globals';
import { generateTrack } from '@radio/core/test-audio';
import { waitFor } from '@radio/core/testing';
import type { StreamServer } from '../src/index.ts';
import { ffmpegPath, ffprobe, Resources, SOURCE_PASSWORD, StreamListener } from './helpers.ts';

const resources = new Resources();
afterAll(() => resources.dispose());
jest.setTimeout(120_000);

let server: StreamServer;

/** Real Liquidsoap with the station's three outputs, as the reference set-up has them. */
beforeAll(async () => {
  server = await resources.server();
  const dir = await resources.tempDir('stream-liq-');
  const track = await generateTrack(
    join(dir, 'tone.mp3'),
    { format: 'mp3', durationSeconds: 4, tags: { title: 'Liq Title', artist: 'Liq Artist' } },
    { ffmpegPath },
  );
  const output = (encoder: string, mount: string, name: string): string =>
    `output.icecast(${encoder}, host="127.0.0.1", port=${server.port}, password="${SOURCE_PASSWORD}", mount="${mount}", name="${name}", description="From Liquidsoap", genre="Test", s)`;
  const script = [
    'settings.init.allow_root.set(true)',
    'settings.log.stdout.set(true)',
    'settings.log.level.set(3)',
    `s = mksafe(single("${track}"))`,
    output('%mp3(bitrate=128)', '/radio.mp3', 'Liq Radio'),
    output('%ffmpeg(format="adts", %audio(codec="aac", b="96k"))', '/radio.aac', 'Liq AAC'),
    output('%mp3(bitrate=64)', '/radio-low.mp3', 'Liq Low'),
  ].join('\n');
  const file = join(dir, 'radio.liq');
  await writeFile(file, script);
  resources.child(spawn('liquidsoap', [file], { stdio: 'ignore' }));
  await waitFor(
    'Liquidsoap to connect its three outputs',
    () => server.snapshot().sources === 3,
    90_000,
  );
});

describe('Liquidsoap as the source client', () => {
  test('its three outputs stream, with its metadata as the ICY title', async () => {
    const mounts = server.snapshot().mounts;
    for (const mount of mounts) expect(mount.userAgent).toMatch(/^Liquidsoap\//);
    const listener = new StreamListener(server.port, '/radio.mp3', { icy: true });
    resources.socket(listener.socket);
    await waitFor(
      'the title from Liquidsoap',
      () => listener.titles.includes('Liq Artist - Liq Title'),
      60_000,
    );
    expect(listener.headers.get('content-type')).toBe('audio/mpeg');
    listener.close();
  });

  test('ffprobe reads each mount in its format', async () => {
    await waitFor(
      'audio on every mount',
      () => server.snapshot().mounts.every((m) => m.totalBytesRead > 30_000),
      60_000,
    );
    expect((await ffprobe(`http://127.0.0.1:${server.port}/radio.mp3`)).bit_rate).toBe('128000');
    expect((await ffprobe(`http://127.0.0.1:${server.port}/radio-low.mp3`)).bit_rate).toBe('64000');
    expect((await ffprobe(`http://127.0.0.1:${server.port}/radio.aac`)).codec_name).toBe('aac');
  });
});
