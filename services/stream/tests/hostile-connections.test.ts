import { readdir, readFile, stat } from 'node:fs/promises';
import net from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from '@jest/globals';
import { waitFor } from '@radio/core/testing';
import type { StreamServer } from '../src/index.ts';
import { ADMIN_AUTH, frameSource, Resources, request, StreamListener } from './helpers.ts';

/*
 * Clients that try to hold the server's sockets: a request head trickled byte by byte, one
 * address opening connection after connection (directly and behind a trusted proxy), and
 * huge headers meant to fill the disk through the logs.
 */

const resources = new Resources();
afterAll(() => resources.dispose());

/** A connection from `localAddress` that sends nothing; resolves once connected. */
async function idle(server: StreamServer, localAddress: string): Promise<net.Socket> {
  const socket = resources.socket(
    net.connect({ port: server.port, host: '127.0.0.1', localAddress }),
  );
  socket.on('error', () => {});
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  return socket;
}

/** What the server answers on a connection from `localAddress` before it is closed. */
function answerTo(server: StreamServer, localAddress: string, data = ''): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect({ port: server.port, host: '127.0.0.1', localAddress }, () =>
      socket.write(data),
    );
    const parts: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => parts.push(chunk));
    socket.on('error', () => {});
    socket.on('close', () => resolve(Buffer.concat(parts).toString('latin1')));
    resources.socket(socket);
  });
}

async function errorLog(dir: string): Promise<string> {
  return readFile(join(dir, 'logs', 'error.log'), 'utf8').catch(() => '');
}

describe('a request head has a deadline', () => {
  test('a head trickled a byte at a time is cut at the header timeout, not renewed by each byte', async () => {
    const server = await resources.server({ headerTimeoutMs: 1000 });
    const head = `GET /radio.mp3 HTTP/1.0\r\nUser-Agent: ${'x'.repeat(40)}\r\n\r\n`;
    const socket = resources.socket(net.connect(server.port, '127.0.0.1'));
    socket.on('error', () => {});
    let sent = 0;
    let closed = false;
    let answer = '';
    socket.on('data', (chunk: Buffer) => {
      answer += chunk.toString('latin1');
    });
    socket.on('close', () => {
      closed = true;
    });
    // One byte every 200 ms: an idle timeout of 1 s never fires; the whole head takes 13 s.
    const timer = setInterval(() => {
      if (closed || sent >= head.length) return;
      socket.write(head[sent] as string);
      sent += 1;
    }, 200);
    resources.onCleanup(() => clearInterval(timer));
    await waitFor('the server to close the trickling connection', () => closed, 20_000);
    clearInterval(timer);
    expect(sent).toBeLessThan(head.length);
    expect(answer).toBe('');
  });
});

describe('connections per client address', () => {
  test('past the cap an address gets 429 at once, logged once; other addresses are served', async () => {
    const dataDir = await resources.tempDir();
    const server = await resources.server({ maxConnectionsPerClient: 3, dataDir });
    const held = [];
    for (let i = 0; i < 3; i++) held.push(await idle(server, '127.0.0.2'));
    for (let i = 0; i < 3; i++) {
      const refused = await answerTo(server, '127.0.0.2');
      expect(refused).toMatch(/^HTTP\/1\.0 429 Too Many Requests\r\n/);
      expect(refused).toMatch(/\r\n\r\ntoo many connections from your address$/);
    }
    const other = await request(server, '/health', { localAddress: '127.0.0.3' });
    expect(other.status).toBe(200);
    const lines = (await errorLog(dataDir))
      .split('\n')
      .filter((line) => line.includes('too many connections from one address'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('ip=127.0.0.2');
    // A connection that ends gives its place back.
    (held[0] as net.Socket).destroy();
    await waitFor('a place for 127.0.0.2 again', async () => {
      const res = await request(server, '/health', { localAddress: '127.0.0.2' });
      return res.status === 200;
    });
  });

  test('behind a trusted proxy, connections count for the client it names', async () => {
    const server = await resources.server({
      maxConnectionsPerClient: 2,
      trustedProxies: ['127.0.0.1'],
    });
    await frameSource(resources, server, '/radio.mp3');
    const listen = (client: string): StreamListener => {
      const listener = new StreamListener(server.port, '/radio.mp3', {
        headers: [`X-Forwarded-For: ${client}`],
      });
      resources.socket(listener.socket);
      return listener;
    };
    const first = [listen('203.0.113.5'), listen('203.0.113.5')];
    await waitFor('two listeners of 203.0.113.5', () => first.every((l) => l.bodyBytes > 0));
    const third = listen('203.0.113.5');
    await waitFor('an answer for the third', () => third.closed);
    expect(third.statusLine).toBe('HTTP/1.0 429 Too Many Requests');
    const other = listen('203.0.113.6');
    await waitFor('audio for another client of the proxy', () => other.bodyBytes > 0);
    expect(other.statusLine).toBe('HTTP/1.0 200 OK');
    const clients = await request(server, '/admin/listclients?mount=/radio.mp3', {
      headers: { Authorization: ADMIN_AUTH },
    });
    expect(clients.body.match(/<IP>203\.0\.113\.5<\/IP>/g)).toHaveLength(2);
  });

  test('a proxy named by host is trusted once the server has started', async () => {
    const server = await resources.server({ trustedProxies: ['localhost'] });
    await frameSource(resources, server, '/radio.mp3');
    const listener = new StreamListener(server.port, '/radio.mp3', {
      headers: ['X-Forwarded-For: 198.51.100.23'],
    });
    resources.socket(listener.socket);
    await waitFor('audio', () => listener.bodyBytes > 0);
    const clients = await request(server, '/admin/listclients?mount=/radio.mp3', {
      headers: { Authorization: ADMIN_AUTH },
    });
    expect(clients.body).toContain('<IP>198.51.100.23</IP>');
  });
});

describe('log files', () => {
  test('a 16 KB User-Agent sent again and again leaves rotated files of bounded size', async () => {
    const dataDir = await resources.tempDir();
    const fileBytes = 64 * 1024;
    const server = await resources.server({ dataDir, logFileBytes: fileBytes });
    const agent = 'A'.repeat(15_000);
    for (let i = 0; i < 60; i++) {
      const res = await request(server, '/status-json.xsl', { headers: { 'User-Agent': agent } });
      expect(res.status).toBe(200);
    }
    // A request line may hold control characters (a terminal's escape sequences).
    const withEscape = await answerTo(
      server,
      '127.0.0.1',
      'GET /no\u001b[2Jmount HTTP/1.0\r\n\r\n',
    );
    expect(withEscape).toMatch(/^HTTP\/1\.0 404 /);
    const dir = join(dataDir, 'logs');
    await waitFor('the last request in the log', async () => {
      const text = await readFile(join(dir, 'access.log'), 'utf8');
      return text.includes('"GET /no\\x1b[2Jmount HTTP/1.0" 404');
    });
    const names = (await readdir(dir)).filter((name) => name.startsWith('access.log')).sort();
    expect(names).toEqual(['access.log', 'access.log.1', 'access.log.2', 'access.log.3']);
    let total = 0;
    for (const name of names) {
      const { size } = await stat(join(dir, name));
      expect(size).toBeLessThanOrEqual(fileBytes);
      total += size;
      const text = await readFile(join(dir, name), 'utf8');
      for (const line of text.split('\n').filter(Boolean)) {
        expect(Buffer.byteLength(line)).toBeLessThan(8 * 1024);
        // Control characters are written as \xHH, never as themselves.
        expect(line).not.toMatch(/\p{Cc}/u);
      }
    }
    expect(total).toBeLessThanOrEqual(4 * fileBytes);
  });
});
