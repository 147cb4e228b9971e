import net from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { waitFor } from '@radio/core/testing';
import type { StreamServer } from '../src/index.ts';
import { STREAM_VERSION } from '../src/version.ts';
import { pushSine, Resources, rawExchange, request, StreamListener, sleep } from './helpers.ts';

const resources = new Resources();
afterAll(() => resources.dispose());

let server: StreamServer;

beforeAll(async () => {
  server = await resources.server({
    headerTimeoutMs: 1000,
    // No names in the configuration: the listener headers come from the source, as in Icecast.
    mounts: [{ path: '/radio.mp3', contentType: 'audio/mpeg' }],
    maxListenersPerMount: 2000,
    // The burst below comes from one address; the per-client cap has its own tests.
    maxConnectionsPerClient: 2000,
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
  // Live, and its first frames read (what ice-audio-info and icy-br come from here).
  await waitFor('the source', () => server.snapshot().mounts.some((m) => m.sampleRate !== null));
});

async function serving(): Promise<void> {
  const health = await request(server, '/health');
  expect(health.status).toBe(200);
  const listener = new StreamListener(server.port, '/radio.mp3');
  resources.socket(listener.socket);
  await waitFor('audio for a new listener', () => listener.bodyBytes > 1000);
  listener.close();
}

describe('listener responses', () => {
  test("GET headers are Icecast's, in Icecast's order", async () => {
    const listener = new StreamListener(server.port, '/radio.mp3', { icy: true });
    resources.socket(listener.socket);
    await waitFor('the response head', () => listener.statusLine !== '');
    const lines = listener.head
      .split('\r\n')
      .filter(
        (line) => !line.startsWith('Date: ') && !line.startsWith('Access-Control-Expose-Headers:'),
      );
    // reference/icecast/stream-headers.txt, GET /radio.mp3 with Icy-MetaData: 1 (less Date);
    // the server names itself (see version.ts).
    expect(lines).toEqual([
      'HTTP/1.0 200 OK',
      `Server: Radio/${STREAM_VERSION} (Icecast compatible)`,
      'Connection: Close',
      'Content-Type: audio/mpeg',
      'Cache-Control: no-cache, no-store',
      'Expires: Mon, 26 Jul 1997 05:00:00 GMT',
      'Pragma: no-cache',
      'Access-Control-Allow-Origin: *',
      'icy-br:128',
      'ice-audio-info: channels=2;samplerate=44100;bitrate=128',
      'icy-description:Anchor reference station',
      'icy-genre:Test',
      'icy-name:Anchor Radio',
      'icy-pub:1',
      'icy-url:http://127.0.0.1:8000/',
      'icy-metaint:16000',
    ]);
    expect(listener.head).toMatch(/\r\nDate: \w{3}, \d\d \w{3} \d{4} \d\d:\d\d:\d\d GMT\r\n/);
    listener.close();
  });

  test('HEAD answers 200 with the same headers and counts no listener', async () => {
    const before = server.snapshot().counters.listenerConnections;
    const answer = await rawExchange(server.port, 'HEAD /radio.mp3 HTTP/1.0\r\n\r\n');
    expect(answer.closed).toBe(true);
    expect(answer.text).toMatch(/^HTTP\/1\.0 200 OK\r\n/);
    expect(answer.text).toContain('\r\nicy-br:128\r\n');
    expect(answer.text.endsWith('\r\n\r\n')).toBe(true);
    expect(server.snapshot().counters.listenerConnections).toBe(before);
  });

  test('OPTIONS answers the CORS preflight of a browser asking for ICY metadata', async () => {
    const res = await request(server, '/radio.mp3', {
      method: 'OPTIONS',
      headers: { Origin: 'http://web.example', 'Access-Control-Request-Headers': 'icy-metadata' },
    });
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(String(res.headers['access-control-allow-headers'])).toContain('Icy-MetaData');
  });

  test('an unknown mount is 404, GET and HEAD', async () => {
    expect((await request(server, '/nosuch.mp3')).statusLine).toBe('HTTP/1.0 404 File Not Found');
    expect((await request(server, '/nosuch.mp3', { method: 'HEAD' })).status).toBe(404);
  });

  test('a mount listener limit answers 403 "max listeners reached"', async () => {
    const limited = await resources.server({ maxListenersPerMount: 1, maxListeners: 5 });
    pushSine(resources, limited, { mount: '/radio.mp3' });
    await waitFor('the source', () => limited.snapshot().mounts.some((m) => m.state === 'live'));
    const first = new StreamListener(limited.port, '/radio.mp3');
    resources.socket(first.socket);
    await waitFor('the first listener', () => first.bodyBytes > 0);
    const second = await rawExchange(limited.port, 'GET /radio.mp3 HTTP/1.0\r\n\r\n');
    expect(second.text).toMatch(/^HTTP\/1\.0 403 Forbidden\r\n/);
    expect(second.text.endsWith('max listeners reached')).toBe(true);
    first.close();
  });
});

describe('bad clients', () => {
  test('a malformed request line gets 400 and the server keeps serving', async () => {
    const garbage = await rawExchange(server.port, 'BLAH\r\n\r\n');
    expect(garbage.text).toMatch(/^HTTP\/1\.0 400 Bad Request\r\n/);
    expect(garbage.closed).toBe(true);
    const binary = await rawExchange(
      server.port,
      Buffer.from([0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xfc, 0x0a, 0x0d, 0x0a]),
    );
    expect(binary.closed).toBe(true);
    const badHeader = await rawExchange(
      server.port,
      'GET /radio.mp3 HTTP/1.0\r\nNo colon here\r\n\r\n',
    );
    expect(badHeader.text).toMatch(/^HTTP\/1\.0 400 /);
    const badEscape = await rawExchange(server.port, 'GET /%zz HTTP/1.0\r\n\r\n');
    expect(badEscape.text).toMatch(/^HTTP\/1\.0 400 /);
    const adminGarbage = await rawExchange(
      server.port,
      'GET /admin/stats.xml HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n',
    );
    expect(adminGarbage.text).toMatch(/^HTTP\/1\.0 400 /);
    await serving();
  });

  test('an endless header is cut off with 431', async () => {
    const answer = await new Promise<{ text: string; closed: boolean }>((resolve) => {
      const socket = resources.socket(net.connect(server.port, '127.0.0.1'));
      let text = '';
      const timer = setInterval(() => {
        if (socket.writable) socket.write(`X-Long: ${'a'.repeat(4000)}\r\n`);
      }, 5);
      socket.on('connect', () => socket.write('GET /radio.mp3 HTTP/1.0\r\n'));
      socket.on('data', (chunk: Buffer) => {
        text += chunk.toString('latin1');
      });
      socket.on('error', () => {});
      socket.on('close', () => {
        clearInterval(timer);
        resolve({ text, closed: true });
      });
    });
    expect(answer.text).toMatch(/^HTTP\/1\.0 431 /);
    await serving();
  });

  test('a client that sends nothing, or half a head, is closed after the header timeout', async () => {
    const silent = await rawExchange(server.port, '', 15_000);
    expect(silent.closed).toBe(true);
    const half = await rawExchange(server.port, 'GET /radio.mp3 HTTP/1.0\r\nHost: x\r\n', 15_000);
    expect(half.closed).toBe(true);
    expect(half.text).toBe('');
  });

  test('a stream outlives the header timeout (streams are not subject to request timeouts)', async () => {
    const listener = new StreamListener(server.port, '/radio.mp3');
    resources.socket(listener.socket);
    await waitFor('audio', () => listener.bodyBytes > 0);
    await sleep(2500); // 2.5 x the 1 s header timeout of this server
    const before = listener.bodyBytes;
    await waitFor('more audio', () => listener.bodyBytes > before + 8000);
    expect(listener.closed).toBe(false);
    listener.close();
  });

  test('a body on GET is ignored: the listener streams, /health answers', async () => {
    const listener = new StreamListener(server.port, '/radio.mp3', {
      headers: ['Content-Length: 11', '', 'hello world'],
    });
    resources.socket(listener.socket);
    await waitFor('audio', () => listener.bodyBytes > 1000);
    expect(listener.statusLine).toBe('HTTP/1.0 200 OK');
    listener.close();
    const health = await rawExchange(
      server.port,
      'GET /health HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello',
    );
    expect(health.text).toMatch(/^HTTP\/1\.0 200 OK\r\n/);
  });

  test('1,000 connects and disconnects in a burst: every one is served, and then others are', async () => {
    let answered = 0;
    let closed = 0;
    const sockets: net.Socket[] = [];
    for (let i = 0; i < 1000; i++) {
      const socket = net.connect(server.port, '127.0.0.1');
      sockets.push(resources.socket(socket));
      socket.on('error', () => {});
      socket.on('close', () => {
        closed += 1;
      });
      if (i % 3 === 0) {
        // Connect and hang up at once.
        socket.on('connect', () => socket.destroy());
      } else {
        socket.on('connect', () => socket.write('GET /radio.mp3 HTTP/1.0\r\n\r\n'));
        socket.once('data', () => {
          answered += 1;
          socket.destroy();
        });
      }
    }
    await waitFor('all 1,000 connections to end', () => closed === 1000, 60_000);
    expect(answered).toBe(666);
    await waitFor('the listeners to be gone', () => server.snapshot().listeners === 0);
    await serving();
  });
});
