import type { Socket } from 'node:net';
import type { ChunkNode } from './chunk-chain.ts';
import { EMPTY_META_BLOCK, ICY_METAINT, type IcyMeta } from './icy.ts';

export interface ListenerInit {
  id: number;
  socket: Socket;
  ip: string;
  userAgent: string;
  referer: string;
  /** `GET /radio.mp3 HTTP/1.1`, for the access log. */
  requestLine: string;
  /** Asked for ICY metadata (`Icy-MetaData: 1`). */
  icy: boolean;
  /** The mount the listener asked for (it may be served from its fallback). */
  home: string;
}

/** Why a listener was disconnected by the server, for logs and counters. */
export type DropReason = 'slow' | 'stalled' | 'kicked' | 'source-gone' | 'shutdown';

/**
 * The mount a listener is on, as its owner needs it when the socket closes. The listener only
 * carries the reference; the mount drives the listener, never the other way round.
 */
export interface ListenerMount {
  removeListener(listener: Listener, closed: boolean): boolean;
}

/**
 * One listener: its socket, where it is in its mount's chain and its ICY state. Everything per
 * chunk is a field update and one `socket.write` of the shared buffer (slices of it plus the
 * shared metadata block for ICY listeners); no timers, closures or copies per write.
 *
 * Backpressure: `write` until it returns false, then wait for 'drain' and catch up by following
 * the chain from the last chunk sent. The mount drops a listener that falls more than the queue
 * limit behind; the server's sweep drops one whose peer has stopped taking data.
 */
export class Listener {
  readonly id: number;
  readonly socket: Socket;
  readonly ip: string;
  readonly userAgent: string;
  readonly referer: string;
  readonly requestLine: string;
  readonly icy: boolean;
  readonly connectedAt = Date.now();
  home: string;
  /** The mount it is on now. */
  mount: ListenerMount | null = null;
  /** Position in the mount's listener array (for O(1) removal). */
  index = -1;
  /** The last chunk handed to the socket; the next one to send is `last.next`. */
  last!: ChunkNode;
  /** Waiting for 'drain': the mount skips it and it catches up by itself. */
  blocked = false;
  blockedSince = 0;
  /** Bytes handed to the socket (audio and metadata). */
  bytesSent = 0;
  /** Set once the server has decided to disconnect it. */
  dropReason: DropReason | null = null;
  /**
   * When the client closed its side (FIN): where its session ends. The socket itself closes
   * only when a later write fails, up to two chunks later.
   */
  peerEndedAt: number | null = null;
  // Stall detection by the server's sweep (see tcp-queues.ts).
  ackedAtSweep = -1;
  stalledSince = 0;
  kernelQueue = 0;
  /** How /proc/net/tcp names its socket (computed on the first sweep). */
  queueKey: string | null | undefined = undefined;
  #metaLeft = ICY_METAINT;
  #lastMeta: IcyMeta | null = null;
  /** The client closed its side (FIN). It may still read (`nc` does), so we keep sending. */
  #peerEnded = false;
  readonly #onDrain = (): void => {
    this.blocked = false;
    this.#pump();
  };
  readonly #onEnd = (): void => {
    this.#peerEnded = true;
    this.peerEndedAt = Date.now();
    // With data waiting in Node's buffer the next write that would reveal a dead peer may never
    // come; a client that hung up and stopped reading is gone.
    if (this.blocked) this.socket.destroy();
  };

  constructor(init: ListenerInit) {
    this.id = init.id;
    this.socket = init.socket;
    this.ip = init.ip;
    this.userAgent = init.userAgent;
    this.referer = init.referer;
    this.requestLine = init.requestLine;
    this.icy = init.icy;
    this.home = init.home;
    init.socket.on('drain', this.#onDrain);
    init.socket.on('end', this.#onEnd);
  }

  /**
   * Writes the response head and the burst (`from` up to `tail`) in one go, then follows the
   * chain. The burst is written whole even past the socket's high-water mark: it is bounded,
   * and a player needs all of it at once to start.
   */
  start(head: Buffer, from: ChunkNode | null, tail: ChunkNode): void {
    const socket = this.socket;
    socket.cork();
    socket.write(head);
    this.last = tail;
    for (let node = from; node !== null; node = node.next) {
      if (node.buf.length > 0) this.#emit(node);
      if (node === tail) break;
    }
    socket.uncork();
    if (socket.writableNeedDrain) this.#block();
  }

  /** Sends the chunk after `last`; the mount calls it for listeners that are not blocked. */
  send(node: ChunkNode): void {
    if (!this.#emit(node)) this.#block();
  }

  /** Bytes of the stream not yet handed to the socket. */
  lag(streamEnd: number): number {
    return streamEnd - this.last.end;
  }

  /** Continues from `node` of another mount's chain (moved, fallback, source back). */
  moveTo(node: ChunkNode): void {
    this.last = node;
    this.#lastMeta = null;
  }

  /** Disconnects it; the socket's 'close' tells its mount. */
  drop(reason: DropReason): void {
    if (this.dropReason !== null) return;
    this.dropReason = reason;
    this.blocked = true;
    this.socket.destroy();
  }

  #block(): void {
    this.blocked = true;
    this.blockedSince = Date.now();
    if (this.#peerEnded) this.socket.destroy();
  }

  #pump(): void {
    let node = this.last.next;
    while (node !== null && !this.blocked && this.dropReason === null) {
      if (!this.#emit(node)) this.#block();
      node = node.next;
    }
  }

  /** Writes one chunk; returns what `socket.write` returned. */
  #emit(node: ChunkNode): boolean {
    this.last = node;
    const buf = node.buf;
    if (!this.icy || buf.length < this.#metaLeft) {
      if (this.icy) this.#metaLeft -= buf.length;
      this.bytesSent += buf.length;
      return this.socket.write(buf);
    }
    // The chunk crosses one or more metadata points: slices of the shared buffer around the
    // metadata blocks, corked into one writev.
    const socket = this.socket;
    socket.cork();
    let offset = 0;
    let ok = true;
    while (buf.length - offset >= this.#metaLeft) {
      const end = offset + this.#metaLeft;
      if (end > offset) socket.write(buf.subarray(offset, end));
      const block = node.meta === this.#lastMeta ? EMPTY_META_BLOCK : node.meta.block;
      this.#lastMeta = node.meta;
      ok = socket.write(block);
      this.bytesSent += block.length;
      offset = end;
      this.#metaLeft = ICY_METAINT;
    }
    if (offset < buf.length) {
      ok = socket.write(offset === 0 ? buf : buf.subarray(offset));
      this.#metaLeft -= buf.length - offset;
    }
    this.bytesSent += buf.length;
    socket.uncork();
    return ok;
  }
}
