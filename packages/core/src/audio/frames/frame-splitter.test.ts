import { describe, expect, test } from '@jest/globals';
import { FrameSplitter } from './frame-splitter.ts';
import { parseMp3Header } from './mp3.ts';

/** `count` MP3 frames (128 kbit/s, 44.1 kHz), each filled with its index so order shows. */
function frames(count: number): Buffer[] {
  return Array.from({ length: count }, (_, i) => {
    const frame = Buffer.alloc(417, i % 200);
    frame.set([0xff, 0xfb, 0x90, 0x64]);
    return frame;
  });
}

function split(
  input: Buffer[],
  pieceSize: number,
): { out: Buffer; splitter: FrameSplitter; runs: number } {
  const splitter = new FrameSplitter('mp3');
  const all = Buffer.concat(input);
  const parts: Buffer[] = [];
  let runs = 0;
  for (let i = 0; i < all.length; i += pieceSize) {
    splitter.push(all.subarray(i, i + pieceSize), (run) => {
      parts.push(Buffer.from(run));
      runs += 1;
    });
  }
  return { out: Buffer.concat(parts), splitter, runs };
}

describe('FrameSplitter', () => {
  test.each([1, 7, 417, 1000, 65536])(
    'hands on whole frames whatever the read size (%i)',
    (piece) => {
      const input = frames(50);
      const { out } = split(input, piece);
      expect(out.equals(Buffer.concat(input))).toBe(true);
    },
  );

  test('drops an ID3v2 tag and junk, and resyncs', () => {
    const id3 = Buffer.concat([
      Buffer.from([0x49, 0x44, 0x33, 4, 0, 0, 0, 0, 0, 20]),
      Buffer.alloc(20, 0x55),
    ]);
    const good = frames(10);
    const junk = Buffer.from('this is not audio \xff\x00 at all', 'latin1');
    const { out, splitter } = split([id3, ...good.slice(0, 5), junk, ...good.slice(5)], 100);
    expect(out.equals(Buffer.concat(good))).toBe(true);
    expect(splitter.junkBytes).toBe(id3.length + junk.length);
    expect(splitter.header?.bitrate).toBe(128);
    expect(parseMp3Header(splitter.template as Buffer, 0)?.sampleRate).toBe(44100);
  });

  test('a false sync inside data is not taken for a frame', () => {
    const fake = Buffer.from([0xff, 0xfb, 0x90, 0x64, 1, 2, 3]); // a header with no frame after it
    const { out } = split([fake, ...frames(3)], 4096);
    expect(out.equals(Buffer.concat(frames(3)))).toBe(true);
  });

  test('resynchronises after garbage', () => {
    const frame = Buffer.alloc(417);
    frame.set([0xff, 0xfb, 0x90, 0x44]); // MPEG-1 layer III, 128 kbit/s, 44.1 kHz
    const counts: number[] = [];
    const splitter = new FrameSplitter('mp3');
    splitter.push(Buffer.concat([Buffer.from('garbage!'), frame, frame]), (_frames, samples) =>
      counts.push(samples),
    );
    expect(counts.reduce((a, b) => a + b, 0)).toBe(2304);
    expect(splitter.junkBytes).toBe(8);
  });

  test('passes other formats through as they come', () => {
    const splitter = new FrameSplitter(null);
    const got: Buffer[] = [];
    splitter.push(Buffer.from('OggS....'), (run) => got.push(run));
    expect(Buffer.concat(got).toString()).toBe('OggS....');
  });
});
