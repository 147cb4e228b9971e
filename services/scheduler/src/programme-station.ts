import {
  type Bus,
  componentLogger,
  type EventType,
  type Logger,
  type SongRequestUpdate,
  type Timeline,
} from '@radio/core';
import {
  CONTROL_TIMELINE_ENTRIES,
  registerProgrammeCommands,
} from './control/programme-commands.ts';
import type { CommandRegistry } from './control/registry.ts';
import type { LibraryTrack } from './library/library-track.ts';
import type { ResolvedOptions } from './options.ts';
import type { Player, TrackEndReason } from './playout/player.ts';
import type { PlannedEntry, PlannerState } from './programming/planner-api.ts';
import type { Db } from './repositories/db.ts';
import { ProgrammeRepository } from './repositories/programme-repository.ts';
import { RequestRepository } from './repositories/request-repository.ts';
import { Programme } from './sources/programme.ts';
import type { RequestPlanned } from './sources/programme-inputs.ts';
import { InterruptTimer } from './sources/programme-interrupt.ts';
import type { QueueEntry } from './sources/queue-entry.ts';
import type { Upcoming } from './sources/upcoming.ts';

/** `schedule.timeline` events at most this often (a burst of changes sends the last plan). */
const TIMELINE_PUBLISH_MS = 100;
/** The entries a `schedule.timeline` event carries. */
const TIMELINE_EVENT_ENTRIES = 10;

/** The parts of the station the programme follows and drives. */
export interface ProgrammeHooks {
  library: {
    tracks(): readonly LibraryTrack[];
    onAnalysis(listener: (track: LibraryTrack) => void): () => void;
  };
  upcoming: Upcoming;
  player: Player;
  /** The entry on air and when it was heard to start. */
  controller: { onAir(): { entry: QueueEntry; startedAt: number } | null };
  /** Ms from playing to being heard. */
  nowPlaying: { latencyMs(): number };
}

export interface ProgrammeStationParts extends ProgrammeHooks {
  db: Db;
  bus: Bus;
  /** The scheduler's root logger. */
  logger: Logger;
  options: ResolvedOptions;
  commands: CommandRegistry;
}

/**
 * The programme wired into the station: the planner's runtime, what it writes (playlist
 * positions, request status), what it tells (`schedule.timeline`, `requests.updated`), its bus
 * and control commands, and the scheduled interrupts. The scheduler calls its hooks.
 */
export class ProgrammeStation {
  readonly programme: Programme;
  readonly #parts: ProgrammeStationParts;
  readonly #log: Logger;
  readonly #positions: ProgrammeRepository;
  readonly #requests: RequestRepository;
  readonly #interrupt: InterruptTimer;
  readonly #cleanups: (() => void)[] = [];
  #publishTimer: NodeJS.Timeout | null = null;
  #latest: Timeline | null = null;
  #lastEnd: TrackEndReason | null = null;
  #tail: Promise<void> = Promise.resolve();

  constructor(parts: ProgrammeStationParts) {
    this.#parts = parts;
    this.#log = componentLogger(parts.logger, 'programme');
    const { options, upcoming, player, library, controller, nowPlaying } = parts;
    const latencyMs = () => nowPlaying.latencyMs();
    this.#positions = new ProgrammeRepository(parts.db);
    this.#requests = new RequestRepository(parts.db);
    this.programme = new Programme({
      repository: this.#positions,
      upcoming,
      tracks: () => library.tracks().filter((track) => !upcoming.isWithdrawn(track.id)),
      onAir: () => controller.onAir(),
      latencyMs,
      settings: {
        crossfadeSeconds: options.crossfadeSeconds,
        loudnessTarget: options.loudnessTarget,
      },
      programming: options.programming,
      logger: this.#log,
    });
    this.#interrupt = new InterruptTimer({
      onAirRequestId: () => player.onAir()?.entry.requestId ?? null,
      headRequestId: () => upcoming.head()?.requestId ?? null,
      latencyMs,
      prepareNext: () => player.prepareNext(),
      cut: () => player.skip(),
      logger: this.#log,
    });
    this.#cleanups.push(
      this.programme.listen({
        planned: ({ timeline, requests }) => this.#planned(timeline, requests),
        committed: (entry, state, startedAt) => this.#committed(entry, state, startedAt),
      }),
      library.onAnalysis((track) => this.programme.trackAnalysed(track)),
      upcoming.onTake((entry) => this.programme.entryTaken(entry)),
      upcoming.onChange((change) => {
        if (change === 'queue') this.programme.queueChanged();
        if (change === 'withdrawn') this.programme.libraryChanged();
      }),
    );
  }

  /** Reads the programme and makes the first plan; registers the commands. */
  async start(): Promise<void> {
    await this.programme.load('start');
    const { bus, commands, options } = this.#parts;
    this.#cleanups.push(
      bus.handleCommands({
        'schedule.reload': async () => ({ revision: await this.programme.load('schedule') }),
        'schedule.timeline': (payload) => this.programme.timeline(payload.hours),
      }),
      registerProgrammeCommands(
        commands,
        () => this.programme.timeline(24, CONTROL_TIMELINE_ENTRIES),
        options.programming.timeZone,
      ),
    );
  }

  /** The player decodes the next entry ahead: it is committed to play next. */
  entryPrepared(entry: QueueEntry): void {
    this.programme.entryPrepared(entry);
  }

  /** A track was heard to start (the player announced it). */
  trackStarted(entry: QueueEntry, startedAt: number): void {
    const cause = this.#lastEnd === 'skipped' ? 'skip' : 'track';
    this.#lastEnd = null;
    this.programme.trackStarted(entry, startedAt, cause);
  }

  trackEnded(reason: TrackEndReason): void {
    this.#lastEnd = reason;
  }

  libraryChanged(): void {
    this.programme.libraryChanged();
  }

  liveChanged(djId: number | null): void {
    this.programme.liveChanged(djId);
  }

  /** Stops planning and publishing; waits for the writes in flight. */
  async close(): Promise<void> {
    for (const cleanup of this.#cleanups.splice(0).reverse()) cleanup();
    this.programme.close();
    this.#interrupt.disarm();
    if (this.#publishTimer) clearTimeout(this.#publishTimer);
    this.#publishTimer = null;
    await this.#tail;
  }

  #planned(timeline: Timeline, requests: readonly RequestPlanned[]): void {
    this.#latest = timeline;
    this.#interrupt.planned(timeline.entries[0]);
    this.#publishTimer ??= setTimeout(() => {
      this.#publishTimer = null;
      const latest = this.#latest;
      if (!latest) return;
      const payload = { ...latest, entries: latest.entries.slice(0, TIMELINE_EVENT_ENTRIES) };
      this.#sent('schedule.timeline', this.#parts.bus.publishState('schedule.timeline', payload));
    }, TIMELINE_PUBLISH_MS);
    if (requests.length > 0) {
      this.#write('request plans', async () => {
        this.#announce(await this.#requests.setPlanned(requests));
      });
    }
  }

  #committed(entry: PlannedEntry, state: PlannerState, startedAt: number): void {
    const playlistId = entry.step.order?.playlistId || entry.playlistId;
    const position = playlistId ? state.cursors[String(playlistId)] : undefined;
    if (playlistId && position) {
      this.#write('playlist position', () =>
        this.#positions.savePosition(playlistId, position.cursor, position.cycle),
      );
    }
    const requestId = entry.songRequestId;
    if (requestId !== null) {
      this.#write('request played', async () => {
        const update = await this.#requests.markPlayed(requestId, startedAt);
        if (update) this.#announce([update]);
      });
    }
  }

  #announce(requests: readonly SongRequestUpdate[]): void {
    if (requests.length === 0) return;
    this.#sent(
      'requests.updated',
      this.#parts.bus.publish('requests.updated', { requests: [...requests] }),
    );
  }

  /** Database writes one after another (a request's plan is never written after its play). */
  #write(what: string, work: () => Promise<void>): void {
    this.#tail = this.#tail.then(work).catch((error: unknown) => {
      this.#log.warn({ err: error, what }, 'cannot write the programme');
    });
  }

  #sent(type: EventType, sending: Promise<void>): void {
    sending.catch((error: unknown) =>
      this.#log.warn({ err: error, type }, 'cannot publish on the bus'),
    );
  }
}
