import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from '@jest/globals';
import { FrameSplitter } from '@radio/core';
import { waitFor } from '@radio/core/testing';
import type { StreamServer } from '../src/index.ts';
import {
  ADMIN_AUTH,
  decodeErrors,
  pushSine,
  Resources,
  request,
  StreamListener,
} from './helpers.ts';
import { loggedServer, startIcecast } from './relay-helpers.ts';

/* Relays both ways with the real Icecast 2.4 (Debian's icecast2). */

const resources = new Resources();
afterAll(() => resources.dispose());

/**
 * Decoder errors in what a listener heard, from its first whole frame on: Icecast starts a
 * listener where its buffer is, often mid-frame, and the decoder complains about that partial
 * frame ("invalid new backstep"); what matters is that every whole frame relayed decodes.
 */
async function heardClean(listener: StreamListener): Promise<string[]> {
  const file = join(await resources.tempDir(), 'heard.mp3');
  const frames: Buffer[] = [];
  new FrameSplitter('mp3').push(Buffer.concat(listener.audio), (run) => frames.push(run));
  await writeFile(file, Buffer.concat(frames));
  return decodeErrors(file);
}

describe('edge relays with a real Icecast', () => {
  test('Icecast relays our origin (<relay> per mount) and its listener hears the station', async () => {
    const origin = await resources.server();
    pushSine(resources, origin, { mount: '/radio.mp3' });
    await waitFor('the origin source', () =>
      origin.snapshot().mounts.some((m) => m.state === 'live'),
    );
    await request(origin, '/admin/metadata?mount=/radio.mp3&mode=updinfo&song=On%20the%20origin', {
      headers: { Authorization: ADMIN_AUTH },
    });
    const icecast = await startIcecast(resources, [
      { port: origin.port, remote: '/radio.mp3', local: '/radio.mp3' },
    ]);
    if (!icecast) throw new Error('icecast2 cannot run here (needs root and the icecast2 user)');
    const listener = await waitFor(
      'the relayed mount on Icecast',
      async () => {
        const status = await fetch(`${icecast.url}/status-json.xsl`).then((res) => res.text());
        if (!status.includes('/radio.mp3')) return false;
        const candidate = new StreamListener(icecast.port, '/radio.mp3', {
          icy: true,
          keepAudio: true,
        });
        resources.socket(candidate.socket);
        return candidate;
      },
      30_000,
    );
    await waitFor(
      'audio and the title through Icecast',
      () => listener.audioBytes > 100_000 && listener.titles.includes('On the origin'),
      30_000,
    );
    expect(listener.statusLine).toMatch(/^HTTP\/1\.[01] 200/);
    expect(await heardClean(listener)).toEqual([]);
  }, 90_000);

  test('our edge relays a real Icecast source mount with its titles', async () => {
    const icecast = await startIcecast(resources);
    if (!icecast) throw new Error('icecast2 cannot run here (needs root and the icecast2 user)');
    const asServer = { port: icecast.port, url: icecast.url } as StreamServer;
    pushSine(resources, asServer, { mount: '/live.mp3', legacy: true });
    await waitFor('the source on Icecast', async () =>
      (await fetch(`${icecast.url}/status-json.xsl`).then((res) => res.text())).includes(
        '/live.mp3',
      ),
    );
    await request(asServer, '/admin/metadata?mount=/live.mp3&mode=updinfo&song=From%20Icecast', {
      headers: { Authorization: ADMIN_AUTH },
    });
    const edge = await loggedServer(resources, {
      relayFrom: icecast.url,
      relayPollMs: 300,
      edgeReportMs: 300,
    });
    await waitFor('the edge relaying /live.mp3', () =>
      edge.server.snapshot().mounts.some((m) => m.path === '/live.mp3' && m.state === 'live'),
    );
    const listener = new StreamListener(edge.server.port, '/live.mp3', {
      icy: true,
      keepAudio: true,
    });
    resources.socket(listener.socket);
    await waitFor(
      'audio and the title on the edge',
      () => listener.audioBytes > 100_000 && listener.titles.includes('From Icecast'),
      30_000,
    );
    await request(asServer, '/admin/metadata?mount=/live.mp3&mode=updinfo&song=Next%20one', {
      headers: { Authorization: ADMIN_AUTH },
    });
    await waitFor('the next title on the edge', () => listener.titles.includes('Next one'));
    expect(await heardClean(listener)).toEqual([]);
    // Icecast has no /admin/edge-listeners: the edge says so and keeps serving.
    await waitFor('the report failure in the log', () =>
      edge.said('cannot report listeners to the origin'),
    );
    expect(listener.closed).toBe(false);
  }, 90_000);
});
