import type { Logger, PlayoutFallback } from '@radio/core';
import { secondsToFrames } from '../pcm.ts';

/** What the switch puts on air (FallbackSource). */
export interface FallbackAudio {
  start(): void;
  fill(out: Float32Array, frames: number): void;
  rest(): void;
}

export interface FallbackSwitchOptions {
  audio: FallbackAudio;
  /** The player plays, but has no track on air and none to come. */
  idle(): boolean;
  /** Whether the music folder holds files (none of them playable): decides the reason. */
  hasFiles(): Promise<boolean>;
  /** STATION name, for the stream title. */
  stationName: string;
  logger: Logger;
  /**
   * The fallback went on air or its reason changed (`fallback` set, `title` for the mounts
   * from global frame `frame`), or it stepped aside (`fallback` null).
   */
  onChange(fallback: PlayoutFallback | null, title: string | null, frame: number): void;
  /** Idle this long before the fallback goes on air (a track still loading is not idle). */
  delaySeconds?: number;
}

const WHY: Record<PlayoutFallback['reason'], { message: string; title: string }> = {
  'empty-library': {
    message: 'the music folder is empty: add audio files to MUSIC_DIR',
    title: 'no music to play — add files to the music folder',
  },
  'no-playable-tracks': {
    message:
      'none of the files in the music folder can be played: see the invalid tracks in the library',
    title: 'no playable music — check the files in the music folder',
  },
};

/**
 * Decides, block by block, whether the mounts carry the fallback: once the player has had
 * nothing to play for a moment, the fallback fills the blocks; the moment a track can play it
 * steps aside (the player takes the block again). The reason it gives (empty folder, or files
 * that all fail) is looked up when it goes on air and again on each library change.
 */
export class FallbackSwitch {
  readonly #options: FallbackSwitchOptions;
  readonly #delayFrames: number;
  #idleFrames = 0;
  #active = false;
  #fallback: PlayoutFallback | null = null;
  /** The global frame the clock is at (where a title changes). */
  #frame = 0;
  /** Bumped at each change, so an answer about an earlier one is dropped. */
  #generation = 0;

  constructor(options: FallbackSwitchOptions) {
    this.#options = options;
    this.#delayFrames = secondsToFrames(options.delaySeconds ?? 0.3);
  }

  /** The fallback is on air. */
  get active(): boolean {
    return this.#active;
  }

  /** Why it is on air, once known; null while music (or nothing) plays. */
  get fallback(): PlayoutFallback | null {
    return this.#fallback;
  }

  /**
   * Called with each block after the player filled it (`frames` interleaved stereo frames at
   * global frame `startFrame`): replaces it with the fallback while the player is idle.
   */
  process(samples: Float32Array, frames: number, startFrame: number): void {
    this.#frame = startFrame;
    if (!this.#options.idle()) {
      this.#idleFrames = 0;
      if (this.#active) this.#stepAside(startFrame);
      return;
    }
    this.#idleFrames += frames;
    if (!this.#active && this.#idleFrames >= this.#delayFrames) this.#goOnAir();
    if (this.#active) this.#options.audio.fill(samples, frames);
  }

  /** The library changed: while on air, the reason may have (files added, or found invalid). */
  libraryChanged(): void {
    if (this.#active) this.#lookUpReason();
  }

  #goOnAir(): void {
    this.#active = true;
    this.#options.audio.start();
    this.#lookUpReason();
  }

  #stepAside(frame: number): void {
    this.#active = false;
    this.#generation += 1;
    this.#options.audio.rest();
    const was = this.#fallback;
    this.#fallback = null;
    if (was) {
      this.#options.logger.info({ reason: was.reason }, 'music is back; the fallback is off air');
    }
    this.#options.onChange(null, null, frame);
  }

  #lookUpReason(): void {
    const generation = ++this.#generation;
    this.#options.hasFiles().then(
      (hasFiles) => {
        if (generation !== this.#generation || !this.#active) return;
        const reason = hasFiles ? 'no-playable-tracks' : 'empty-library';
        if (this.#fallback?.reason === reason) return;
        const why = WHY[reason];
        this.#fallback = { reason, message: why.message };
        this.#options.logger.warn(
          { reason, message: why.message },
          'nothing to play: the fallback is on air',
        );
        this.#options.onChange(
          this.#fallback,
          `${this.#options.stationName}: ${why.title}`,
          this.#frame,
        );
      },
      (error: unknown) => {
        this.#options.logger.warn({ err: error }, 'cannot tell why there is nothing to play');
      },
    );
  }
}
