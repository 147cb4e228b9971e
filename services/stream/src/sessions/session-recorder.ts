import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import {
  type Bus,
  BusClosedError,
  BusInvalidMessageError,
  type ListenerSessionRecord,
  type Logger,
} from '@radio/core';

/** A finished session as the server saw it; the recorder gives it its key. */
export type FinishedSession = Omit<ListenerSessionRecord, 'key'>;

export interface SessionRecorderOptions {
  /** Off: nothing is recorded, as without a bus. */
  enabled: boolean;
  /** Records kept while the api or the bus is away; beyond, the oldest go (default 100,000). */
  bufferSize: number;
  /** Records per `listeners.sessions` command; this many waiting sends at once (default 1,000). */
  batchSize: number;
  /** How often what waits is sent (default 2 s). */
  flushMs: number;
  /** The wait after a failed batch: doubling from `retryMs` up to `retryMaxMs` (1 s → 10 s). */
  retryMs: number;
  retryMaxMs: number;
  /** How long one batch waits for the api's receipt (default 10 s). */
  requestTimeoutMs: number;
  /** The last flush on close gives up after this long (default 2 s). */
  closeTimeoutMs: number;
}

/** For metrics: records waiting, sent (receipted), dropped (buffer full or lost on close), failed batches. */
export interface SessionRecorderStats {
  buffered: number;
  sent: number;
  dropped: number;
  failures: number;
}

/** The user agent field's limit in the bus schema: longer ones are cut, never refused. */
const MAX_USER_AGENT = 512;

/**
 * Finished listener sessions on their way to the api, which stores them: kept in a bounded
 * buffer and sent in batches as the `listeners.sessions` command, whose reply is the receipt.
 * A batch without one (bus down, api away, database error) goes back to the front of the
 * buffer and is sent again after a backoff; the api stores each session key once, so a batch
 * that arrived but whose reply was lost is harmless. A full buffer drops its oldest waiting
 * records (a batch in flight may be stored already, so it is kept until its answer). Without a
 * bus nothing can store them, and nothing is kept.
 */
export class SessionRecorder {
  readonly #options: SessionRecorderOptions;
  readonly #bus: Bus | null;
  readonly #log: Logger;
  /** Waiting records from `#head` on (a moving start instead of `shift`, compacted now and then). */
  #queue: ListenerSessionRecord[] = [];
  #head = 0;
  #inflight: ListenerSessionRecord[] | null = null;
  #sending: Promise<void> | null = null;
  #node = '';
  #timer: NodeJS.Timeout | null = null;
  #retryTimer: NodeJS.Timeout | null = null;
  #retryDelay = 0;
  #closed = false;
  #busClosed = false;
  #sent = 0;
  #dropped = 0;
  #failures = 0;

  constructor(options: SessionRecorderOptions, deps: { bus: Bus | null; log: Logger }) {
    this.#options = options;
    this.#bus = options.enabled ? deps.bus : null;
    this.#log = deps.log;
  }

  /** Starts the periodic flush; `node` names this server in the records' batches. */
  start(node: string): void {
    this.#node = node;
    if (this.#bus === null || this.#timer !== null) return;
    this.#timer = setInterval(() => this.#flush(), this.#options.flushMs);
    this.#timer.unref();
  }

  stats(): SessionRecorderStats {
    return {
      buffered: this.#waiting() + (this.#inflight?.length ?? 0),
      sent: this.#sent,
      dropped: this.#dropped,
      failures: this.#failures,
    };
  }

  record(session: FinishedSession): void {
    if (this.#bus === null || this.#closed) return;
    const userAgent = session.userAgent;
    this.#queue.push({
      ...session,
      key: randomUUID(),
      endedAt: Math.max(session.endedAt, session.startedAt),
      userAgent:
        userAgent !== null && userAgent.length > MAX_USER_AGENT
          ? userAgent.slice(0, MAX_USER_AGENT)
          : userAgent,
    });
    const over = this.stats().buffered - this.#options.bufferSize;
    if (over > 0) this.#drop(over);
    if (this.#waiting() >= this.#options.batchSize) this.#flush();
  }

  /**
   * Stops taking records and tries to send what waits, for at most `closeTimeoutMs`; what is
   * left then is lost (counted as dropped). Idempotent.
   */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#timer) clearInterval(this.#timer);
    if (this.#retryTimer) clearTimeout(this.#retryTimer);
    this.#timer = null;
    this.#retryTimer = null;
    const deadline = Date.now() + this.#options.closeTimeoutMs;
    while (this.#bus !== null && (this.#sending || this.#waiting() > 0)) {
      const remaining = deadline - Date.now();
      if (remaining <= 0) break;
      const failures = this.#failures;
      if (!this.#sending) this.#flush(deadline);
      await this.#sending;
      if (this.#busClosed) break;
      // A failed batch is tried again at once, a moment later (not after the backoff): the
      // deadline bounds it, and the pause lets the bus reconnect meanwhile.
      if (this.#failures > failures) await delay(Math.min(100, remaining));
    }
    const left = this.stats().buffered;
    if (left > 0) {
      this.#dropped += left;
      this.#log.warn({ sessions: left }, 'listener sessions not sent before shutdown');
    }
    this.#queue = [];
    this.#head = 0;
  }

  #waiting(): number {
    return this.#queue.length - this.#head;
  }

  /** Drops the `count` oldest waiting records (those in flight are the api's already). */
  #drop(count: number): void {
    const n = Math.min(count, this.#waiting());
    this.#head += n;
    this.#dropped += n;
    this.#compact();
    if (n > 0 && this.#dropped === n) {
      this.#log.warn({ bufferSize: this.#options.bufferSize }, 'listener session buffer full');
    }
  }

  #compact(): void {
    if (this.#head > 1024 && this.#head * 2 > this.#queue.length) {
      this.#queue = this.#queue.slice(this.#head);
      this.#head = 0;
    }
  }

  /** Sends the next batch unless one is in flight or a retry is due later. */
  #flush(deadline?: number): void {
    const bus = this.#bus;
    // No node name yet: not started, so nothing the api would accept.
    if (bus === null || this.#node === '' || this.#sending || this.#waiting() === 0) return;
    if (this.#retryTimer || this.#busClosed) return;
    const batch = this.#queue.slice(this.#head, this.#head + this.#options.batchSize);
    this.#head += batch.length;
    this.#compact();
    this.#inflight = batch;
    const timeoutMs =
      deadline === undefined
        ? this.#options.requestTimeoutMs
        : Math.max(1, Math.min(this.#options.requestTimeoutMs, deadline - Date.now()));
    this.#sending = bus
      .request('listeners.sessions', { node: this.#node, sessions: batch }, { timeoutMs })
      .then(
        () => this.#delivered(batch.length),
        (error: unknown) => this.#failed(batch, error),
      )
      .finally(() => {
        this.#inflight = null;
        this.#sending = null;
        if (!this.#closed && this.#waiting() >= this.#options.batchSize) this.#flush();
      });
  }

  #delivered(count: number): void {
    this.#sent += count;
    if (this.#retryDelay > 0) this.#log.info('listener sessions are being stored again');
    this.#retryDelay = 0;
  }

  #failed(batch: ListenerSessionRecord[], error: unknown): void {
    this.#failures += 1;
    if (error instanceof BusInvalidMessageError) {
      // Sent again it would fail again, and hold up everything behind it.
      this.#dropped += batch.length;
      this.#log.error(
        { err: error, sessions: batch.length },
        'listener sessions refused as invalid',
      );
      return;
    }
    // Back to the front: it is still the oldest, and the first to go if the buffer fills.
    this.#queue = batch.concat(this.#queue.slice(this.#head));
    this.#head = 0;
    if (error instanceof BusClosedError) {
      this.#busClosed = true;
      return;
    }
    const { retryMs, retryMaxMs } = this.#options;
    if (this.#retryDelay === 0) {
      this.#log.warn({ err: error }, 'listener sessions not stored; kept and retried');
    }
    this.#retryDelay = Math.min(
      retryMaxMs,
      this.#retryDelay === 0 ? retryMs : this.#retryDelay * 2,
    );
    if (this.#closed) return;
    this.#retryTimer = setTimeout(() => {
      this.#retryTimer = null;
      this.#flush();
    }, this.#retryDelay);
    this.#retryTimer.unref();
  }
}
