import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { waitFor } from '@radio/core/testing';
import type { StreamServer } from '../src/index.ts';
import {
  ADMIN_AUTH,
  ADMIN_PASSWORD,
  pushSine,
  Resources,
  request,
  SOURCE_AUTH,
  SOURCE_PASSWORD,
  StreamListener,
} from './helpers.ts';

const resources = new Resources();
afterAll(() => resources.dispose());

let server: StreamServer;
let dataDir: string;
const auth = { Authorization: ADMIN_AUTH };

const iceResponse = (message: string, ok: boolean): string =>
  `<?xml version="1.0"?>\n<iceresponse><message>${message}</message><return>${ok ? 1 : 0}</return></iceresponse>\n`;
const error400 = (message: string): string =>
  `<html><head><title>Error 400</title></head><body><b>400 - ${message}</b></body></html>\r\n`;

/** Element names in document order (the shape monitoring tools parse). */
function elementNames(xml: string): string[] {
  return [...xml.matchAll(/<([a-zA-Z_][\w-]*)[\s>/]/g)].map((m) => m[1] as string);
}

beforeAll(async () => {
  dataDir = await resources.tempDir();
  server = await resources.server({
    dataDir,
    mounts: [
      { path: '/radio.mp3', contentType: 'audio/mpeg', bitrate: 128, quality: 'high' },
      { path: '/radio.aac', contentType: 'audio/aac', bitrate: 96, quality: 'high' },
      { path: '/other.mp3', contentType: 'audio/mpeg', bitrate: 128 },
    ],
  });
  const ice = [
    '-ice_name',
    'Anchor Radio',
    '-ice_description',
    'Anchor reference station',
    '-ice_genre',
    'Test',
    '-ice_url',
    'http://127.0.0.1:8000/',
    '-ice_public',
    '1',
  ];
  pushSine(resources, server, { mount: '/radio.mp3', extra: ice });
  pushSine(resources, server, { mount: '/other.mp3', frequency: 660 });
  pushSine(resources, server, { mount: '/radio.aac', codec: 'aac' });
  // Live, with their first frames read (channels and sample rate come from them).
  await waitFor(
    'three sources',
    () =>
      server.snapshot().mounts.filter((m) => m.state === 'live' && m.sampleRate !== null).length ===
      3,
  );
});

describe('authentication', () => {
  test.each([
    '/admin/',
    '/admin/stats.xml',
    '/admin/stats',
    '/admin/listmounts',
    '/admin/listclients?mount=/radio.mp3',
    '/admin/killsource?mount=/radio.mp3',
    '/admin/metadata?mount=/radio.mp3&mode=updinfo&song=x',
    '/admin/stats.json',
  ])('%s without credentials: 401 with the Icecast realm', async (path) => {
    const res = await request(server, path);
    expect(res.statusLine).toBe('HTTP/1.0 401 Authentication Required');
    expect(res.headers['www-authenticate']).toBe('Basic realm="Icecast2 Server"');
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.body).toBe('You need to authenticate\r\n');
  });

  test('a wrong password, or the source credentials outside /admin/metadata: 401', async () => {
    const wrong = `Basic ${Buffer.from('admin:nope').toString('base64')}`;
    expect(
      (await request(server, '/admin/stats.xml', { headers: { Authorization: wrong } })).status,
    ).toBe(401);
    expect(
      (await request(server, '/admin/stats.xml', { headers: { Authorization: SOURCE_AUTH } }))
        .status,
    ).toBe(401);
    expect(
      (
        await request(server, '/admin/killsource?mount=/radio.mp3', {
          headers: { Authorization: SOURCE_AUTH },
        })
      ).status,
    ).toBe(401);
    expect(
      (await request(server, '/admin/stats.xml', { headers: { Authorization: 'Bearer x' } }))
        .status,
    ).toBe(401);
  });
});

describe('status documents', () => {
  test('stats.xml has Icecast element names in Icecast order', async () => {
    await request(
      server,
      '/admin/metadata?mount=/radio.mp3&mode=updinfo&song=Anchor%20Lab%20-%20Sine%20660',
      { headers: auth },
    );
    const res = await request(server, '/admin/stats.xml', { headers: auth });
    expect(res.statusLine).toBe('HTTP/1.0 200 OK');
    expect(res.headers['content-type']).toBe('text/xml; charset=utf-8');
    expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.body));
    expect(res.body.startsWith('<?xml version="1.0"?>\n<icestats>')).toBe(true);
    expect(res.body.endsWith('</icestats>\n')).toBe(true);
    const names = elementNames(res.body);
    // Captured from Icecast 2.4.4 (reference/icecast/admin-stats.xml.body), up to the first source.
    const globals = [
      'icestats',
      'admin',
      'client_connections',
      'clients',
      'connections',
      'file_connections',
      'host',
      'listener_connections',
      'listeners',
      'location',
      'server_id',
      'server_start',
      'server_start_iso8601',
      'source_client_connections',
      'source_relay_connections',
      'source_total_connections',
      'sources',
      'stats',
      'stats_connections',
      'source',
    ];
    expect(names.slice(0, globals.length)).toEqual(globals);
    // Mounts sorted as Icecast sorts them.
    expect([...res.body.matchAll(/<source mount="([^"]+)">/g)].map((m) => m[1])).toEqual([
      '/other.mp3',
      '/radio.aac',
      '/radio.mp3',
    ]);
    const mp3 = /<source mount="\/radio.mp3">(.*?)<\/source>/s.exec(res.body)?.[0] ?? '';
    expect(elementNames(mp3)).toEqual([
      'source',
      'audio_info',
      'bitrate',
      'channels',
      'genre',
      'listener_peak',
      'listeners',
      'listenurl',
      'max_listeners',
      'public',
      'samplerate',
      'server_description',
      'server_name',
      'server_type',
      'server_url',
      'slow_listeners',
      'source_ip',
      'stream_start',
      'stream_start_iso8601',
      'title',
      'total_bytes_read',
      'total_bytes_sent',
      'user_agent',
    ]);
    expect(mp3).toContain('<server_name>Anchor Radio</server_name>');
    expect(mp3).toContain('<title>Anchor Lab - Sine 660</title>');
    expect(mp3).toMatch(
      /<stream_start>\w{3}, \d\d \w{3} \d{4} \d\d:\d\d:\d\d \+0000<\/stream_start>/,
    );
    expect(mp3).toContain('<audio_info>channels=2;samplerate=44100;bitrate=128</audio_info>');
    expect(mp3).toContain(`<listenurl>http://127.0.0.1:${server.port}/radio.mp3</listenurl>`);
  });

  test('/admin/stats is the same document; ?mount= keeps one source; an unknown mount is 400', async () => {
    const stats = await request(server, '/admin/stats', { headers: auth });
    expect(stats.body).toContain('<source mount="/radio.aac">');
    const one = await request(server, '/admin/stats.xml?mount=/radio.aac', { headers: auth });
    expect([...one.body.matchAll(/<source mount="([^"]+)">/g)].map((m) => m[1])).toEqual([
      '/radio.aac',
    ]);
    const none = await request(server, '/admin/stats.xml?mount=/nosuch', { headers: auth });
    expect(none.statusLine).toBe('HTTP/1.0 400 Bad Request');
    expect(none.body).toBe(error400('Source does not exist'));
  });

  test('status-json.xsl is public and shaped as Icecast', async () => {
    const res = await request(server, '/status-json.xsl');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=UTF-8');
    const json = JSON.parse(res.body);
    expect(Object.keys(json.icestats)).toEqual([
      'admin',
      'host',
      'location',
      'server_id',
      'server_start',
      'server_start_iso8601',
      'source',
    ]);
    expect(json.icestats.source).toHaveLength(3);
    const one = JSON.parse((await request(server, '/status-json.xsl?mount=/radio.mp3')).body);
    expect(Object.keys(one.icestats.source)).toEqual([
      'audio_info',
      'bitrate',
      'channels',
      'genre',
      'listener_peak',
      'listeners',
      'listenurl',
      'samplerate',
      'server_description',
      'server_name',
      'server_type',
      'server_url',
      'stream_start',
      'stream_start_iso8601',
      'title',
      'dummy',
    ]);
    expect(one.icestats.source.bitrate).toBe(128);
    const unknown = JSON.parse((await request(server, '/status-json.xsl?mount=/nosuch')).body);
    expect(unknown.icestats.source).toBeUndefined();
  });

  test('listmounts lists the sources; with ?mount= it is a bad request, as in Icecast', async () => {
    const res = await request(server, '/admin/listmounts', { headers: auth });
    expect(res.body).toMatch(
      /^<\?xml version="1.0"\?>\n<icestats><source mount="\/other.mp3"><fallback><\/fallback><listeners>\d+<\/listeners><Connected>\d+<\/Connected><content-type>audio\/mpeg<\/content-type><\/source>/,
    );
    const bad = await request(server, '/admin/listmounts?mount=/radio.mp3', { headers: auth });
    expect(bad.status).toBe(400);
    expect(bad.body).toBe(error400('Mount request unknown'));
  });

  test('health is cheap JSON without credentials', async () => {
    const res = await request(server, '/health');
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toMatchObject({ status: 'ok', sources: 3 });
  });

  test('playlists: .m3u and .xspf of a mount', async () => {
    const m3u = await request(server, '/radio.mp3.m3u');
    expect(m3u.headers['content-type']).toBe('audio/x-mpegurl');
    expect(m3u.body).toBe(`http://127.0.0.1:${server.port}/radio.mp3\r\n`);
    const xspf = await request(server, '/radio.mp3.xspf');
    expect(xspf.body).toContain(`<location>http://127.0.0.1:${server.port}/radio.mp3</location>`);
    expect((await request(server, '/nosuch.mp3.m3u')).status).toBe(404);
  });
});

describe('listener management', () => {
  test('listclients, killclient with good and bad ids', async () => {
    const listener = new StreamListener(server.port, '/radio.mp3', {
      headers: ['User-Agent: kick-me/1.0'],
    });
    resources.socket(listener.socket);
    await waitFor('the listener', () => listener.bodyBytes > 0);
    const list = await request(server, '/admin/listclients?mount=/radio.mp3', { headers: auth });
    expect(list.status).toBe(200);
    const id =
      /<listener><IP>127.0.0.1<\/IP><UserAgent>kick-me\/1.0<\/UserAgent><Connected>\d+<\/Connected><ID>(\d+)<\/ID><\/listener>/.exec(
        list.body,
      )?.[1];
    expect(id).toBeDefined();

    const missing = await request(server, '/admin/killclient?mount=/radio.mp3', { headers: auth });
    expect(missing.body).toBe(error400('Missing parameter'));
    const unknown = await request(server, '/admin/killclient?mount=/radio.mp3&id=999999', {
      headers: auth,
    });
    expect(unknown.status).toBe(200);
    expect(unknown.body).toBe(iceResponse('Client 999999 not found', false));
    const junk = await request(server, '/admin/killclient?mount=/radio.mp3&id=abc', {
      headers: auth,
    });
    expect(junk.body).toBe(iceResponse('Client 0 not found', false));
    const wrongMount = await request(server, `/admin/killclient?mount=/nosuch.mp3&id=${id}`, {
      headers: auth,
    });
    expect(wrongMount.body).toBe(error400('Source does not exist'));

    const kill = await request(server, `/admin/killclient?mount=/radio.mp3&id=${id}`, {
      headers: auth,
    });
    expect(kill.body).toBe(iceResponse(`Client ${id} removed`, true));
    await waitFor('the kicked listener to be disconnected', () => listener.closed);
  });

  test('listclients without a mount, or of an unknown one', async () => {
    const none = await request(server, '/admin/listclients', { headers: auth });
    expect(none.body).toBe(error400('Unknown admin request'));
    const unknown = await request(server, '/admin/listclients?mount=/nosuch.mp3', {
      headers: auth,
    });
    expect(unknown.body).toBe(error400('Source does not exist'));
  });

  test('moveclients: to another mount, and every refusal', async () => {
    const listener = new StreamListener(server.port, '/radio.mp3');
    resources.socket(listener.socket);
    await waitFor('the listener', () => listener.bodyBytes > 0);
    const count = (path: string): number =>
      server.snapshot().mounts.find((m) => m.path === path)?.listeners ?? -1;

    const offer = await request(server, '/admin/moveclients?mount=/radio.mp3', { headers: auth });
    expect(offer.body).toMatch(
      /^<\?xml version="1.0"\?>\n<icestats><current_source>\/radio.mp3<\/current_source><source mount="\/other.mp3">/,
    );
    expect(
      (
        await request(server, '/admin/moveclients?mount=/radio.mp3&destination=/nosuch.mp3', {
          headers: auth,
        })
      ).body,
    ).toBe(error400('No such destination'));
    expect(
      (
        await request(server, '/admin/moveclients?mount=/radio.mp3&destination=/radio.mp3', {
          headers: auth,
        })
      ).body,
    ).toBe(error400('supplied mountpoints are identical'));
    expect(
      (
        await request(server, '/admin/moveclients?mount=/radio.mp3&destination=/radio.aac', {
          headers: auth,
        })
      ).body,
    ).toBe(error400('destination has a different content type'));
    expect(
      (
        await request(server, '/admin/moveclients?mount=/nosuch.mp3&destination=/radio.mp3', {
          headers: auth,
        })
      ).body,
    ).toBe(error400('Source does not exist'));

    const move = await request(
      server,
      '/admin/moveclients?mount=/radio.mp3&destination=/other.mp3',
      { headers: auth },
    );
    expect(move.body).toBe(iceResponse('Clients moved from /radio.mp3 to /other.mp3', true));
    expect(count('/radio.mp3')).toBe(0);
    expect(count('/other.mp3')).toBe(1);
    const before = listener.bodyBytes;
    await waitFor('audio from the new mount', () => listener.bodyBytes > before + 8000);
    listener.close();
  });

  test('metadata: missing mode, unknown mode, unknown mount', async () => {
    expect(
      (await request(server, '/admin/metadata?mount=/radio.mp3', { headers: auth })).body,
    ).toBe(error400('Missing parameter'));
    const bad = await request(server, '/admin/metadata?mount=/radio.mp3&mode=nope', {
      headers: auth,
    });
    expect(bad.status).toBe(200);
    expect(bad.body).toBe(iceResponse('No such action', false));
    expect(
      (await request(server, '/admin/metadata?mode=updinfo&song=x', { headers: auth })).body,
    ).toBe(error400('Unknown admin request'));
    expect(
      (
        await request(server, '/admin/metadata?mount=/nosuch.mp3&mode=updinfo&song=x', {
          headers: { Authorization: SOURCE_AUTH },
        })
      ).body,
    ).toBe(error400('Source does not exist'));
  });

  test('an unknown command, and an unknown public path', async () => {
    expect((await request(server, '/admin/nosuchcmd', { headers: auth })).body).toBe(
      error400('Unrecognised command'),
    );
    const res = await request(server, '/nosuch.html');
    expect(res.statusLine).toBe('HTTP/1.0 404 File Not Found');
    expect(res.body).toBe(
      '<html><head><title>Error 404</title></head><body><b>404 - The file you requested could not be found</b></body></html>\r\n',
    );
  });
});

describe('the admin page', () => {
  test('is HTML readable without JavaScript, with every section and no secrets', async () => {
    const listener = new StreamListener(server.port, '/radio.aac', {
      headers: ['User-Agent: page-listener/2.0'],
    });
    resources.socket(listener.socket);
    await waitFor('a listener', () => listener.bodyBytes > 0);
    const res = await request(server, '/admin/', { headers: auth });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    const html = res.body;
    for (const text of [
      '<h2>Server</h2>',
      '<h2>Mounts</h2>',
      '<h2>Listeners</h2>',
      '<h2>Configuration</h2>',
      '<h2>Access log</h2>',
      '<h2>Error log</h2>',
    ]) {
      expect(html).toContain(text);
    }
    expect(html).toContain('page-listener/2.0');
    expect(html).toContain('action="/admin/killclient.xsl"');
    expect(html).toContain('action="/admin/killsource.xsl"');
    expect(html).toContain('action="/admin/moveclients.xsl"');
    expect(html).toContain('action="/admin/metadata.xsl"');
    expect(html).toContain('<noscript><meta http-equiv="refresh"');
    expect(html).not.toContain(ADMIN_PASSWORD);
    expect(html).not.toContain(SOURCE_PASSWORD);
    expect(html).toContain('GET /radio.mp3'); // an access log line
    listener.close();
  });

  test('forms post, act and redirect back to the page; cross-site posts are refused', async () => {
    const form = 'mount=%2Fradio.mp3&mode=updinfo&song=From+the+form';
    const res = await request(server, '/admin/metadata.xsl', {
      method: 'POST',
      headers: {
        ...auth,
        'Content-Type': 'application/x-www-form-urlencoded',
        Origin: `http://127.0.0.1:${server.port}`,
        Host: `127.0.0.1:${server.port}`,
      },
      body: form,
    });
    expect(res.statusLine).toBe('HTTP/1.0 303 See Other');
    expect(res.headers.location).toBe('/admin/?message=Metadata%20update%20successful');
    expect(server.snapshot().mounts.find((m) => m.path === '/radio.mp3')?.title).toBe(
      'From the form',
    );
    const page = await request(server, res.headers.location as string, { headers: auth });
    expect(page.body).toContain('Metadata update successful');

    const evil = await request(server, '/admin/metadata.xsl', {
      method: 'POST',
      headers: {
        ...auth,
        'Content-Type': 'application/x-www-form-urlencoded',
        Origin: 'http://evil.example',
      },
      body: 'mount=%2Fradio.mp3&mode=updinfo&song=pwned',
    });
    expect(evil.status).toBe(403);
    expect(server.snapshot().mounts.find((m) => m.path === '/radio.mp3')?.title).toBe(
      'From the form',
    );
  });

  test('stats.json for scripts and live refresh', async () => {
    const res = await request(server, '/admin/stats.json', { headers: auth });
    const json = JSON.parse(res.body);
    expect(json.mounts.map((m: { path: string }) => m.path).sort()).toEqual([
      '/other.mp3',
      '/radio.aac',
      '/radio.mp3',
    ]);
  });

  test('killsource disconnects the source; the mount waits in its grace period', async () => {
    const res = await request(server, '/admin/killsource?mount=/other.mp3', { headers: auth });
    expect(res.body).toBe(iceResponse('Source Removed', true));
    await waitFor(
      'the grace period',
      () => server.snapshot().mounts.find((m) => m.path === '/other.mp3')?.state === 'grace',
    );
    expect(
      (await request(server, '/admin/killsource?mount=/nosuch.mp3', { headers: auth })).body,
    ).toBe(error400('Source does not exist'));
    expect((await request(server, '/admin/killsource', { headers: auth })).body).toBe(
      error400('Unknown admin request'),
    );
  });

  test('access and error logs are files under DATA_DIR/logs', async () => {
    await waitFor('a combined-format line in access.log', async () => {
      const text = await readFile(join(dataDir, 'logs', 'access.log'), 'utf8').catch(() => '');
      return /^127\.0\.0\.1 - - \[\d\d\/\w{3}\/\d{4}:\d\d:\d\d:\d\d \+0000\] "GET \/admin\/stats.xml HTTP\/1.1" 200 \d+ "-" "-" \d+$/m.test(
        text,
      );
    });
    await waitFor('the source event in error.log', async () => {
      const text = await readFile(join(dataDir, 'logs', 'error.log'), 'utf8').catch(() => '');
      return text.includes('source connected to /radio.mp3');
    });
  });
});
