import type { ChunkNode } from './chunk-chain.ts';

/**
 * Moves the burst point forward as the stream grows: the newest chunk from which at least
 * `burstSize` bytes are available up to `end`. A new listener gets everything from there at
 * once, so it starts on a chunk boundary (a frame boundary) with a little more than
 * `burstSize` bytes, as Icecast does (65,800 bytes for its 65,535).
 */
export function advanceBurstPoint(point: ChunkNode, end: number, burstSize: number): ChunkNode {
  let current = point;
  for (;;) {
    const next = current.next;
    if (next === null || end - next.start < burstSize) return current;
    current = next;
  }
}
