import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { waitFor } from '@radio/core/testing';
import { IcyReader } from '../src/icy.ts';
import type { StreamServer } from '../src/index.ts';
import {
  ADMIN_AUTH,
  pushSine,
  Resources,
  request,
  SOURCE_AUTH,
  StreamListener,
} from './helpers.ts';

const resources = new Resources();
afterAll(() => resources.dispose());

let server: StreamServer;

beforeAll(async () => {
  server = await resources.server();
  pushSine(resources, server, { mount: '/radio.mp3' });
  pushSine(resources, server, { mount: '/radio.aac', codec: 'aac' });
  await waitFor(
    'both sources',
    () => server.snapshot().mounts.filter((m) => m.state === 'live').length === 2,
  );
});

/** Real curl with `Icy-MetaData: 1` for a few seconds; the titles in what it received. */
async function curlTitles(
  mount: string,
  seconds: number,
): Promise<{ metaint: number; titles: string[]; audio: number }> {
  const dir = await resources.tempDir();
  const headers = join(dir, 'headers.txt');
  const body = join(dir, 'body.bin');
  const curl = resources.child(
    spawn(
      'curl',
      [
        '-s',
        '-H',
        'Icy-MetaData: 1',
        '--max-time',
        String(seconds),
        '-D',
        headers,
        '-o',
        body,
        `http://127.0.0.1:${server.port}${mount}`,
      ],
      {
        stdio: 'ignore',
      },
    ),
  );
  await new Promise<void>((resolve) => curl.once('exit', () => resolve()));
  const head = await readFile(headers, 'latin1');
  const metaint = Number(/icy-metaint:(\d+)/i.exec(head)?.[1]);
  const reader = new IcyReader(metaint);
  reader.push(await readFile(body));
  return { metaint, titles: reader.titles, audio: reader.audioBytes };
}

describe('ICY metadata', () => {
  test('curl with Icy-MetaData: 1 decodes the StreamTitle set through /admin/metadata', async () => {
    const song = "Café über 'quoted' & more";
    const res = await request(
      server,
      `/admin/metadata?mount=/radio.mp3&mode=updinfo&song=${encodeURIComponent(song)}`,
      { headers: { Authorization: ADMIN_AUTH } },
    );
    expect(res.status).toBe(200);
    expect(res.body).toBe(
      '<?xml version="1.0"?>\n<iceresponse><message>Metadata update successful</message><return>1</return></iceresponse>\n',
    );
    const got = await curlTitles('/radio.mp3', 3);
    expect(got.metaint).toBe(16000);
    // The first block carries the current title, as Icecast sends it to a new listener.
    expect(got.titles[0]).toBe(song);
    expect(got.audio).toBeGreaterThan(0);
  });

  test("the mount's source credentials may set the title too; a listener sees it change", async () => {
    const listener = new StreamListener(server.port, '/radio.mp3', { icy: true });
    resources.socket(listener.socket);
    await waitFor('the first metadata block', () => listener.titles.length > 0);
    const res = await request(
      server,
      '/admin/metadata?mode=updinfo&mount=/radio.mp3&charset=UTF-8&title=Second&artist=Band',
      {
        headers: { Authorization: SOURCE_AUTH },
      },
    );
    expect(res.status).toBe(200);
    await waitFor(
      'the new title in the stream',
      () => listener.titles.includes('Band - Second'),
      30_000,
    );
    listener.close();
  });

  test('a Latin-1 title with charset=ISO-8859-1 arrives as the right characters', async () => {
    const res = await request(
      server,
      '/admin/metadata?mount=/radio.mp3&mode=updinfo&song=Caf%E9%20cr%E8me&charset=ISO-8859-1',
      {
        headers: { Authorization: ADMIN_AUTH },
      },
    );
    expect(res.status).toBe(200);
    const stats = await request(server, '/status-json.xsl?mount=/radio.mp3');
    expect(JSON.parse(stats.body).icestats.source.title).toBe('Café crème');
  });

  test('ICY works on the AAC mount', async () => {
    await request(server, '/admin/metadata?mount=/radio.aac&mode=updinfo&song=AAC%20title', {
      headers: { Authorization: ADMIN_AUTH },
    });
    const got = await curlTitles('/radio.aac', 2);
    expect(got.metaint).toBe(16000);
    expect(got.titles[0]).toBe('AAC title');
  });

  test('without Icy-MetaData there is no icy-metaint and no blocks', async () => {
    const listener = new StreamListener(server.port, '/radio.mp3', { keepAudio: true });
    resources.socket(listener.socket);
    await waitFor('the burst and some more', () => listener.bodyBytes > 70_000);
    expect(listener.headers.has('icy-metaint')).toBe(false);
    const audio = Buffer.concat(listener.audio);
    expect(audio.includes('StreamTitle=')).toBe(false);
    // The burst starts on a frame header.
    expect(audio[0]).toBe(0xff);
    expect((audio[1] as number) & 0xe0).toBe(0xe0);
    listener.close();
  });

  test('the title is in stats.xml, escaped', async () => {
    await request(
      server,
      `/admin/metadata?mount=/radio.mp3&mode=updinfo&song=${encodeURIComponent('A <b> & "c"')}`,
      {
        headers: { Authorization: ADMIN_AUTH },
      },
    );
    const res = await request(server, '/admin/stats.xml?mount=/radio.mp3', {
      headers: { Authorization: ADMIN_AUTH },
    });
    expect(res.body).toContain('<title>A &lt;b&gt; &amp; "c"</title>');
  });
});
