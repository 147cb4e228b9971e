import { mkdir, realpath } from 'node:fs/promises';
import { resolve } from 'node:path';
import {
  type Bus,
  componentLogger,
  type EventType,
  type Logger,
  locateFfmpeg,
  type PlayerStatus,
} from '@radio/core';
import type { DbHandle } from '@radio/db';
import { AmplifySetting } from './amplify-setting.ts';
import { AnalysisWorker } from './analysis/analysis-worker.ts';
import { registerBusCommands } from './bus-commands.ts';
import { registerBuiltins } from './control/builtins.ts';
import { registerPlayoutCommands } from './control/playout-commands.ts';
import { CommandRegistry } from './control/registry.ts';
import { ControlServer } from './control/server.ts';
import { registerStationCommands } from './control/station-commands.ts';
import { PlayoutController, toQueueItem } from './controller.ts';
import { SchedulerError } from './errors.ts';
import type { LibraryChange } from './library/change-batch.ts';
import { Library } from './library/library.ts';
import type { AutoDj } from './live/air-mixer.ts';
import type { LiveTitles } from './live/live-input.ts';
import { type LiveStation, openLive } from './live/live-station.ts';
import { NowPlaying } from './now-playing.ts';
import { followOnAirTags } from './on-air-tags.ts';
import { Amplifier } from './operators/amplify.ts';
import { type ResolvedOptions, resolveOptions, type SchedulerOptions } from './options.ts';
import type { MountOutput } from './outputs/mount-output.ts';
import { StationOutputs } from './outputs/station-outputs.ts';
import type { Clock } from './playout/clock.ts';
import { OnAirWatch } from './playout/on-air-watch.ts';
import { Player } from './playout/player.ts';
import { startStationClock } from './playout/station-clock.ts';
import { type ProgrammeHooks, ProgrammeStation } from './programme-station.ts';
import type { Db } from './repositories/db.ts';
import { HistoryRepository } from './repositories/history-repository.ts';
import { PlaylistRepository } from './repositories/playlist-repository.ts';
import { SettingsRepository } from './repositories/settings-repository.ts';
import { TrackRepository } from './repositories/track-repository.ts';
import type { Scheduler, SchedulerDeps, SchedulerStatus } from './scheduler-types.ts';
import { RequestIds } from './sources/queue-entry.ts';
import { Upcoming } from './sources/upcoming.ts';

export type { Scheduler, SchedulerDeps, SchedulerStatus } from './scheduler-types.ts';

/** What the player is built from, made by the steps of start before it. */
interface PlayerParts {
  readonly ffmpegPath: string;
  readonly root: string;
  readonly history: HistoryRepository;
  readonly amplifier: Amplifier;
  readonly amplify: AmplifySetting;
  readonly library: Library;
  readonly upcoming: Upcoming;
}

const QUEUE_PUBLISH_MS = 100;

function isDbHandle(db: DbHandle | Db): db is DbHandle {
  return typeof (db as DbHandle).ping === 'function' && 'db' in db;
}

/** Creates the scheduler (nothing runs until `start`). Throws SCHEDULER_INVALID_OPTIONS. */
export function createScheduler(options: SchedulerOptions, deps: SchedulerDeps): Scheduler {
  const resolved = resolveOptions(options);
  if (!deps?.db || !deps.bus || !deps.logger) {
    throw new SchedulerError(
      'SCHEDULER_INVALID_OPTIONS',
      'createScheduler: db, bus and logger are required',
    );
  }
  return new SchedulerImpl(resolved, deps);
}

class SchedulerImpl implements Scheduler {
  readonly #options: ResolvedOptions;
  readonly #bus: Bus;
  readonly #db: Db;
  readonly #log: Logger;
  /** The logger given in deps: each component's logger is a child of it (one `component`). */
  readonly #root: Logger;
  readonly commands = new CommandRegistry();
  #control: ControlServer | null = null;
  #library: Library | null = null;
  #analysis: AnalysisWorker | null = null;
  #upcoming: Upcoming | null = null;
  #player: Player | null = null;
  #clock: Clock | null = null;
  #outputs: StationOutputs | null = null;
  #mounts: readonly MountOutput[] = [];
  #nowPlaying: NowPlaying | null = null;
  #controller: PlayoutController | null = null;
  #watch: OnAirWatch | null = null;
  #live: LiveStation | null = null;
  #programme: ProgrammeStation | null = null;
  #cleanups: (() => void)[] = [];
  #queueTimer: NodeJS.Timeout | null = null;
  #startedAt = Date.now();
  #state: 'new' | 'starting' | 'running' | 'closed' = 'new';
  /** Set while start opens its parts, so a close in that time waits for them. */
  #opening: Promise<Library> | null = null;
  #closing: Promise<void> | null = null;

  constructor(options: ResolvedOptions, deps: SchedulerDeps) {
    this.#options = options;
    this.#bus = deps.bus;
    this.#db = isDbHandle(deps.db) ? deps.db.db : deps.db;
    this.#root = deps.logger;
    this.#log = componentLogger(deps.logger, 'scheduler');
  }

  get controlPort(): number {
    return this.#control?.port ?? 0;
  }

  get controlHost(): string {
    return this.#options.controlHost;
  }

  get livePort(): number {
    return this.#live?.port ?? 0;
  }

  async start(): Promise<void> {
    if (this.#state !== 'new') {
      throw new SchedulerError(
        'SCHEDULER_STOPPED',
        'this scheduler was started or closed before; create a new one',
      );
    }
    this.#state = 'starting';
    this.#startedAt = Date.now();
    try {
      this.#opening = this.#open();
      const library = await this.#opening;
      if (this.#closing) return;
      await library.watchAndScan();
      if (this.#closing) return;
      this.#state = 'running';
    } catch (error) {
      await this.close();
      throw error;
    }
  }

  /** Opens every part; the station plays once this resolves, before the first full scan. */
  async #open(): Promise<Library> {
    const options = this.#options;
    const ffmpegPath = locateFfmpeg({ ffmpegPath: options.ffmpegPath }).path;
    await mkdir(resolve(options.musicDir), { recursive: true });
    const root = await realpath(resolve(options.musicDir));

    const history = new HistoryRepository(this.#db);
    const { amplifier, amplify } = await this.#loadAmplify();
    await history.closeDangling();
    const library = await this.#loadLibrary(root);
    const upcoming = new Upcoming({ ids: new RequestIds() });
    this.#upcoming = upcoming;

    this.#mounts = this.#createMounts(ffmpegPath);
    const { player, nowPlaying } = this.#createPlayer({
      ffmpegPath,
      root,
      history,
      amplifier,
      amplify,
      library,
      upcoming,
    });
    const controller = new PlayoutController({
      library,
      upcoming,
      player,
      nowPlaying,
      amplify,
      playlists: new PlaylistRepository(this.#db),
    });
    this.#controller = controller;
    this.#cleanups.push(
      upcoming.onChange(() => {
        player.refreshNext();
        this.#scheduleQueuePublish();
      }),
      library.onChange((change) => this.#onLibraryChange(change)),
      library.onScan((scan) =>
        this.#sent('library.scan', this.#bus.publishState('library.scan', scan)),
      ),
      amplify.onChange(() => nowPlaying.publishState()),
    );

    this.#watch = new OnAirWatch(
      { player, upcoming, nowPlaying, ffmpegPath, options },
      { db: this.#db, bus: this.#bus, logger: this.#root },
    );
    const watch = this.#watch;
    const autoDj: AutoDj = (out, frames, at) => {
      player.produce(out, frames, at);
      watch.process(out, frames, at);
    };
    await this.#openProgramme({ library, upcoming, player, controller, nowPlaying }).start();
    this.#live = await this.#openLive(autoDj, nowPlaying, ffmpegPath);
    this.#clock = startStationClock({
      logger: this.#root,
      intervalMs: this.#options.clockIntervalMs,
      produce: this.#live?.produce ?? autoDj,
      outputs: this.#outputs,
    });
    await this.#startAnalysis(library, ffmpegPath);
    const control = await this.#startControl(controller, root);
    this.#cleanups.push(registerBusCommands(this.#bus, controller));
    nowPlaying.publishState();
    this.#scheduleQueuePublish();
    this.#log.info(
      {
        musicDir: root,
        tracks: library.tracks().length,
        controlPort: control.port,
        streamUrl: options.streamUrl.origin,
        crossfade: options.crossfadeSeconds,
      },
      'scheduler started',
    );
    return library;
  }

  /** The amplify level the last run left, applied to the playout's amplifier. */
  async #loadAmplify(): Promise<{ amplifier: Amplifier; amplify: AmplifySetting }> {
    const amplifier = new Amplifier(1);
    const amplify = new AmplifySetting(
      amplifier,
      new SettingsRepository(this.#db),
      componentLogger(this.#root, 'amplify'),
    );
    await amplify.load();
    return { amplifier, amplify };
  }

  /** The tracks the database knows (the station plays before the first scan is done). */
  async #loadLibrary(root: string): Promise<Library> {
    const library = new Library({
      root,
      tracks: new TrackRepository(this.#db),
      logger: componentLogger(this.#root, 'library'),
      watch: this.#options.watch,
    });
    this.#library = library;
    await library.load();
    return library;
  }

  /** The background loudness and cue analysis of the tracks not measured yet. */
  async #startAnalysis(library: Library, ffmpegPath: string): Promise<void> {
    this.#analysis = new AnalysisWorker({
      library,
      tracks: new TrackRepository(this.#db),
      bus: this.#bus,
      ffmpegPath,
      logger: componentLogger(this.#root, 'analysis'),
    });
    await this.#analysis.start();
  }

  /** The one encoder process and its mount outputs; the mounts are what now-playing times. */
  #createMounts(ffmpegPath: string): readonly MountOutput[] {
    const options = this.#options;
    this.#outputs = new StationOutputs({
      mounts: options.mounts,
      station: options.station,
      ffmpegPath,
      streamUrl: options.streamUrl,
      sourcePassword: options.sourcePassword,
      admin: options.admin,
      logger: this.#root,
      backoffMs: options.reconnectBackoffMs,
    });
    return this.#outputs.mounts;
  }

  /** The player and what tells everyone about it; each needs the other. */
  #createPlayer(parts: PlayerParts): { player: Player; nowPlaying: NowPlaying } {
    const { library } = parts;
    let player: Player | null = null;
    const nowPlaying = new NowPlaying({
      bus: this.#bus,
      history: parts.history,
      mounts: this.#mounts,
      logger: componentLogger(this.#root, 'now-playing'),
      amplify: () => parts.amplify.value,
      position: () => player?.onAir()?.position ?? null,
    });
    this.#nowPlaying = nowPlaying;
    player = new Player({
      ffmpegPath: parts.ffmpegPath,
      musicDir: parts.root,
      logger: componentLogger(this.#root, 'player'),
      crossfadeSeconds: this.#options.crossfadeSeconds,
      loudnessTarget: this.#options.loudnessTarget,
      supply: parts.upcoming,
      amplifier: parts.amplifier,
      events: {
        onTrackStart: (entry, frame) => {
          nowPlaying.trackStarted(entry, frame);
          this.#programme?.trackStarted(entry, nowPlaying.current()?.startedAt ?? Date.now());
        },
        onTrackEnd: (entry, reason) => {
          nowPlaying.trackEnded(entry, reason);
          this.#programme?.trackEnded(reason);
        },
        onTrackFailed: (entry, reason, fileFault) => {
          if (!fileFault) return;
          void library.markUnplayable(entry.track.id, reason).catch((error: unknown) => {
            this.#log.warn({ err: error }, 'cannot mark a track invalid');
          });
        },
        onStateChange: (state) => nowPlaying.stateChanged(state),
        onNextPrepared: (entry) => this.#programme?.entryPrepared(entry),
      },
    });
    this.#player = player;
    return { player, nowPlaying };
  }

  /** The planner at run time: what plays after the hand-queued entries, and when. */
  #openProgramme(parts: ProgrammeHooks): ProgrammeStation {
    const { commands } = this;
    const shared = { db: this.#db, bus: this.#bus, logger: this.#root, options: this.#options };
    this.#programme = new ProgrammeStation({ ...parts, ...shared, commands });
    return this.#programme;
  }

  /** The live port, when configured: it decides block by block whether the AutoDJ is heard. */
  async #openLive(autoDj: AutoDj, nowPlaying: NowPlaying, ffmpegPath: string) {
    const { live, dataDir } = this.#options;
    if (!live) return null;
    const { commands } = this;
    const titles: LiveTitles = {
      liveChanged: (on, frame) => {
        nowPlaying.liveChanged(on, frame);
        this.#programme?.liveChanged(on?.djId ?? null);
      },
    };
    const parts = { db: this.#db, bus: this.#bus, logger: this.#root, commands };
    return openLive({ ...parts, options: live, dataDir, ffmpegPath, titles, autoDj });
  }

  async #startControl(controller: PlayoutController, root: string): Promise<ControlServer> {
    const options = this.#options;
    registerBuiltins(this.commands, () => this.#startedAt);
    registerStationCommands(this.commands, controller, () => root);
    registerPlayoutCommands(this.commands, () => (this.#watch as OnAirWatch).status());
    const control = new ControlServer({
      host: options.controlHost,
      port: options.controlPort,
      registry: this.commands,
      logger: componentLogger(this.#root, 'control'),
      ...options.control,
    });
    this.#control = control;
    await control.start();
    return control;
  }

  status(): SchedulerStatus {
    const player: PlayerStatus = this.#controller?.status() ?? {
      state: 'stopped',
      nowPlaying: null,
      position: null,
      amplify: 1,
    };
    return {
      player: { ...player, fallback: this.#nowPlaying?.fallback() ?? null },
      mounts: this.#outputs?.status() ?? [],
      library: {
        tracks: this.#library?.tracks().length ?? 0,
        lastScan: this.#library?.lastScan() ?? null,
      },
      controlPort: this.controlPort,
      livePort: this.livePort,
    };
  }

  close(): Promise<void> {
    this.#closing ??= this.#close();
    return this.#closing;
  }

  async #close(): Promise<void> {
    this.#state = 'closed';
    // A close while start opens the parts: let them open, or they would be left running.
    await this.#opening?.catch(() => {});
    for (const cleanup of this.#cleanups.splice(0).reverse()) cleanup();
    if (this.#queueTimer) clearTimeout(this.#queueTimer);
    this.#queueTimer = null;
    const step = async (name: string, work: () => Promise<void> | void): Promise<void> => {
      try {
        await work();
      } catch (error) {
        this.#log.warn({ err: error, step: name }, 'stop step failed');
      }
    };
    await step('control', () => this.#control?.stop());
    await step('programme', () => this.#programme?.close());
    await step('live', () => this.#live?.close());
    await step('clock', () => this.#clock?.stop());
    await step('player', () => this.#player?.close());
    await step('fallback', () => this.#watch?.close());
    await step('outputs', () => this.#outputs?.stop());
    await step('analysis', () => this.#analysis?.stop());
    await step('library', () => this.#library?.stop());
    await step('now-playing', () => this.#nowPlaying?.settle());
    this.#log.info('scheduler stopped');
  }

  #onLibraryChange(change: LibraryChange): void {
    this.#upcoming?.applyLibraryChange(change);
    this.#programme?.libraryChanged();
    this.#watch?.libraryChanged();
    followOnAirTags(change, this.#player, this.#nowPlaying);
    const small = change.paths.length <= 100;
    const payload = {
      added: change.added.length,
      updated: change.updated.length,
      removed: change.removed.length,
      invalid: change.invalid.length,
      ...(small ? { paths: [...change.paths] } : {}),
    };
    this.#sent('library.changed', this.#bus.publish('library.changed', payload));
  }

  #scheduleQueuePublish(): void {
    if (this.#queueTimer || this.#state === 'closed') return;
    this.#queueTimer = setTimeout(() => {
      this.#queueTimer = null;
      const upcoming = this.#upcoming;
      if (!upcoming || this.#state === 'closed') return;
      const snapshot = { items: upcoming.list().map(toQueueItem) };
      this.#sent('queue.changed', this.#bus.publishState('queue.changed', snapshot));
    }, QUEUE_PUBLISH_MS);
  }

  /** A bus that is down is logged, never fatal. */
  #sent(type: EventType, sending: Promise<void>): void {
    sending.catch((error: unknown) =>
      this.#log.warn({ err: error, type }, 'cannot publish on the bus'),
    );
  }
}
