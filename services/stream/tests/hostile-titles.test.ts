import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { waitFor } from '@radio/core/testing';
import type { StreamServer } from '../src/index.ts';
import {
  ADMIN_AUTH,
  ffmpegPath,
  frameSource,
  Resources,
  request,
  StreamListener,
} from './helpers.ts';

/*
 * Titles are whatever an encoder or a track's tags say: they must not become something else
 * in what readers parse (an ICY StreamUrl a player opens, a broken XML document, escape
 * sequences on a terminal).
 */

const resources = new Resources();
afterAll(() => resources.dispose());

let server: StreamServer;

beforeAll(async () => {
  server = await resources.server();
  await frameSource(resources, server, '/radio.mp3');
});

async function setTitle(encodedSong: string): Promise<void> {
  const res = await request(
    server,
    `/admin/metadata?mount=/radio.mp3&mode=updinfo&charset=UTF-8&song=${encodedSong}`,
    { headers: { Authorization: ADMIN_AUTH } },
  );
  expect(res.status).toBe(200);
}

/** The non-empty ICY metadata blocks in `body` (what follows the response head). */
function titleBlocks(body: Buffer): Buffer[] {
  const blocks: Buffer[] = [];
  for (let at = 16000; at < body.length; at += 16000 + 1 + (body[at] as number) * 16) {
    const length = (body[at] as number) * 16;
    if (length > 0 && at + 1 + length <= body.length) {
      blocks.push(body.subarray(at + 1, at + 1 + length));
    }
  }
  return blocks;
}

/** The raw bytes of the first title block a new ICY listener gets that holds `marker`. */
async function blockWith(marker: string): Promise<Buffer> {
  const listener = new StreamListener(server.port, '/radio.mp3', { icy: true });
  resources.socket(listener.socket);
  const raw: Buffer[] = [];
  listener.socket.on('data', (chunk: Buffer) => raw.push(chunk));
  const found = (): Buffer | undefined => {
    const bytes = Buffer.concat(raw);
    const body = bytes.subarray(bytes.indexOf('\r\n\r\n') + 4);
    return titleBlocks(body).find((block) => block.includes(marker));
  };
  await waitFor(`a title with ${marker}`, () => found() !== undefined);
  listener.close();
  return found() as Buffer;
}

/** What ffmpeg, as a player, reads from the stream's ICY metadata (its verbose log). */
function ffmpegMetadata(): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const child = resources.child(
      spawn(
        ffmpegPath,
        ['-v', 'verbose', '-icy', '1', '-i', `http://127.0.0.1:${server.port}/radio.mp3`].concat([
          // Past the burst (4 s at 128 kbit/s), into the audio sent since the title was set.
          '-t',
          '6',
          '-f',
          'null',
          '-',
        ]),
        { stdio: ['ignore', 'ignore', 'pipe'] },
      ),
    );
    let log = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      log += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', () =>
      resolve(log.split('\n').filter((line) => line.includes('Metadata update for'))),
    );
  });
}

describe('titles that try to be more than a title', () => {
  test("a title holding `';StreamUrl='…` does not give ICY readers a StreamUrl", async () => {
    await setTitle(encodeURIComponent("Hello';StreamUrl='http://evil.example/';"));
    const block = (await blockWith('Hello')).toString('utf8').replace(/\0+$/, '');
    expect(block).toBe("StreamTitle='Hello\u2019;StreamUrl=\u2019http://evil.example/\u2019;';");
    expect(block).not.toMatch(/StreamUrl='/);
    const updates = await ffmpegMetadata();
    expect(updates.some((line) => line.includes('StreamTitle: Hello'))).toBe(true);
    expect(updates.filter((line) => line.includes('Metadata update for StreamUrl'))).toEqual([]);
  });

  test('a title starting with `;` or ending with `=` cannot close its quotes early either', async () => {
    await setTitle(encodeURIComponent(";StreamUrl='x' StreamUrl="));
    const block = (await blockWith(' ;')).toString('utf8').replace(/\0+$/, '');
    expect(block).toBe("StreamTitle=' ;StreamUrl=\u2019x' StreamUrl= ';");
    // The first `';` and the first `='` are the block's own.
    expect(block.indexOf("';")).toBe(block.length - 2);
    expect(block.indexOf("='")).toBe('StreamTitle'.length);
  });

  test('control characters and line breaks reach no output', async () => {
    // ESC [31m, CR LF, BEL, DEL and the C1 control U+0085, percent-encoded as an encoder would.
    await setTitle('A%1B%5B31mB%0D%0AC%07D%7FE%C2%85F');
    const clean = 'A[31mB CDEF';
    expect(server.snapshot().mounts.find((m) => m.path === '/radio.mp3')?.title).toBe(clean);
    const block = await blockWith('CDEF');
    expect([...block].filter((byte) => byte !== 0 && byte < 0x20)).toEqual([]);
    expect(block.toString('utf8').replace(/\0+$/, '')).toBe(`StreamTitle='${clean}';`);
    const xml = await request(server, '/admin/stats.xml', {
      headers: { Authorization: ADMIN_AUTH },
    });
    expect(xml.body).toContain(`<title>${clean}</title>`);
    const json = await request(server, '/status-json.xsl');
    expect(json.body).not.toMatch(/\\u00|\\[rnt]/);
    expect(JSON.parse(json.body).icestats.source.title).toBe(clean);
    const page = await request(server, '/admin/', { headers: { Authorization: ADMIN_AUTH } });
    expect(page.body).toContain(clean);
    for (const body of [xml.body, json.body, page.body]) {
      expect(body.replace(/[\t\n\r]/g, '')).not.toMatch(/\p{Cc}/u);
    }
  });
});
