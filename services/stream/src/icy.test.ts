import { describe, expect, test } from '@jest/globals';
import { EMPTY_META_BLOCK, IcyDemuxer, IcyReader, icyMeta, NO_META } from './icy.ts';

describe('ICY metadata blocks', () => {
  test('length byte, StreamTitle in UTF-8, zero padding to 16 bytes', () => {
    const meta = icyMeta("Café über 'quoted' & more");
    const text = Buffer.from("StreamTitle='Café über 'quoted' & more';", 'utf8');
    expect(meta.block[0]).toBe(Math.ceil(text.length / 16));
    expect(meta.block.length).toBe(1 + (meta.block[0] as number) * 16);
    expect(meta.block.subarray(1, 1 + text.length).equals(text)).toBe(true);
    expect(meta.block.subarray(1 + text.length).every((b) => b === 0)).toBe(true);
  });

  test('a StreamUrl when given; an empty title is still a title', () => {
    expect(icyMeta('T', 'http://x/').block.toString('utf8')).toContain(
      "StreamTitle='T';StreamUrl='http://x/';",
    );
    expect(icyMeta('').block.toString('utf8', 1)).toMatch(/^StreamTitle='';\0*$/);
    expect(NO_META.block).toBe(EMPTY_META_BLOCK);
  });

  test("a title or URL cannot end its value early: the relay's reader gets no StreamUrl from a title", () => {
    const titles: [string, string][] = [];
    const reader = new IcyDemuxer(
      4,
      () => {},
      (title, url) => titles.push([title, url]),
    );
    const hostile = "a';StreamUrl='http://evil.example/";
    reader.push(Buffer.concat([Buffer.from('abcd'), icyMeta(hostile).block]));
    reader.push(Buffer.concat([Buffer.from('abcd'), icyMeta(`${hostile}=`, "x';y").block]));
    expect(titles).toEqual([
      ['a\u2019;StreamUrl=\u2019http://evil.example/', ''],
      ['a\u2019;StreamUrl=\u2019http://evil.example/= ', 'x\u2019;y'],
    ]);
  });

  test('a very long title is cut to the 4080-byte maximum on a character boundary', () => {
    const meta = icyMeta('é'.repeat(5000));
    expect(meta.block.length).toBeLessThanOrEqual(1 + 255 * 16);
    const text = meta.block.toString('utf8', 1).replace(/\0+$/, '');
    expect(text).toMatch(/^StreamTitle='é+';$/);
  });
});

describe('IcyReader', () => {
  test('splits audio and metadata across any chunking', () => {
    const metaint = 10;
    const block = icyMeta('Hello').block;
    const stream = Buffer.concat([
      Buffer.alloc(10, 1),
      block,
      Buffer.alloc(10, 2),
      EMPTY_META_BLOCK,
      Buffer.alloc(5, 3),
    ]);
    for (const size of [1, 3, 64]) {
      const reader = new IcyReader(metaint);
      const audio: Buffer[] = [];
      for (let i = 0; i < stream.length; i += size)
        audio.push(...reader.push(stream.subarray(i, i + size)));
      expect(
        Buffer.concat(audio).equals(
          Buffer.concat([Buffer.alloc(10, 1), Buffer.alloc(10, 2), Buffer.alloc(5, 3)]),
        ),
      ).toBe(true);
      expect(reader.titles).toEqual(['Hello']);
    }
  });
});
