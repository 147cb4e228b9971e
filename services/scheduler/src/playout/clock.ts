import type { Logger } from '@radio/core';
import { SAMPLE_RATE } from '../pcm.ts';

export interface ClockOptions {
  logger: Logger;
  /** Called with each block that is due: `frames` frames starting at global frame `startFrame`. */
  onBlock(frames: number, startFrame: number): void;
  /** How often the clock wakes up (ms); 20-50 keeps latency low and the CPU idle. */
  intervalMs?: number;
  /** The largest block handed out at once; a bigger backlog comes as several blocks. */
  maxBlockFrames?: number;
  /**
   * A backlog larger than this (the process was frozen, the machine suspended) is dropped
   * rather than sent as a burst; the clock starts counting again from now.
   */
  maxLagSeconds?: number;
  /** Monotonic milliseconds (performance.now); replaceable in tests. */
  now?: () => number;
}

/**
 * The real-time clock of the playout. It never adds up timer intervals (timers fire late, and
 * the error would grow): each wake-up computes how many frames are due from the monotonic time
 * elapsed since start, and hands out exactly those. Over an hour it is as exact as the clock.
 */
export class Clock {
  readonly #options: ClockOptions;
  readonly #now: () => number;
  readonly #intervalMs: number;
  readonly #maxBlock: number;
  readonly #maxLag: number;
  #origin = 0;
  /** Frames handed out since the origin. */
  #sinceOrigin = 0;
  /** Frames handed out since start (global frame counter). */
  #frames = 0;
  #timer: NodeJS.Timeout | null = null;

  constructor(options: ClockOptions) {
    this.#options = options;
    this.#now = options.now ?? (() => performance.now());
    this.#intervalMs = options.intervalMs ?? 40;
    this.#maxBlock = options.maxBlockFrames ?? Math.ceil(SAMPLE_RATE / 10);
    this.#maxLag = Math.round((options.maxLagSeconds ?? 2) * SAMPLE_RATE);
  }

  /** Global frames handed out so far. */
  get frames(): number {
    return this.#frames;
  }

  get running(): boolean {
    return this.#timer !== null;
  }

  start(): void {
    if (this.#timer) return;
    this.#origin = this.#now();
    this.#sinceOrigin = 0;
    this.#timer = setInterval(() => this.tick(), this.#intervalMs);
  }

  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
  }

  /** Hands out what is due now. Public for tests that drive time by hand. */
  tick(): void {
    const elapsed = this.#now() - this.#origin;
    const dueTotal = Math.floor((elapsed * SAMPLE_RATE) / 1000);
    let due = dueTotal - this.#sinceOrigin;
    if (due > this.#maxLag) {
      this.#options.logger.warn(
        { lagSeconds: due / SAMPLE_RATE },
        'playout clock fell behind (process stalled); skipping the backlog',
      );
      this.#origin = this.#now();
      this.#sinceOrigin = 0;
      due = 0;
    }
    while (due > 0) {
      const frames = Math.min(due, this.#maxBlock);
      const start = this.#frames;
      this.#frames += frames;
      this.#sinceOrigin += frames;
      due -= frames;
      this.#options.onBlock(frames, start);
    }
  }
}
