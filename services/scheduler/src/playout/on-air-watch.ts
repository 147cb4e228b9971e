import {
  type Bus,
  componentLogger,
  type Logger,
  type PlaybackState,
  type PlayoutFallback,
} from '@radio/core';
import { displayTitle } from '../library/library-track.ts';
import type { NowPlaying } from '../now-playing.ts';
import type { ResolvedOptions } from '../options.ts';
import type { Db } from '../repositories/db.ts';
import { TrackRepository } from '../repositories/track-repository.ts';
import type { QueueEntry } from '../sources/queue-entry.ts';
import { DeadAirGuard, type GuardedTrack } from './dead-air-guard.ts';
import { FallbackSource } from './fallback-source.ts';
import { FallbackSwitch } from './fallback-switch.ts';

/** What the watch needs of the player. */
export interface WatchedPlayer {
  readonly state: PlaybackState;
  readonly counts: { readonly underruns: number; readonly decoderFailures: number };
  onAir(): { readonly entry: QueueEntry } | null;
  skip(): unknown;
}

/** What the watch looks at, made by the scheduler's earlier steps. */
export interface OnAirWatchParts {
  player: WatchedPlayer;
  /** The head of the upcoming list: null when nothing is left to play. */
  upcoming: { head(): QueueEntry | null; list(): readonly QueueEntry[] };
  nowPlaying: NowPlaying;
  ffmpegPath: string;
  options: Pick<ResolvedOptions, 'deadAirSeconds' | 'fallbackFile' | 'station' | 'live'>;
}

export interface OnAirWatchDeps {
  db: Db;
  bus: Bus;
  /** The scheduler's root logger (each part logs as its own component). */
  logger: Logger;
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
  readonly #parts: OnAirWatchParts;
  readonly #source: FallbackSource;
  readonly #fallback: FallbackSwitch;
  readonly #guard: DeadAirGuard;
  #guarded: GuardedTrack | null = null;

  constructor(parts: OnAirWatchParts, deps: OnAirWatchDeps) {
    this.#parts = parts;
    const { player, upcoming, nowPlaying, options } = parts;
    const tracks = new TrackRepository(deps.db);
    const log = componentLogger(deps.logger, 'fallback');
    this.#source = new FallbackSource({
      ffmpegPath: parts.ffmpegPath,
      file: options.fallbackFile,
      logger: log,
    });
    this.#fallback = new FallbackSwitch({
      audio: this.#source,
      idle: () => player.state === 'playing' && !player.onAir() && !upcoming.head(),
      hasFiles: () => tracks.anyPresent(),
      stationName: options.station.name,
      logger: log,
      onChange: (fallback, title, frame) => nowPlaying.fallbackChanged(fallback, title, frame),
    });
    const guardLog = componentLogger(deps.logger, 'dead-air');
    this.#guard = new DeadAirGuard({
      seconds: options.deadAirSeconds,
      logger: guardLog,
      onAir: () => this.#guardedTrack(),
      skip: () => player.skip(),
      onDeadAir: (event) =>
        deps.bus.publish('playout.dead_air', event).catch((error: unknown) => {
          guardLog.warn({ err: error }, 'cannot publish on the bus');
        }),
    });
    // The scheduler's metrics (served on the live port) read the playout's health here.
    options.live?.metrics?.readPlayout(() => ({
      underruns: player.counts.underruns,
      decoderFailures: player.counts.decoderFailures,
      deadAirSeconds: this.#guard.deadAirSeconds,
      queueLength: upcoming.list().length,
    }));
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
    const { player } = this.#parts;
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
      deadAirSeconds: this.#parts.options.deadAirSeconds,
    };
  }

  close(): Promise<void> {
    return this.#source.close();
  }

  #guardedTrack(): GuardedTrack | null {
    const { player } = this.#parts;
    if (player.state !== 'playing' || this.#fallback.active) return null;
    const entry = player.onAir()?.entry;
    if (!entry) return null;
    // Asked at every block: the same object while the same track plays.
    if (this.#guarded?.requestId !== entry.requestId) {
      const title = displayTitle(entry.track);
      this.#guarded = { requestId: entry.requestId, trackId: entry.track.id, title };
    }
    return this.#guarded;
  }
}
