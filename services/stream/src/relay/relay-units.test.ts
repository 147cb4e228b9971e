import { describe, expect, test } from '@jest/globals';
import { IcyDemuxer, icyMeta } from '../icy.ts';
import { Backoff } from './backoff.ts';
import { EdgeDirectory } from './edge-directory.ts';
import { parseStatsXml } from './origin-list.ts';

describe('parseStatsXml', () => {
  test('keeps MP3 and AAC sources and says why it skips the others', () => {
    const xml = `<?xml version="1.0"?>
<icestats><listeners>3</listeners>
<source mount="/radio.mp3"><listenurl>http://o:8000/radio.mp3</listenurl><server_type>audio/mpeg</server_type></source>
<source mount="/radio.aac"><server_type>audio/aac</server_type></source>
<source mount="/talk.ogg"><server_type>application/ogg</server_type></source>
<source mount="/no-type"></source>
<source mount="/a/../b.mp3"><server_type>audio/mpeg</server_type></source>
<edge node="e:1"><listeners>2</listeners></edge>
</icestats>`;
    const list = parseStatsXml(xml);
    expect(list.mounts).toEqual([
      { path: '/radio.mp3', contentType: 'audio/mpeg', listenUrl: 'http://o:8000/radio.mp3' },
      { path: '/radio.aac', contentType: 'audio/aac', listenUrl: null },
    ]);
    expect(list.skipped.map((s) => s.path)).toEqual(['/talk.ogg', '/no-type', '/a/../b.mp3']);
    expect(list.skipped[0]?.why).toContain('not MP3 or AAC');
  });
});

describe('Backoff', () => {
  test('doubles up to the maximum, each delay between half and all of its step', () => {
    const low = new Backoff(500, 4000, () => 0);
    expect([1, 2, 3, 4, 5].map(() => low.next())).toEqual([250, 500, 1000, 2000, 2000]);
    const high = new Backoff(500, 4000, () => 1);
    expect([1, 2, 3, 4, 5].map(() => high.next())).toEqual([500, 1000, 2000, 4000, 4000]);
    high.reset();
    expect(high.next()).toBe(500);
  });
});

describe('IcyDemuxer', () => {
  test('gives audio and titles in stream order, across any cut of the bytes', () => {
    const metaint = 8;
    const stream = Buffer.concat([
      Buffer.alloc(8, 1),
      icyMeta('One').block,
      Buffer.alloc(8, 2),
      Buffer.from([0]),
      Buffer.alloc(8, 3),
      icyMeta("It's two", 'http://x').block,
      Buffer.alloc(3, 4),
    ]);
    for (const piece of [1, 5, stream.length]) {
      const events: string[] = [];
      const demuxer = new IcyDemuxer(
        metaint,
        (audio) => events.push(...[...audio].map(String)),
        (title, url) => events.push(`[${title}|${url}]`),
      );
      for (let i = 0; i < stream.length; i += piece) demuxer.push(stream.subarray(i, i + piece));
      expect(events.join('')).toBe(`11111111[One|]2222222233333333[It's two|http://x]444`);
    }
  });
});

describe('EdgeDirectory', () => {
  const report = (node: string, listeners: number, maxListeners: number | null) => ({
    node,
    url: `http://${node}`,
    mounts: [{ mount: '/radio.mp3', listeners }],
    maxListeners,
    ts: 0,
  });

  test('forgets silent edges, ignores itself and picks the edge with most room', () => {
    let changes = 0;
    const directory = new EdgeDirectory(1000, () => changes++);
    directory.self = 'me:1';
    directory.update(report('me:1', 0, null), 0);
    directory.update(report('a:1', 9, 10), 0);
    directory.update(report('b:1', 5, 10), 500);
    expect(changes).toBe(2);
    expect(directory.edges(600).map((e) => e.node)).toEqual(['a:1', 'b:1']);
    expect(directory.withRoom(600)?.node).toBe('b:1');
    expect(directory.edges(1200).map((e) => e.node)).toEqual(['b:1']);
    directory.update(report('b:1', 10, 10), 1300);
    expect(directory.withRoom(1300)).toBeNull();
    directory.update(report('c:1', 500, null), 1300);
    expect(directory.withRoom(1300)?.node).toBe('c:1');
  });
});
