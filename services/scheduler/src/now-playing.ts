import type {
  Bus,
  Logger,
  NowPlaying as NowPlayingPayload,
  PlaybackState,
  PlayoutFallback,
} from '@radio/core';
import { displayTitle } from './library/library-track.ts';
import type { MountOutput } from './outputs/mount-output.ts';
import type { TrackEndReason } from './playout/player.ts';
import type { HistoryRepository } from './repositories/history-repository.ts';
import type { QueueEntry } from './sources/queue-entry.ts';

export interface NowPlayingOptions {
  bus: Bus;
  history: HistoryRepository;
  mounts: readonly MountOutput[];
  logger: Logger;
  /** The current amplify level, for `player.state`. */
  amplify: () => number;
  /** Seconds into the track on air, for `player.state`. */
  position: () => number | null;
}

/**
 * What is on air, told to everyone who needs it when it changes: each mount's stream title
 * (timed to that mount's encoded audio), the bus event and state key, and the play history.
 */
export class NowPlaying {
  readonly #options: NowPlayingOptions;
  readonly #log: Logger;
  #current: NowPlayingPayload | null = null;
  #historyId: Promise<number | null> | null = null;
  #state: PlaybackState = 'playing';
  #fallback: PlayoutFallback | null = null;
  /** A DJ on air: its title holds the mounts and now-playing until the AutoDJ is back. */
  #live: { title: string; dj: string } | null = null;
  #tail: Promise<void> = Promise.resolve();

  constructor(options: NowPlayingOptions) {
    this.#options = options;
    this.#log = options.logger;
  }

  current(): NowPlayingPayload | null {
    return this.#current;
  }

  /** The first audio of `entry` was played at global frame `frame` (the clock's now). */
  trackStarted(entry: QueueEntry, frame: number): void {
    const { track } = entry;
    const title = displayTitle(track);
    if (!this.#live) for (const mount of this.#options.mounts) mount.scheduleTitle(title, frame);
    const startedAt = this.#heardAt();
    const payload: NowPlayingPayload = {
      trackId: track.id,
      requestId: entry.requestId,
      path: track.path,
      title: track.title,
      artist: track.artist,
      album: track.album,
      duration: track.duration,
      startedAt,
      source: entry.kind,
    };
    this.#current = payload;
    this.#log.info(
      { trackId: track.id, requestId: entry.requestId, title, source: entry.kind },
      'on air',
    );
    const history = this.#options.history
      .start({
        trackId: track.id,
        title: track.title,
        artist: track.artist,
        source: entry.kind,
        requestId: entry.requestId,
        startedAt: new Date(startedAt),
        playlistId: entry.programme?.playlistId ?? null,
        jingle: entry.programme?.jingle ?? false,
        songRequestId: entry.programme?.songRequestId ?? null,
      })
      .catch((error: unknown) => {
        this.#log.warn({ err: error }, 'cannot write play history');
        return null;
      });
    this.#historyId = history;
    if (!this.#live) this.#publish((bus) => bus.publishState('player.now-playing', payload));
    this.#publishState();
  }

  /**
   * A DJ is heard from global frame `frame` (`live`: its title on every mount, and
   * `player.now-playing` with source `live`), or the AutoDJ is back (null: the title of the
   * track it goes on with, and its now-playing again).
   */
  liveChanged(live: { title: string; dj: string } | null, frame: number): void {
    this.#live = live;
    const current = this.#current;
    const title = live?.title ?? (current ? displayTitle(current) : null);
    if (title !== null) for (const mount of this.#options.mounts) mount.scheduleTitle(title, frame);
    const payload: NowPlayingPayload | null = live
      ? {
          trackId: null,
          requestId: null,
          path: null,
          title: live.title,
          artist: live.dj,
          album: null,
          duration: null,
          startedAt: this.#heardAt(),
          source: 'live',
        }
      : current;
    if (payload) this.#publish((bus) => bus.publishState('player.now-playing', payload));
  }

  /** When listeners hear what is played now: through the encoders, the mounts' mean latency. */
  #heardAt(): number {
    return Date.now() + this.latencyMs();
  }

  /** Ms from playing a block to its being heard: the mounts' mean encoder latency. */
  latencyMs(): number {
    const mounts = this.#options.mounts;
    const latency =
      mounts.reduce((sum, m) => sum + m.latencySeconds, 0) / Math.max(1, mounts.length);
    return Math.round(latency * 1000);
  }

  trackEnded(entry: QueueEntry, reason: TrackEndReason): void {
    const history = this.#historyId;
    this.#historyId = null;
    if (this.#current?.requestId === entry.requestId) this.#current = null;
    this.#log.debug({ requestId: entry.requestId, reason }, 'off air');
    if (history) {
      this.#track(history.then((id) => (id === null ? undefined : this.#options.history.end(id))));
    }
  }

  /**
   * The tags of the entry on air changed (its file was re-tagged): the new title on every mount
   * from global frame `frame`, and `player.now-playing` again with the new tags.
   */
  retagged(
    requestId: string,
    track: { path: string; title: string; artist: string | null; album: string | null },
    frame: number,
  ): void {
    const current = this.#current;
    if (!current || current.requestId !== requestId) return;
    const { path, title, artist, album } = track;
    if (current.title === title && current.artist === artist && current.album === album) {
      if (current.path !== path) this.#current = { ...current, path };
      return;
    }
    const payload: NowPlayingPayload = { ...current, path, title, artist, album };
    this.#current = payload;
    // While the fallback or a DJ is on air the mounts carry its title; the track's own follows.
    if (this.#fallback === null && this.#live === null) {
      for (const mount of this.#options.mounts) mount.scheduleTitle(displayTitle(track), frame);
    }
    this.#log.info({ trackId: current.trackId, title: displayTitle(track) }, 'on-air tags changed');
    if (!this.#live) this.#publish((bus) => bus.publishState('player.now-playing', payload));
  }

  /** Why the fallback is on air, or null. */
  fallback(): PlayoutFallback | null {
    return this.#fallback;
  }

  /**
   * The fallback is on air (or its reason changed): `title` on every mount from global frame
   * `frame`, and `player.state` says why. Null when it stepped aside (the track's own title
   * follows from `trackStarted`).
   */
  fallbackChanged(fallback: PlayoutFallback | null, title: string | null, frame: number): void {
    if (fallback === null && this.#fallback === null) return;
    this.#fallback = fallback;
    if (title !== null && !this.#live)
      for (const mount of this.#options.mounts) mount.scheduleTitle(title, frame);
    this.#publishState();
  }

  stateChanged(state: PlaybackState): void {
    this.#state = state;
    this.#publishState();
  }

  /** Publishes `player.state` (after a state, track or amplify change). */
  publishState(): void {
    this.#publishState();
  }

  /** Waits for the history writes and bus messages in flight (before the db closes). */
  async settle(): Promise<void> {
    await this.#tail;
    await this.#historyId?.catch(() => null);
  }

  #publishState(): void {
    const position = this.#state === 'stopped' ? null : this.#options.position();
    const payload = {
      state: this.#state,
      position,
      amplify: this.#options.amplify(),
      fallback: this.#fallback,
    };
    this.#publish((bus) => bus.publishState('player.state', payload));
  }

  #publish(send: (bus: Bus) => Promise<void>): void {
    this.#track(
      send(this.#options.bus).catch((error: unknown) =>
        this.#log.warn({ err: error }, 'cannot publish on the bus'),
      ),
    );
  }

  #track(work: Promise<unknown>): void {
    const settled = work.catch((error: unknown) =>
      this.#log.warn({ err: error }, 'now-playing bookkeeping failed'),
    );
    // The tail must resolve to nothing: a tail resolving to [previous, value] nests one array
    // deeper with every publish and keeps them all (a leak of about 0.2 KB per track).
    this.#tail = Promise.all([this.#tail, settled]).then(() => undefined);
  }
}
