import { describe, expect, test } from '@jest/globals';
import { ChunkChain, type ChunkNode } from './chunk-chain.ts';
import { NO_META } from './icy.ts';

describe('ChunkChain', () => {
  test('offsets grow; the burst point stays just over burstSize behind the end', () => {
    const chain = new ChunkChain(10_000, NO_META);
    for (let i = 0; i < 20; i++) chain.append(Buffer.alloc(4000, i), NO_META);
    expect(chain.end).toBe(80_000);
    expect(chain.tail.start).toBe(76_000);
    // From the burst point to the end: at least 10,000 bytes, less than one chunk more.
    expect(chain.burstBytes).toBe(12_000);
    expect(chain.burstPoint.buf[0]).toBe(17);
  });

  test('before enough audio, the burst is all there is', () => {
    const chain = new ChunkChain(65_536, NO_META);
    chain.append(Buffer.alloc(1000), NO_META);
    expect(chain.burstBytes).toBe(1000);
  });

  test('a listener holding an old chunk can still follow the chain to the end', () => {
    const chain = new ChunkChain(1000, NO_META);
    const first = chain.append(Buffer.alloc(500), NO_META);
    for (let i = 0; i < 100; i++) chain.append(Buffer.alloc(500), NO_META);
    let node: ChunkNode | null = first;
    let bytes = 0;
    while (node) {
      bytes += node.buf.length;
      node = node.next;
    }
    expect(bytes).toBe(101 * 500);
    expect(chain.burstPoint.start).toBeGreaterThan(first.start);
  });
});
