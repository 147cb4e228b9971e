import type { Logger, Timeline } from '@radio/core';
import type { LibraryTrack } from '../library/library-track.ts';
import type { ProgrammingOptions } from '../options.ts';
import { type PlanSettings, slotMs } from '../playout/deck.ts';
import { commit, initialState, plan } from '../programming/planner.ts';
import type {
  PlanFrom,
  PlannedEntry,
  PlannerInputs,
  PlannerState,
} from '../programming/planner-api.ts';
import type { PlanPlaylist, PlanTrack } from '../programming/types.ts';
import type {
  ProgrammeRepository,
  ProgrammeRequestRow,
} from '../repositories/programme-repository.ts';
import type { RequestPlanned } from './programme-inputs.ts';
import {
  anchorAfter,
  historySource,
  plannedRequests,
  toMark,
  toPlanPlaylist,
  toPlanQueued,
  toPlanRequest,
  toPlanTrack,
  toTimelineEntry,
  unplannedEntry,
} from './programme-inputs.ts';
import { isJingle, type QueueEntry } from './queue-entry.ts';
import type { Upcoming } from './upcoming.ts';

/** How far ahead each re-plan looks, and at most how many entries (the timeline extends it). */
const PLAN_AHEAD_MS = 2 * 3600_000;
const PLAN_LIMIT = 200;
/** Planned entries handed to the upcoming list (the player decodes the first ahead). */
const AHEAD = 3;
/** History read at start: enough for the longest separation and a day of rules. */
const HISTORY_MS = 24 * 3600_000;

export interface ProgrammeDeps {
  repository: ProgrammeRepository;
  upcoming: Upcoming;
  tracks(): readonly LibraryTrack[];
  /** The entry on air and when it was heard to start (epoch ms), or null. */
  onAir(): { entry: QueueEntry; startedAt: number } | null;
  /** Ms from playing to being heard (the encoders' latency): plan times are as heard. */
  latencyMs(): number;
  settings: PlanSettings;
  programming: ProgrammingOptions;
  logger: Logger;
  /** Seeds the planner's choices (fixed, so a restart plans the same way). */
  seed?: number;
}

/** One plan: what it was made from, so the timeline can be extended with the same inputs. */
interface PlanSnapshot {
  readonly revision: number;
  readonly cause: string;
  readonly plannedAt: number;
  readonly inputs: PlannerInputs;
  readonly state: PlannerState;
  readonly from: PlanFrom;
  until: number;
  entries: PlannedEntry[];
  /** Made with PLAN_LIMIT (it may stop before `until`). */
  limited: boolean;
  /** The queue's request ids of the first entries, by index (an extension keeps the prefix). */
  readonly requestIds: ReadonlyMap<number, string>;
  /** Entries committed before the plan was made: they come first, the plan after them. */
  readonly prefix: readonly PlannedEntry[];
}

/** An entry committed to play, and what the programme was before (to release it). */
interface Committed {
  readonly entry: PlannedEntry;
  taken: boolean;
  readonly stateBefore: PlannerState;
  /** Its playlist's position is written from this when it is heard. */
  readonly stateAfter: PlannerState;
  readonly requestsBefore: ProgrammeRequestRow[];
}

export interface ProgrammeListener {
  /** A new plan (revision), and the pending requests whose planned time it changed. */
  planned(snapshot: { timeline: Timeline; requests: readonly RequestPlanned[] }): void;
  /** A planned entry went on air (its playlist position and request are to be written). */
  committed(entry: PlannedEntry, state: PlannerState, startedAt: number): void;
}

/**
 * The programme at run time: it keeps the planner's inputs and state, re-plans on every
 * intervention with a new revision, hands the first planned entries to the upcoming list (after
 * the hand-queued ones) and commits each entry as it goes on air.
 */
export class Programme {
  readonly #deps: ProgrammeDeps;
  readonly #log: Logger;
  readonly #listeners = new Set<ProgrammeListener>();
  #tracks = new Map<number, PlanTrack>();
  #library = new Map<number, LibraryTrack>();
  #playlists: PlanPlaylist[] = [];
  #names = new Map<number, string>();
  #schedules: PlannerInputs['schedules'] = [];
  #requests: ProgrammeRequestRow[] = [];
  #liveOnAir: { djId: number } | null = null;
  #inputs: PlannerInputs | null = null;
  #state: PlannerState | null = null;
  #revision = 0;
  #plan: PlanSnapshot | null = null;
  /** Planned entries by the request id of the queue entry that plays them. */
  #byRequest = new Map<string, PlannedEntry>();
  /**
   * Entries committed to play (the player decodes them ahead, or took them), not yet heard,
   * by request id, in play order. The state has moved on by them; plans start after them.
   */
  #committed = new Map<string, Committed>();
  #pending: string | null = null;
  #timer: NodeJS.Immediate | null = null;
  #closed = false;

  constructor(deps: ProgrammeDeps) {
    this.#deps = deps;
    this.#log = deps.logger;
    this.#indexLibrary();
  }

  listen(listener: ProgrammeListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Reads the database (playlists, schedule, requests, history), then plans. */
  async load(cause = 'start'): Promise<number> {
    const data = await this.#deps.repository.load(Date.now() - HISTORY_MS);
    this.#playlists = data.playlists.map((row) => toPlanPlaylist(row, this.#tracks));
    this.#names = new Map(data.playlists.map((row) => [row.id, row.name]));
    this.#schedules = data.schedules;
    this.#requests = [...data.requests];
    this.#inputs = null;
    // The history has what was heard; what was taken to play since is applied again. What is
    // only decoded ahead is planned afresh: the new schedule may interrupt before it.
    let state = initialState(data.history, data.playlists);
    for (const [requestId, committed] of this.#committed) {
      if (!committed.taken) {
        this.#committed.delete(requestId);
        continue;
      }
      const after = commit(this.#currentInputs(), state, committed.entry, committed.entry.at);
      const requestsBefore = this.#requests;
      const played = committed.entry.songRequestId;
      this.#requests = this.#requests.filter((request) => request.id !== played);
      this.#committed.set(requestId, {
        ...committed,
        stateBefore: state,
        stateAfter: after,
        requestsBefore,
      });
      state = after;
    }
    this.#state = state;
    this.replan(cause);
    return this.#revision;
  }

  /** The library changed: new timing and playable tracks, then a new plan. */
  libraryChanged(): void {
    this.#indexLibrary();
    this.#playlists = this.#playlists.map((playlist) => ({
      ...playlist,
      trackIds: playlist.trackIds.filter((id) => this.#tracks.has(id)),
    }));
    this.#inputs = null;
    this.request('library');
  }

  /** A track was analysed: its cue points time it differently, so the plan changes. */
  trackAnalysed(track: LibraryTrack): void {
    if (!this.#library.has(track.id)) return;
    const tracks = new Map(this.#tracks);
    tracks.set(track.id, toPlanTrack(track, this.#deps.settings));
    this.#tracks = tracks;
    this.#library.set(track.id, track);
    this.#inputs = null;
    this.request('library');
  }

  /** Someone queued or removed by hand. */
  queueChanged(): void {
    this.#inputs = null;
    this.request('queue');
  }

  /** A DJ went on air on the live input (their user id), or the AutoDJ is back (null). */
  liveChanged(djId: number | null): void {
    this.#liveOnAir = djId === null ? null : { djId };
    this.#inputs = null;
    this.request('live');
  }

  /**
   * The player decodes `entry` ahead: it is committed to play next. The planner's state moves
   * on by it (playlist position, separation, rules) at its planned time, so a re-plan before
   * it plays (a library change, a reload) plans after it and the decoded track is kept.
   */
  entryPrepared(entry: QueueEntry): void {
    if (entry.programme) this.#commit(entry);
  }

  /** The player took `entry` to play now: the next planned entry takes its place. */
  entryTaken(entry: QueueEntry): void {
    const committed = this.#commit(entry);
    if (committed) committed.taken = true;
    const done = new Set([...this.#committed.values()].map((c) => c.entry));
    this.#handAhead((this.#plan?.entries ?? []).filter((e) => !done.has(e)));
  }

  /** `entry` was heard to start at `startedAt`: its writes, and a plan from it. */
  trackStarted(entry: QueueEntry, startedAt: number, cause: 'track' | 'skip'): void {
    const done = this.#commit(entry);
    // This one and any taken before it that was never heard (its file failed) are done.
    for (const [requestId, { taken }] of [...this.#committed]) {
      if (!taken && requestId !== entry.requestId) continue;
      this.#committed.delete(requestId);
      if (requestId === entry.requestId) break;
    }
    if (!done) return;
    for (const listener of this.#listeners)
      listener.committed(done.entry, done.stateAfter, startedAt);
    this.request(cause);
  }

  #commit(entry: QueueEntry): Committed | null {
    const known = this.#committed.get(entry.requestId);
    const state = this.#state;
    if (known || !state) return known ?? null;
    const at = Date.now() + this.#deps.latencyMs();
    const planned =
      this.#byRequest.get(entry.requestId) ??
      unplannedEntry(entry, at, this.#tracks.get(entry.track.id));
    this.#state = commit(this.#currentInputs(), state, planned, planned.at);
    const committed = {
      entry: planned,
      taken: false,
      stateBefore: state,
      stateAfter: this.#state,
      requestsBefore: this.#requests,
    };
    this.#committed.set(entry.requestId, committed);
    if (planned.songRequestId !== null) {
      this.#requests = this.#requests.filter((request) => request.id !== planned.songRequestId);
    }
    this.#inputs = null;
    return committed;
  }

  /** The plan up to `hours` ahead (of the current revision; extended once per revision). */
  timeline(hours: number, limit?: number): Timeline {
    const snapshot = this.#plan;
    if (!snapshot) return { revision: 0, plannedAt: Date.now(), cause: 'start', entries: [] };
    const until = snapshot.from.now + hours * 3600_000;
    if (until > snapshot.until || (snapshot.limited && lastAt(snapshot) < until)) {
      const rest = plan(snapshot.inputs, snapshot.state, snapshot.from, until);
      // The same plan, longer: the entries already made stay (the queue and commits know them).
      const made = snapshot.entries.length - snapshot.prefix.length;
      snapshot.entries = [...snapshot.entries, ...rest.slice(made)];
      snapshot.until = until;
      snapshot.limited = false;
    }
    let entries = snapshot.entries.filter((entry) => entry.at < until);
    if (limit !== undefined) entries = entries.slice(0, limit);
    return this.#toTimeline(snapshot, entries);
  }

  /** A re-plan soon (once for any number of changes in the same turn of the event loop). */
  request(cause: string): void {
    if (this.#closed) return;
    this.#pending ??= cause;
    this.#timer ??= setImmediate(() => {
      this.#timer = null;
      const pending = this.#pending ?? cause;
      this.#pending = null;
      try {
        this.replan(pending);
      } catch (error) {
        this.#log.error({ err: error, cause: pending }, 'planning failed');
      }
    });
  }

  /**
   * An entry pushed by hand plays before the one decoded ahead (the player drops that deck):
   * its commitment is undone, and it is planned again after the pushed ones.
   */
  #releasePrepared(): void {
    if (this.#deps.upcoming.queued().length === 0) return;
    const last = [...this.#committed].at(-1);
    if (!last || last[1].taken) return;
    this.#committed.delete(last[0]);
    this.#state = last[1].stateBefore;
    this.#requests = last[1].requestsBefore;
    this.#inputs = null;
  }

  /** Plans now from the track on air; a new revision. */
  replan(cause: string): void {
    this.#releasePrepared();
    const state = this.#state;
    if (!state || this.#closed) return;
    const inputs = this.#currentInputs();
    const now = Date.now() + this.#deps.latencyMs();
    const from: PlanFrom = { now, onAir: this.#onAirFrom() };
    const until = now + PLAN_AHEAD_MS;
    // Entries committed to play next (decoded ahead, not taken yet) stay first.
    const prefix = [...this.#committed.values()].filter((c) => !c.taken).map((c) => c.entry);
    const entries = [...prefix, ...plan(inputs, state, from, until, PLAN_LIMIT)];
    const ids = this.#handAhead(entries);
    const requestIds = new Map<number, string>();
    entries.forEach((entry, index) => {
      const id = ids.get(entry) ?? entry.requestId;
      if (id !== null) requestIds.set(index, id);
    });
    this.#revision += 1;
    const snapshot: PlanSnapshot = {
      revision: this.#revision,
      cause,
      plannedAt: Date.now(),
      inputs,
      state,
      from,
      until,
      entries,
      limited: entries.length - prefix.length >= PLAN_LIMIT,
      requestIds,
      prefix,
    };
    this.#plan = snapshot;
    const timeline = this.#toTimeline(snapshot, entries);
    const planned = plannedRequests(this.#requests, entries);
    this.#requests = planned.requests;
    const requests = planned.changes;
    for (const listener of this.#listeners) listener.planned({ timeline, requests });
  }

  close(): void {
    this.#closed = true;
    if (this.#timer) clearImmediate(this.#timer);
    this.#timer = null;
  }

  /**
   * The first planned tracks go to the upcoming list, after what was queued by hand. Returns
   * the request id of each entry the queue holds.
   */
  #handAhead(entries: readonly PlannedEntry[]): Map<PlannedEntry, string> {
    const { upcoming } = this.#deps;
    const byRequest = new Map<string, PlannedEntry>();
    const ahead: { entry: PlannedEntry; track: LibraryTrack }[] = [];
    for (const entry of entries) {
      if (entry.source === 'queue' && entry.requestId !== null) {
        byRequest.set(entry.requestId, entry);
        continue;
      }
      const track = entry.trackId === null ? undefined : this.#library.get(entry.trackId);
      if (track && ahead.length < AHEAD) ahead.push({ entry, track });
    }
    const queued = upcoming.setPlanned(
      ahead.map(({ entry, track }) => ({
        track,
        kind: historySource(entry),
        programme: toMark(entry),
      })),
    );
    queued.forEach((queue, index) => {
      const planned = ahead[index]?.entry;
      if (planned) byRequest.set(queue.requestId, planned);
    });
    this.#byRequest = byRequest;
    return new Map([...byRequest].map(([requestId, entry]) => [entry, requestId]));
  }

  #toTimeline(snapshot: PlanSnapshot, entries: readonly PlannedEntry[]): Timeline {
    const lookup = {
      track: (id: number) => this.#library.get(id),
      playlistName: (id: number) => this.#names.get(id),
      requestId: (entry: PlannedEntry, index: number) =>
        snapshot.requestIds.get(index) ?? entry.requestId,
    };
    return {
      revision: snapshot.revision,
      plannedAt: snapshot.plannedAt,
      cause: snapshot.cause,
      entries: entries.map((entry, index) => toTimelineEntry(entry, index, lookup)),
    };
  }

  #onAirFrom(): PlanFrom['onAir'] {
    if (this.#liveOnAir) return null;
    const onAir = this.#deps.onAir();
    const heard = onAir && {
      trackId: onAir.entry.track.id,
      startedAt: onAir.startedAt,
      jingle: isJingle(onAir.entry),
      slotMs: slotMs(onAir.entry.track, this.#deps.settings),
      interruptAt: onAir.entry.programme?.interruptAt ?? null,
    };
    return anchorAfter(heard, [...this.#committed.values()], this.#tracks);
  }

  #currentInputs(): PlannerInputs {
    this.#inputs ??= {
      config: {
        timeZone: this.#deps.programming.timeZone,
        artistSeparationMs: this.#deps.programming.artistSeparationMinutes * 60_000,
        trackSeparationMs: this.#deps.programming.trackSeparationMinutes * 60_000,
        seed: this.#deps.seed ?? 1,
      },
      tracks: this.#tracks,
      playlists: this.#playlists,
      schedules: this.#schedules,
      queue: this.#deps.upcoming.queued().map(toPlanQueued),
      requests: this.#requests
        .filter((request) => this.#tracks.has(request.trackId))
        .map(toPlanRequest),
      liveOnAir: this.#liveOnAir,
    };
    return this.#inputs;
  }

  #indexLibrary(): void {
    const tracks = new Map<number, PlanTrack>();
    const library = new Map<number, LibraryTrack>();
    for (const track of this.#deps.tracks()) {
      tracks.set(track.id, toPlanTrack(track, this.#deps.settings));
      library.set(track.id, track);
    }
    this.#tracks = tracks;
    this.#library = library;
  }
}

function lastAt(snapshot: PlanSnapshot): number {
  return snapshot.entries.at(-1)?.at ?? snapshot.from.now;
}
