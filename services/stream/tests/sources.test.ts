import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { waitFor } from '@radio/core/testing';
import type { StreamServer } from '../src/index.ts';
import {
  ADMIN_AUTH,
  ffprobe,
  mp3Frames,
  pushSine,
  Resources,
  rawExchange,
  request,
  SOURCE_AUTH,
  SOURCE_PASSWORD,
  StreamListener,
} from './helpers.ts';

const resources = new Resources();
afterAll(() => resources.dispose());

async function live(server: StreamServer, mount: string): Promise<boolean> {
  return server.snapshot().mounts.some((m) => m.path === mount && m.state === 'live');
}

describe('sources: ffmpeg pushing to the three mounts', () => {
  let server: StreamServer;

  beforeAll(async () => {
    server = await resources.server();
    pushSine(resources, server, { mount: '/radio.mp3', codec: 'mp3', bitrate: 128 });
    // The legacy SOURCE method (ffmpeg -legacy_icecast 1), as old encoders and Liquidsoap use.
    pushSine(resources, server, {
      mount: '/radio-low.mp3',
      codec: 'mp3',
      bitrate: 64,
      legacy: true,
    });
    pushSine(resources, server, { mount: '/radio.aac', codec: 'aac', bitrate: 96 });
    for (const mount of ['/radio.mp3', '/radio-low.mp3', '/radio.aac']) {
      await waitFor(`a source on ${mount}`, () => live(server, mount));
    }
    // Enough audio for ffprobe to analyse at once from the burst.
    await waitFor('two seconds of audio on every mount', () =>
      server.snapshot().mounts.every((m) => m.totalBytesRead > 40_000),
    );
  });

  test.each([
    ['/radio.mp3', 'mp3', 128_000],
    ['/radio-low.mp3', 'mp3', 64_000],
  ])('ffprobe reads %s as %s at %i bit/s', async (mount, codec, bitrate) => {
    const stream = await ffprobe(`http://127.0.0.1:${server.port}${mount}`);
    expect(stream.codec_name).toBe(codec);
    expect(Number(stream.bit_rate)).toBe(bitrate);
    expect(stream.sample_rate).toBe('44100');
    expect(stream.channels).toBe(2);
  });

  test('ffprobe reads /radio.aac as AAC at about 96 kbit/s', async () => {
    const stream = await ffprobe(`http://127.0.0.1:${server.port}/radio.aac`);
    expect(stream.codec_name).toBe('aac');
    expect(stream.sample_rate).toBe('44100');
    // ADTS has no bitrate field: ffprobe estimates it from the bytes it read.
    expect(Number(stream.bit_rate)).toBeGreaterThan(96_000 * 0.8);
    expect(Number(stream.bit_rate)).toBeLessThan(96_000 * 1.25);
  });

  test('stats show each source with its format and user agent', async () => {
    const res = await request(server, '/admin/stats.xml', {
      headers: { Authorization: ADMIN_AUTH },
    });
    expect(res.status).toBe(200);
    expect(res.body).toContain('<source mount="/radio.aac">');
    expect(res.body).toContain('<server_type>audio/aac</server_type>');
    expect(res.body).toMatch(/<user_agent>Lavf\/[\d.]+<\/user_agent>/);
    expect(res.body).toContain('<sources>3</sources>');
  });

  test('a second source on a mount in use gets 403 "Mountpoint in use"', async () => {
    const answer = await rawExchange(
      server.port,
      `SOURCE /radio.mp3 HTTP/1.0\r\nAuthorization: ${SOURCE_AUTH}\r\nContent-Type: audio/mpeg\r\n\r\n`,
    );
    expect(answer.text).toMatch(/^HTTP\/1\.0 403 Forbidden\r\n/);
    expect(answer.text.endsWith('\r\n\r\nMountpoint in use')).toBe(true);
    expect(answer.closed).toBe(true);
    expect(await live(server, '/radio.mp3')).toBe(true);
  });

  test('a wrong source password gets 401 with Icecast realm', async () => {
    const bad = Buffer.from('source:wrong').toString('base64');
    const answer = await rawExchange(
      server.port,
      `PUT /other.mp3 HTTP/1.1\r\nHost: x\r\nAuthorization: Basic ${bad}\r\nContent-Type: audio/mpeg\r\n\r\n`,
    );
    expect(answer.text).toMatch(/^HTTP\/1\.0 401 Authentication Required\r\n/);
    expect(answer.text).toContain('WWW-Authenticate: Basic realm="Icecast2 Server"\r\n');
    const none = await rawExchange(
      server.port,
      'SOURCE /other.mp3 HTTP/1.0\r\nContent-Type: audio/mpeg\r\n\r\n',
    );
    expect(none.text).toMatch(/^HTTP\/1\.0 401 /);
    // The admin's credentials are not a source's.
    const admin = await rawExchange(
      server.port,
      `SOURCE /other.mp3 HTTP/1.0\r\nAuthorization: ${ADMIN_AUTH}\r\nContent-Type: audio/mpeg\r\n\r\n`,
    );
    expect(admin.text).toMatch(/^HTTP\/1\.0 401 /);
    // A ffmpeg with the wrong password fails.
    const job = pushSine(resources, server, { mount: '/other.mp3', password: 'nope', seconds: 2 });
    await expect(job.exited).rejects.toThrow();
  });

  test('an unknown mount without a content type is refused; with one it is created', async () => {
    const answer = await rawExchange(
      server.port,
      `PUT /new.mp3 HTTP/1.1\r\nHost: x\r\nAuthorization: ${SOURCE_AUTH}\r\n\r\n`,
    );
    expect(answer.text).toMatch(/^HTTP\/1\.0 403 Forbidden\r\n/);
    expect(answer.text).toContain('No Content-type given');
  });
});

describe('sources: the protocol on a raw socket', () => {
  let server: StreamServer;

  beforeAll(async () => {
    server = await resources.server({ sourceTimeoutMs: 1500, sourceGraceMs: 1000 });
  });

  /** Opens a source connection and resolves with the socket and what the server answered. */
  function openSource(
    head: string,
    until: RegExp,
  ): Promise<{ socket: net.Socket; answer: string }> {
    return new Promise((resolve, reject) => {
      const socket = resources.socket(
        net.connect(server.port, '127.0.0.1', () => socket.write(head)),
      );
      let answer = '';
      const timer = setTimeout(
        () => reject(new Error(`no answer matching ${until} (got ${JSON.stringify(answer)})`)),
        10_000,
      );
      const onData = (chunk: Buffer): void => {
        answer += chunk.toString('latin1');
        if (until.test(answer)) {
          clearTimeout(timer);
          socket.removeListener('data', onData);
          resolve({ socket, answer });
        }
      };
      socket.on('data', onData);
      socket.on('error', reject);
    });
  }

  test('PUT with Expect: 100-continue gets 100 then 200, as from Icecast', async () => {
    const { socket, answer } = await openSource(
      `PUT /expect.mp3 HTTP/1.1\r\nHost: x\r\nAuthorization: ${SOURCE_AUTH}\r\nContent-Type: audio/mpeg\r\nExpect: 100-continue\r\nIce-Name: Expecting\r\n\r\n`,
      /200 OK\r\n\r\n/,
    );
    expect(answer).toBe(
      'HTTP/1.1 100 Continue\r\nContent-Length: 0\r\n\r\nHTTP/1.0 200 OK\r\n\r\n',
    );
    expect(server.snapshot().mounts.find((m) => m.path === '/expect.mp3')?.name).toBe('Expecting');
    socket.destroy();
  });

  test('PUT without Expect streams its body at once; the unconfigured mount works', async () => {
    const frames = mp3Frames(200);
    const { socket, answer } = await openSource(
      `PUT /plain.mp3 HTTP/1.1\r\nHost: x\r\nAuthorization: ${SOURCE_AUTH}\r\nContent-Type: audio/mpeg\r\n\r\n`,
      /200 OK\r\n\r\n/,
    );
    expect(answer).toBe('HTTP/1.0 200 OK\r\n\r\n');
    socket.write(frames);
    const listener = new StreamListener(server.port, '/plain.mp3');
    resources.socket(listener.socket);
    await waitFor('the burst', () => listener.bodyBytes > 0);
    expect(listener.statusLine).toBe('HTTP/1.0 200 OK');
    expect(listener.headers.get('content-type')).toBe('audio/mpeg');
    socket.write(frames);
    await waitFor('live data', () => listener.bodyBytes >= frames.length);
    socket.destroy();
    listener.close();
  });

  test('a chunked PUT (a Node http.request source) is decoded', async () => {
    const frames = mp3Frames(100);
    const req = http.request({
      host: '127.0.0.1',
      port: server.port,
      method: 'PUT',
      path: '/chunked.mp3',
      headers: { Authorization: SOURCE_AUTH, 'Content-Type': 'audio/mpeg' },
      agent: false,
    });
    req.on('error', () => {});
    resources.onCleanup(() => {
      req.destroy();
    });
    req.write(frames.subarray(0, 20_000));
    req.write(frames.subarray(20_000));
    await waitFor(
      'the chunked source',
      () =>
        (server.snapshot().mounts.find((m) => m.path === '/chunked.mp3')?.totalBytesRead ?? 0) > 0,
    );
    const listener = new StreamListener(server.port, '/chunked.mp3', { keepAudio: true });
    resources.socket(listener.socket);
    await waitFor('the audio, without chunk framing', () => listener.bodyBytes >= frames.length);
    expect(Buffer.concat(listener.audio).subarray(0, frames.length).equals(frames)).toBe(true);
    listener.close();
    req.destroy();
  });

  test('a source that sends nothing is disconnected after the source timeout', async () => {
    const { socket } = await openSource(
      `SOURCE /quiet.mp3 HTTP/1.0\r\nAuthorization: ${SOURCE_AUTH}\r\nContent-Type: audio/mpeg\r\n\r\n`,
      /200 OK\r\n\r\n/,
    );
    let closed = false;
    socket.on('close', () => {
      closed = true;
    });
    await waitFor('the server to drop the silent source', () => closed);
    await waitFor(
      'the unconfigured mount to go away after its grace period',
      () => !server.snapshot(true).mounts.some((m) => m.path === '/quiet.mp3'),
    );
  });

  test('the source password check is exact', async () => {
    const almost = Buffer.from(`source:${SOURCE_PASSWORD}x`).toString('base64');
    const answer = await rawExchange(
      server.port,
      `SOURCE /x.mp3 HTTP/1.0\r\nAuthorization: Basic ${almost}\r\nContent-Type: audio/mpeg\r\n\r\n`,
    );
    expect(answer.text).toMatch(/^HTTP\/1\.0 401 /);
  });
});
