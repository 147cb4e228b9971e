import type { DeadAir, Logger } from '@radio/core';
import { CHANNELS, framesToSeconds, secondsToFrames } from '../pcm.ts';

/** The track the guard may skip: the AutoDJ's track on air. */
export interface GuardedTrack {
  readonly requestId: string;
  readonly trackId: number;
  /** `Artist - Title`, for the log and the event. */
  readonly title: string;
}

export interface DeadAirGuardOptions {
  /** DEAD_AIR_SECONDS: silence longer than this is dead air. */
  seconds: number;
  logger: Logger;
  /**
   * The track on air while the AutoDJ plays it; null while paused, stopped, in fallback or
   * between tracks (silence then is someone's choice, or not a track's fault).
   */
  onAir(): GuardedTrack | null;
  /** Ends the silent track (the player's skip: the next one follows at once). */
  skip(): void;
  /** Told after each skip, to publish `playout.dead_air`. */
  onDeadAir(event: DeadAir): void;
}

/** Output below this level is silence. */
export const DEAD_AIR_THRESHOLD_DB = -50;
/** The level is measured over windows this long, whatever the size of the blocks. */
const WINDOW_SECONDS = 0.1;

/**
 * Watches the playout's own output and skips a track that stays silent. The level is the RMS
 * of both channels over 100 ms windows (0 dBFS = a full-scale square wave): unlike the peak, a
 * click or a hum of dither in a silent file does not count as programme, and a quiet passage of
 * real music stays well above -50 dBFS RMS. The count starts again on any window with sound
 * and on every change of track, so only one track's own silence is ever held against it.
 */
export class DeadAirGuard {
  readonly #options: DeadAirGuardOptions;
  readonly #limitFrames: number;
  readonly #windowFrames = secondsToFrames(WINDOW_SECONDS);
  /** Mean square of a sample at the threshold. */
  readonly #thresholdPower = 10 ** (DEAD_AIR_THRESHOLD_DB / 10);
  #requestId: string | null = null;
  #silentFrames = 0;
  #energy = 0;
  #filled = 0;
  #skips = 0;
  #deadAirSeconds = 0;

  constructor(options: DeadAirGuardOptions) {
    this.#options = options;
    this.#limitFrames = secondsToFrames(options.seconds);
  }

  /** Tracks skipped for dead air since start. */
  get skips(): number {
    return this.#skips;
  }

  /** Seconds of silence the guard cut short since start (each skip's silent stretch). */
  get deadAirSeconds(): number {
    return this.#deadAirSeconds;
  }

  /** Looks at one block of output (`frames` interleaved stereo frames of `samples`). */
  observe(samples: Float32Array, frames: number): void {
    const track = this.#options.onAir();
    if (track?.requestId !== this.#requestId) {
      this.#requestId = track?.requestId ?? null;
      this.#restart();
    }
    if (!track) return;
    let frame = 0;
    while (frame < frames) {
      const take = Math.min(frames - frame, this.#windowFrames - this.#filled);
      let energy = 0;
      const end = (frame + take) * CHANNELS;
      for (let i = frame * CHANNELS; i < end; i++) {
        const sample = samples[i] as number;
        energy += sample * sample;
      }
      this.#energy += energy;
      this.#filled += take;
      frame += take;
      if (this.#filled === this.#windowFrames) this.#endWindow(track);
    }
  }

  #endWindow(track: GuardedTrack): void {
    const power = this.#energy / (this.#windowFrames * CHANNELS);
    this.#energy = 0;
    this.#filled = 0;
    if (power >= this.#thresholdPower) {
      this.#silentFrames = 0;
      return;
    }
    this.#silentFrames += this.#windowFrames;
    if (this.#silentFrames > this.#limitFrames) this.#act(track);
  }

  #act(track: GuardedTrack): void {
    const silentSeconds = Math.round(framesToSeconds(this.#silentFrames) * 10) / 10;
    this.#restart();
    this.#skips += 1;
    this.#deadAirSeconds += silentSeconds;
    this.#options.logger.warn(
      { trackId: track.trackId, requestId: track.requestId, title: track.title, silentSeconds },
      'dead air: the track on air is silent; skipping it',
    );
    this.#options.skip();
    this.#options.onDeadAir({
      silentSeconds,
      trackId: track.trackId,
      title: track.title,
      action: 'skipped',
    });
  }

  #restart(): void {
    this.#silentFrames = 0;
    this.#energy = 0;
    this.#filled = 0;
  }
}
