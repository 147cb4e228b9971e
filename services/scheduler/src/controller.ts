import { stat } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AMPLIFY_MAX, AMPLIFY_MIN, type PlayerStatus, type QueueItem } from '@radio/core';
import type { AmplifySetting } from './amplify-setting.ts';
import { SchedulerError } from './errors.ts';
import { toLibraryPath } from './library/audio-files.ts';
import type { Library } from './library/library.ts';
import type { NowPlaying } from './now-playing.ts';
import type { Player } from './playout/player.ts';
import type { PlaylistRepository } from './repositories/playlist-repository.ts';
import { loadPlaylist } from './sources/playlist.ts';
import type { QueueEntry } from './sources/queue-entry.ts';
import type { Upcoming } from './sources/upcoming.ts';

export interface ControllerDeps {
  library: Library;
  upcoming: Upcoming;
  player: Player;
  nowPlaying: NowPlaying;
  amplify: AmplifySetting;
  playlists: PlaylistRepository;
}

export function toQueueItem(entry: QueueEntry): QueueItem {
  return {
    requestId: entry.requestId,
    trackId: entry.track.id,
    path: entry.track.path,
    title: entry.track.title,
    artist: entry.track.artist,
    duration: entry.track.duration,
    kind: entry.kind,
  };
}

/**
 * What the station can be told to do. The control port and the bus both call these, so a
 * command behaves the same whichever way it arrives; errors are SchedulerErrors with codes.
 */
export class PlayoutController {
  readonly #deps: ControllerDeps;

  constructor(deps: ControllerDeps) {
    this.#deps = deps;
  }

  /**
   * Queues a file given as a path relative to MUSIC_DIR, an absolute path inside it, or a
   * `file://` URI. Nothing is queued unless the file is in the library folder and playable.
   */
  async push(uri: string): Promise<QueueEntry> {
    const root = this.#deps.library.root;
    const text = uri.trim();
    if (!text) {
      throw new SchedulerError('SCHEDULER_BAD_URI', 'give a file path or a file:// URI');
    }
    let absolute: string;
    if (/^file:/i.test(text)) {
      try {
        absolute = fileURLToPath(text);
      } catch {
        throw new SchedulerError('SCHEDULER_BAD_URI', `not a valid file URI: ${text}`);
      }
    } else if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) {
      throw new SchedulerError(
        'SCHEDULER_BAD_URI',
        `only files in the music folder can be queued, not ${text}`,
      );
    } else {
      absolute = isAbsolute(text) ? resolve(text) : resolve(root, text);
    }
    const path = toLibraryPath(root, absolute);
    if (path === null) {
      throw new SchedulerError(
        'SCHEDULER_PATH_OUTSIDE_LIBRARY',
        `${text} is outside the music folder`,
      );
    }
    const info = await stat(absolute).catch(() => null);
    if (!info) throw new SchedulerError('SCHEDULER_FILE_NOT_FOUND', `file not found: ${text}`);
    if (!info.isFile()) {
      throw new SchedulerError('SCHEDULER_TRACK_INVALID', `not a file: ${text}`);
    }
    const found = await this.#deps.library.resolve(path);
    if (!found.ok) {
      throw new SchedulerError(
        found.reason === 'not-found' ? 'SCHEDULER_FILE_NOT_FOUND' : 'SCHEDULER_TRACK_INVALID',
        found.message,
      );
    }
    return this.#deps.upcoming.push(found.track, 'request');
  }

  pushTrack(trackId: number): QueueEntry {
    return this.#deps.upcoming.push(this.#track(trackId), 'request');
  }

  /** The track is being deleted: out of the queue and the rotation; on air, it plays on. */
  removeTrack(trackId: number): { removed: number; onAir: boolean } {
    const onAir = this.#deps.player.onAir()?.entry.track.id === trackId;
    return { removed: this.#deps.upcoming.removeTrack(trackId), onAir };
  }

  queue(): QueueEntry[] {
    return this.#deps.upcoming.list();
  }

  skip(): void {
    this.#deps.player.skip();
  }

  pause(): PlayerStatus {
    this.#deps.player.pause();
    return this.status();
  }

  stop(): PlayerStatus {
    this.#deps.player.stop();
    return this.status();
  }

  resume(): PlayerStatus {
    this.#deps.player.resume();
    return this.status();
  }

  /** Plays now: a library track, a playlist (replacing the queue), or just resumes. */
  async play(options: {
    trackId?: number | undefined;
    playlistId?: number | undefined;
  }): Promise<PlayerStatus> {
    const { player, upcoming } = this.#deps;
    if (options.trackId !== undefined) {
      upcoming.pushFront(this.#track(options.trackId));
      player.resume();
      player.skip();
    } else if (options.playlistId !== undefined) {
      await this.playPlaylist(options.playlistId, 'replace');
      player.resume();
      player.skip();
    } else {
      player.resume();
    }
    return this.status();
  }

  /** Queues a playlist's playable tracks; `replace` drops what was queued. Returns how many. */
  async playPlaylist(playlistId: number, mode: 'replace' | 'append'): Promise<number> {
    const { library, upcoming, playlists } = this.#deps;
    const tracks = await loadPlaylist(playlists, (id) => library.get(id), playlistId);
    return upcoming.pushPlaylist(tracks, mode).length;
  }

  status(): PlayerStatus {
    const { player, nowPlaying, amplify } = this.#deps;
    const onAir = player.onAir();
    return {
      state: player.state,
      nowPlaying: nowPlaying.current(),
      position: onAir && player.state !== 'stopped' ? onAir.position : null,
      amplify: amplify.value,
    };
  }

  /** The track on air with its timing, or null (nothing playing, or stopped). */
  onAir(): {
    entry: QueueEntry;
    position: number;
    duration: number | null;
    startedAt: number;
  } | null {
    const { player, nowPlaying } = this.#deps;
    const onAir = player.onAir();
    if (!onAir || player.state === 'stopped') return null;
    const current = nowPlaying.current();
    const startedAt =
      current?.requestId === onAir.entry.requestId
        ? current.startedAt
        : Date.now() - Math.round(onAir.position * 1000);
    return { entry: onAir.entry, position: onAir.position, duration: onAir.duration, startedAt };
  }

  getAmplify(): number {
    return this.#deps.amplify.value;
  }

  async setAmplify(value: number): Promise<number> {
    if (!Number.isFinite(value) || value < AMPLIFY_MIN || value > AMPLIFY_MAX) {
      throw new SchedulerError(
        'SCHEDULER_BAD_VALUE',
        `amplify must be a number from ${AMPLIFY_MIN} to ${AMPLIFY_MAX}, got ${value}`,
      );
    }
    await this.#deps.amplify.set(value);
    return value;
  }

  rescan(): { scanId: string } {
    return { scanId: this.#deps.library.rescan().scanId };
  }

  /** The entry with this request id: on air, or waiting in the upcoming list. */
  findRequest(requestId: string): { entry: QueueEntry; onAir: boolean } | null {
    const onAir = this.#deps.player.onAir();
    if (onAir && onAir.entry.requestId === requestId) return { entry: onAir.entry, onAir: true };
    const entry = this.#deps.upcoming.find(requestId);
    return entry ? { entry, onAir: false } : null;
  }

  #track(trackId: number) {
    const track = this.#deps.library.get(trackId);
    if (!track) {
      throw new SchedulerError('SCHEDULER_TRACK_NOT_FOUND', `no playable track with id ${trackId}`);
    }
    return track;
  }
}
