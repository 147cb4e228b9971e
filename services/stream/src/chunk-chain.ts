import type { IcyMeta } from './icy.ts';

/**
 * One piece of a mount's stream: a Buffer shared by every listener (never copied per
 * listener), where it sits in the stream, and the title that was current when it arrived, so a
 * listener hears a title change when the audio it belongs to reaches it. Every chunk starts on
 * a frame boundary (a sync point), so any chunk is a clean place for a player to start.
 */
export class ChunkNode {
  readonly buf: Buffer;
  /** Offset of the chunk's first byte in the mount's stream. */
  readonly start: number;
  /** `start + buf.length`. */
  readonly end: number;
  readonly meta: IcyMeta;
  next: ChunkNode | null = null;

  constructor(buf: Buffer, start: number, meta: IcyMeta) {
    this.buf = buf;
    this.start = start;
    this.end = start + buf.length;
    this.meta = meta;
  }
}

/**
 * The append-only chain of a mount's chunks. It holds only what a new listener's burst needs:
 * the chain's head is the burst point. Older chunks stay alive exactly as long as some listener
 * still has to send them (it holds a reference to the last chunk it sent and follows `next`),
 * so trimming is dropping a reference, and the queue limit bounds how far back that can be.
 */
export class ChunkChain {
  readonly #burstSize: number;
  #head: ChunkNode;
  #tail: ChunkNode;

  constructor(burstSize: number, meta: IcyMeta) {
    this.#burstSize = burstSize;
    // An empty sentinel: a listener that joins before any audio starts after it.
    this.#tail = this.#head = new ChunkNode(Buffer.alloc(0), 0, meta);
  }

  /** The newest chunk (a listener that has sent it is caught up). */
  get tail(): ChunkNode {
    return this.#tail;
  }

  /** Where a new listener starts: the first chunk of its burst. */
  get burstPoint(): ChunkNode {
    return this.#head;
  }

  /** Bytes ever appended: the stream offset of the next chunk. */
  get end(): number {
    return this.#tail.end;
  }

  /** Bytes a new listener gets at once. */
  get burstBytes(): number {
    return this.#tail.end - this.#head.start;
  }

  append(buf: Buffer, meta: IcyMeta): ChunkNode {
    const node = new ChunkNode(buf, this.#tail.end, meta);
    this.#tail.next = node;
    this.#tail = node;
    this.#head = advanceBurstPoint(this.#head, node.end, this.#burstSize);
    return node;
  }
}

/**
 * Moves the burst point forward as the stream grows: the newest chunk from which at least
 * `burstSize` bytes are available up to `end`. A new listener gets everything from there at
 * once, so it starts on a chunk boundary (a frame boundary) with a little more than
 * `burstSize` bytes, as Icecast does (65,800 bytes for its 65,535).
 */
function advanceBurstPoint(point: ChunkNode, end: number, burstSize: number): ChunkNode {
  let current = point;
  for (;;) {
    const next = current.next;
    if (next === null || end - next.start < burstSize) return current;
    current = next;
  }
}
