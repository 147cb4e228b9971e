import { describe, expect, test } from '@jest/globals';
import { ChunkAssembler, FrameSplitter } from './frame-splitter.ts';
import { formatOf } from './index.ts';
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
  const splitter = new FrameSplitter(formatOf('audio/mpeg'));
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

  test('passes other formats through as they come', () => {
    const splitter = new FrameSplitter(formatOf('application/ogg'));
    const got: Buffer[] = [];
    splitter.push(Buffer.from('OggS....'), (run) => got.push(run));
    expect(Buffer.concat(got).toString()).toBe('OggS....');
  });
});

describe('ChunkAssembler', () => {
  test('gathers about chunkMs of audio per chunk', () => {
    const assembler = new ChunkAssembler(250, 4096);
    const chunks: Buffer[] = [];
    for (const frame of frames(40)) {
      const chunk = assembler.add(frame, 1152, 44100);
      if (chunk) chunks.push(chunk);
    }
    // 250 ms = 11025 samples = 9.6 frames: a chunk every 10 frames.
    expect(chunks.map((c) => c.length / 417)).toEqual([10, 10, 10, 10]);
    expect(assembler.flush()).toBeNull();
  });

  test('uses a byte size without frame timing', () => {
    const assembler = new ChunkAssembler(250, 4096);
    expect(assembler.add(Buffer.alloc(3000), 0, 0)).toBeNull();
    expect(assembler.add(Buffer.alloc(3000), 0, 0)?.length).toBe(6000);
  });
});
