import { describe, expect, test } from '@jest/globals';
import { ChunkAssembler } from './chunk-assembler.ts';

/** `count` MP3 frames (128 kbit/s, 44.1 kHz), each filled with its index so order shows. */
function frames(count: number): Buffer[] {
  return Array.from({ length: count }, (_, i) => {
    const frame = Buffer.alloc(417, i % 200);
    frame.set([0xff, 0xfb, 0x90, 0x64]);
    return frame;
  });
}

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
