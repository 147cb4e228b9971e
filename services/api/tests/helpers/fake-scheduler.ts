import type {
  Bus,
  LibraryScan,
  NowPlaying,
  PlaybackState,
  PlayerStatus,
  QueueItem,
} from '@radio/core';
import { RadioError } from '@radio/core';
import type { DbHandle } from '@radio/db';

/**
 * Answers the scheduler's bus commands the way the scheduler does, with state in memory: it
 * publishes the same events and keeps the same state keys. Tracks and playlists are read from
 * the test database.
 */
export class FakeScheduler {
  readonly #bus: Bus;
  readonly #db: DbHandle;
  #unregister: (() => void) | null = null;
  state: PlaybackState = 'stopped';
  nowPlaying: NowPlaying | null = null;
  amplify = 1;
  queue: QueueItem[] = [];
  #requests = 0;
  #scans = 0;
  /** Every command received, by type, for assertions. */
  readonly received: string[] = [];

  constructor(bus: Bus, db: DbHandle) {
    this.#bus = bus;
    this.#db = db;
  }

  start(): this {
    this.#unregister = this.#bus.handleCommands({
      'player.status': () => this.#status(),
      'player.play': async (payload) => {
        this.received.push('player.play');
        if (payload.trackId !== undefined)
          await this.#goOnAir(await this.#item(payload.trackId, 'request'));
        else if (payload.playlistId !== undefined) {
          await this.#loadPlaylist(payload.playlistId, 'replace');
          const next = this.queue.shift();
          if (next) await this.#goOnAir(next);
          await this.#publishQueue();
        }
        await this.#setState('playing');
        return this.#status();
      },
      'player.pause': async () => {
        this.received.push('player.pause');
        await this.#setState('paused');
        return this.#status();
      },
      'player.resume': async () => {
        this.received.push('player.resume');
        await this.#setState('playing');
        return this.#status();
      },
      'player.stop': async () => {
        this.received.push('player.stop');
        await this.#setState('stopped');
        return this.#status();
      },
      'player.skip': async () => {
        this.received.push('player.skip');
        const next = this.queue.shift();
        if (next) {
          await this.#goOnAir(next);
          await this.#publishQueue();
        }
        await this.#setState('playing');
        return this.#status();
      },
      'queue.push': async (payload) => {
        this.received.push('queue.push');
        const item =
          payload.trackId !== undefined
            ? await this.#item(payload.trackId, 'request')
            : {
                requestId: this.#nextRequestId(),
                trackId: null,
                path: payload.uri as string,
                title: payload.uri as string,
                artist: null,
                duration: null,
                kind: 'request' as const,
              };
        this.queue.push(item);
        await this.#publishQueue();
        return { requestId: item.requestId, item };
      },
      'queue.list': () => ({ items: this.queue }),
      'playlist.play': async (payload) => {
        this.received.push('playlist.play');
        const queued = await this.#loadPlaylist(payload.playlistId, payload.mode);
        await this.#publishQueue();
        return { queued };
      },
      'amplify.get': () => ({ amplify: this.amplify }),
      'amplify.set': async (payload) => {
        this.received.push('amplify.set');
        this.amplify = payload.value;
        await this.#setState(this.state);
        return { amplify: this.amplify };
      },
      'library.rescan': async () => {
        this.received.push('library.rescan');
        this.#scans += 1;
        const scanId = `scan-${this.#scans}`;
        const scan: LibraryScan = {
          scanId,
          state: 'running',
          done: 0,
          total: 2,
          indexed: 0,
          invalid: 0,
          missing: 0,
          startedAt: Date.now(),
          finishedAt: null,
          error: null,
        };
        await this.#bus.setState('library-scan', scan);
        await this.#bus.publish('library.scan', scan);
        setTimeout(() => {
          const done: LibraryScan = {
            ...scan,
            state: 'done',
            done: 2,
            indexed: 2,
            finishedAt: Date.now(),
          };
          void this.#bus
            .setState('library-scan', done)
            .then(() => this.#bus.publish('library.scan', done));
        }, 20);
        return { scanId };
      },
    });
    return this;
  }

  stop(): void {
    this.#unregister?.();
    this.#unregister = null;
  }

  #status(): PlayerStatus {
    const position =
      this.state === 'stopped' || !this.nowPlaying
        ? null
        : Math.max(0, (Date.now() - this.nowPlaying.startedAt) / 1000);
    return { state: this.state, nowPlaying: this.nowPlaying, position, amplify: this.amplify };
  }

  #nextRequestId(): string {
    this.#requests += 1;
    return `req-${this.#requests}`;
  }

  async #item(trackId: number, kind: QueueItem['kind']): Promise<QueueItem> {
    const track = await this.#db.db
      .selectFrom('tracks')
      .selectAll()
      .where('id', '=', trackId)
      .executeTakeFirst();
    if (!track) throw new RadioError('SCHEDULER_TRACK_NOT_FOUND', `no track ${trackId}`);
    return {
      requestId: this.#nextRequestId(),
      trackId: track.id,
      path: track.path,
      title: track.title,
      artist: track.artist,
      duration: track.duration,
      kind,
    };
  }

  async #loadPlaylist(playlistId: number, mode: 'replace' | 'append'): Promise<number> {
    const rows = await this.#db.db
      .selectFrom('playlist_items')
      .select('track_id')
      .where('playlist_id', '=', playlistId)
      .orderBy('position')
      .execute();
    const items = await Promise.all(rows.map((row) => this.#item(row.track_id, 'playlist')));
    this.queue = mode === 'replace' ? items : [...this.queue, ...items];
    return items.length;
  }

  async #goOnAir(item: QueueItem): Promise<void> {
    this.nowPlaying = {
      trackId: item.trackId,
      requestId: item.requestId,
      path: item.path,
      title: item.title,
      artist: item.artist,
      album: null,
      duration: item.duration,
      startedAt: Date.now(),
      source: item.kind,
    };
    await this.#bus.setState('now-playing', this.nowPlaying);
    await this.#bus.publish('player.now-playing', this.nowPlaying);
  }

  async #setState(state: PlaybackState): Promise<void> {
    this.state = state;
    const value = { state, position: this.#status().position, amplify: this.amplify };
    await this.#bus.setState('player-state', value);
    await this.#bus.publish('player.state', value);
  }

  async #publishQueue(): Promise<void> {
    await this.#bus.setState('queue', { items: this.queue });
    await this.#bus.publish('queue.changed', { items: this.queue });
  }
}
