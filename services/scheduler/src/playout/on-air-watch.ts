import {
  type Bus,
  componentLogger,
  type Logger,
  type PlaybackState,
  type PlayoutFallback,
} from '@radio/core';
import { displayTitle } from '../library/library-track.ts';
import type { NowPlaying } from '../now-playing.ts';
import type { TrackRepository } from '../repositories/track-repository.ts';
import type { QueueEntry } from '../sources/queue-entry.ts';
import { DeadAirGuard, type GuardedTrack } from './dead-air-guard.ts';
import { FallbackSource } from './fallback-source.ts';
import { FallbackSwitch } from './fallback-switch.ts';

/** What the watch needs of the player. */
export interface WatchedPlayer {
  readonly state: PlaybackState;
  onAir(): { readonly entry: QueueEntry } | null;
  skip(): unknown;
}

export interface OnAirWatchOptions {
  player: WatchedPlayer;
  /** The head of the upcoming list: null when nothing is left to play. */
  upcoming: { head(): QueueEntry | null };
  nowPlaying: NowPlaying;
  tracks: TrackRepository;
  bus: Bus;
  /** The scheduler's root logger (each part logs as its own component). */
  logger: Logger;
  ffmpegPath: string;
  deadAirSeconds: number;
  fallbackFile: string | undefined;
  stationName: string;
}

/** What `playout.status` answers. */
export interface PlayoutStatus {
  readonly state: PlaybackState;
  /** What the mounts carry now: a track, the fallback, or silence (paused, stopped, loading). */
  readonly onAir: 'track' | 'fallback' | 'silence';
  readonly fallback: PlayoutFallback | null;
  readonly deadAirSkips: number;
  readonly deadAirSeconds: number;
}

/**
 * The playout's watch over its own output, after the player fills each block: the fallback
 * when there is nothing to play, and the dead-air guard while a track is on air.
 */
export class OnAirWatch {
  readonly #options: OnAirWatchOptions;
  readonly #source: FallbackSource;
  readonly #fallback: FallbackSwitch;
  readonly #guard: DeadAirGuard;

  constructor(options: OnAirWatchOptions) {
    this.#options = options;
    const { player, upcoming, nowPlaying, bus } = options;
    const log = componentLogger(options.logger, 'fallback');
    this.#source = new FallbackSource({
      ffmpegPath: options.ffmpegPath,
      file: options.fallbackFile,
      logger: log,
    });
    this.#fallback = new FallbackSwitch({
      audio: this.#source,
      idle: () => player.state === 'playing' && !player.onAir() && !upcoming.head(),
      hasFiles: async () =>
        (await options.tracks.stamps()).some((stamp) => stamp.status !== 'missing'),
      stationName: options.stationName,
      logger: log,
      onChange: (fallback, title, frame) => nowPlaying.fallbackChanged(fallback, title, frame),
    });
    const guardLog = componentLogger(options.logger, 'dead-air');
    this.#guard = new DeadAirGuard({
      seconds: options.deadAirSeconds,
      logger: guardLog,
      onAir: () => this.#guardedTrack(),
      skip: () => player.skip(),
      onDeadAir: (event) =>
        bus.publish('playout.dead_air', event).catch((error: unknown) => {
          guardLog.warn({ err: error }, 'cannot publish on the bus');
        }),
    });
  }

  /** One block of output (`frames` interleaved stereo frames at global frame `startFrame`). */
  process(samples: Float32Array, frames: number, startFrame: number): void {
    this.#fallback.process(samples, frames, startFrame);
    this.#guard.observe(samples, frames);
  }

  /** The library changed (the fallback's reason may have). */
  libraryChanged(): void {
    this.#fallback.libraryChanged();
  }

  status(): PlayoutStatus {
    const { player } = this.#options;
    const onAir = this.#fallback.active
      ? 'fallback'
      : player.state !== 'stopped' && player.onAir()
        ? 'track'
        : 'silence';
    return {
      state: player.state,
      onAir,
      fallback: this.#fallback.fallback,
      deadAirSkips: this.#guard.skips,
      deadAirSeconds: this.#options.deadAirSeconds,
    };
  }

  close(): Promise<void> {
    return this.#source.close();
  }

  #guardedTrack(): GuardedTrack | null {
    const { player } = this.#options;
    if (player.state !== 'playing' || this.#fallback.active) return null;
    const entry = player.onAir()?.entry;
    if (!entry) return null;
    return {
      requestId: entry.requestId,
      trackId: entry.track.id,
      title: displayTitle(entry.track),
    };
  }
}
