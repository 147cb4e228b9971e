import type { Logger } from '@radio/core';
import type { Mount } from './mount.ts';
import type { ResolvedOptions } from './options.ts';
import { queueKey, readSendQueues } from './tcp-queues.ts';

/** A peer that keeps its receive window closed this long has stopped reading. */
const ZERO_WINDOW_MS = 1000;

/**
 * The periodic check of every listener (one timer for the whole server, none per listener).
 *
 * A listener whose queue (what the chain has that it has not been sent, plus Node's buffer,
 * plus the kernel's send queue) is over the queue limit is dropped as slow. One whose peer
 * acknowledges nothing while data waits is dropped as stalled: after `ZERO_WINDOW_MS` when the
 * peer is there but its application does not read (the kernel probes a zero window), after
 * `stallTimeoutMs` when nothing comes back at all. Without the kernel's queue Icecast only
 * notices when its own queue overflows, about 205 s later, once the kernel buffers are full.
 */
export class ListenerSweep {
  readonly #options: ResolvedOptions;
  readonly #log: Logger;
  readonly #mounts: () => Iterable<Mount>;
  #timer: NodeJS.Timeout | null = null;
  #running = false;

  constructor(options: ResolvedOptions, log: Logger, mounts: () => Iterable<Mount>) {
    this.#options = options;
    this.#log = log;
    this.#mounts = mounts;
  }

  start(): void {
    this.#timer ??= setInterval(() => void this.run(), this.#options.sweepIntervalMs);
    this.#timer.unref();
  }

  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
  }

  async run(): Promise<void> {
    if (this.#running) return;
    const mounts = [...this.#mounts()].filter((mount) => mount.listenerCount > 0);
    if (mounts.length === 0) return;
    this.#running = true;
    try {
      const queues = await readSendQueues();
      const now = Date.now();
      const { queueLimit, stallTimeoutMs } = this.#options;
      const zeroWindowMs = Math.min(ZERO_WINDOW_MS, stallTimeoutMs);
      for (const mount of mounts) {
        for (const listener of [...mount.listeners]) {
          if (listener.dropReason !== null) continue;
          const socket = listener.socket;
          let kernel = 0;
          let zeroWindow = false;
          if (queues !== null) {
            listener.queueKey ??= queueKey(
              socket.localPort,
              socket.remoteAddress,
              socket.remotePort,
            );
            const queue = listener.queueKey === null ? undefined : queues.get(listener.queueKey);
            kernel = queue?.bytes ?? 0;
            zeroWindow = queue?.zeroWindow ?? false;
          }
          listener.kernelQueue = kernel;
          const inNode = socket.writableLength;
          if (mount.lagOf(listener) + inNode + kernel > queueLimit) {
            mount.dropSlow(listener, 'slow');
            continue;
          }
          const acked = listener.bytesSent - inNode - kernel;
          if (inNode + kernel > 0 && acked <= listener.ackedAtSweep) {
            if (listener.stalledSince === 0) listener.stalledSince = now;
            const stalled = now - listener.stalledSince;
            if (stalled >= stallTimeoutMs || (zeroWindow && stalled >= zeroWindowMs)) {
              mount.dropSlow(listener, 'stalled');
            }
          } else if (
            queues === null &&
            listener.blocked &&
            now - listener.blockedSince >= stallTimeoutMs
          ) {
            // Not Linux: Node's own buffer is all we see.
            mount.dropSlow(listener, 'stalled');
          } else {
            listener.stalledSince = 0;
          }
          listener.ackedAtSweep = acked;
        }
      }
    } catch (error) {
      this.#log.warn({ err: error }, 'listener sweep failed');
    } finally {
      this.#running = false;
    }
  }
}
