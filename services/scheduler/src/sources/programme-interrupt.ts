import type { Logger, TimelineEntry } from '@radio/core';

/** Decode the interrupting track this long before the cut, so it is ready at the cut. */
const PREPARE_MS = 5000;
/** A cut that finds itself this much early (the latency fell since it was armed) waits on. */
const EARLY_MS = 20;

export interface InterruptDeps {
  /** The request id of the entry on air, or null. */
  onAirRequestId(): string | null;
  /** The request id of the entry that plays next, or null. */
  headRequestId(): string | null;
  /** Ms from playing to being heard: the cut is played this much before its time. */
  latencyMs(): number;
  /** Starts decoding the next entry now. */
  prepareNext(): void;
  /** Fades the track on air out (the skip fade); the next entry follows at once. */
  cut(): void;
  logger: Logger;
}

/**
 * A scheduled `interrupt` on time: when the plan's next entry interrupts, the track on air is
 * faded out so that the listener hears the entry start at its planned time. Every new plan
 * re-arms it (or disarms it when its next entry no longer interrupts).
 */
export class InterruptTimer {
  readonly #deps: InterruptDeps;
  #prepare: NodeJS.Timeout | null = null;
  #cut: NodeJS.Timeout | null = null;
  /** The entry armed for, and the entry it cuts: re-arming for the same is a no-op. */
  #armed: { at: number; requestId: string; onAir: string } | null = null;
  /** The time of the last cut made: one interrupt cuts once, whatever a later plan says. */
  #cutAt: number | null = null;

  constructor(deps: InterruptDeps) {
    this.#deps = deps;
  }

  /** Follows a new plan: its first entry decides. */
  planned(first: TimelineEntry | undefined): void {
    const onAir = this.#deps.onAirRequestId();
    const requestId = first?.requestId ?? null;
    if (!first?.interrupts || requestId === null || onAir === null || first.at === this.#cutAt) {
      this.disarm();
      return;
    }
    const armed = this.#armed;
    if (armed && armed.at === first.at && armed.requestId === requestId && armed.onAir === onAir) {
      return;
    }
    this.disarm();
    this.#armed = { at: first.at, requestId, onAir };
    const cutIn = this.#cutIn(first.at);
    this.#prepare = setTimeout(() => this.#deps.prepareNext(), Math.max(0, cutIn - PREPARE_MS));
    this.#cut = setTimeout(() => this.#fire(), Math.max(0, cutIn));
  }

  disarm(): void {
    if (this.#prepare) clearTimeout(this.#prepare);
    if (this.#cut) clearTimeout(this.#cut);
    this.#prepare = null;
    this.#cut = null;
    this.#armed = null;
  }

  /**
   * Ms from now to the cut: it is played `latency` before it is heard. The latency is the
   * encoders' backlog, which a loaded machine can swell by seconds for a moment, so it is read
   * again when the timer fires (a cut armed in a swell would otherwise be heard that early).
   */
  #cutIn(at: number): number {
    return at - this.#deps.latencyMs() - Date.now();
  }

  #fire(): void {
    const armed = this.#armed;
    this.#cut = null;
    if (!armed) return;
    const cutIn = this.#cutIn(armed.at);
    if (cutIn > EARLY_MS) {
      this.#cut = setTimeout(() => this.#fire(), cutIn);
      return;
    }
    this.#armed = null;
    // Only the track it was planned to cut, and only for the entry it was planned for.
    if (this.#deps.onAirRequestId() !== armed.onAir) return;
    if (this.#deps.headRequestId() !== armed.requestId) return;
    this.#deps.logger.info(
      { requestId: armed.requestId, lateMs: Date.now() + this.#deps.latencyMs() - armed.at },
      'scheduled interrupt: fading out the track on air',
    );
    this.#cutAt = armed.at;
    this.#deps.cut();
  }
}
