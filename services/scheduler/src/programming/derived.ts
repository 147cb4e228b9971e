import { artistKey } from './artist.ts';
import type { PlannerInputs } from './planner-api.ts';
import type { PlanPlaylist, PlanRequest, PlanScheduleEntry, PlanTrack } from './types.ts';

/** The whole-library rotation's id in cursors and steps (no playlist row has id 0). */
export const LIBRARY_ID = 0;

/** Rule kinds in the order they win a slot when several are due at once. */
const RULE_ORDER = ['once_at', 'hourly_at', 'every_n_minutes', 'every_n_songs'] as const;

/** The roles of the playlists: what depends on the library, the playlists and the schedule. */
interface Programme {
  readonly playlists: ReadonlyMap<number, PlanPlaylist>;
  /** Rotation playlists on air without schedule entries, by id: the default rotation. */
  readonly defaultRotation: readonly PlanPlaylist[];
  /** The whole library (less jingles and rule playlists' tracks), shuffled, when there is none. */
  readonly library: PlanPlaylist;
  /** Rule playlists with tracks, in the order they win a slot. */
  readonly rules: readonly PlanPlaylist[];
  /** Schedule entries of on-air rotation playlists: the scheduled playlists. */
  readonly scheduledEntries: readonly PlanScheduleEntry[];
  /** Schedule entries of rule playlists, by playlist id: a rule only fires inside them. */
  readonly ruleEntries: ReadonlyMap<number, readonly PlanScheduleEntry[]>;
  /** DJ show slots. */
  readonly liveEntries: readonly PlanScheduleEntry[];
}

/** What the planner works out from its inputs before it plans. */
export interface Derived extends Programme {
  /** Pending requests, oldest (lowest id) first. */
  readonly requests: readonly PlanRequest[];
  /** The ids of the pending requests of each requested track. */
  readonly requestedTracks: ReadonlyMap<number, readonly number[]>;
  /** Each track's artist as separation compares it (see artistKey). */
  readonly artists: ReadonlyMap<number, string | null>;
  /** The longer separation: history older than this before a pick no longer matters. */
  readonly horizonMs: number;
}

type Tracks = PlannerInputs['tracks'];
type Playlists = PlannerInputs['playlists'];
type Schedules = PlannerInputs['schedules'];

/*
 * Caches keyed by the identity of the parts: the runtime builds a new inputs object for every
 * commit and queue change, but keeps the library, the playlists and the schedule until they
 * change, and working those out is most of the cost of a pick over a large library.
 */
const byInputs = new WeakMap<PlannerInputs, Derived>();
const artistsByTracks = new WeakMap<Tracks, ReadonlyMap<number, string | null>>();
const programmes = new WeakMap<Tracks, WeakMap<Playlists, WeakMap<Schedules, Programme>>>();
const sortedRequests = new WeakMap<PlannerInputs['requests'], readonly PlanRequest[]>();
const requestedTracksOf = new WeakMap<
  PlannerInputs['requests'],
  ReadonlyMap<number, readonly number[]>
>();

/** The derived view of `inputs`, computed once per inputs object (and per part). */
export function derive(inputs: PlannerInputs): Derived {
  let derived = byInputs.get(inputs);
  if (!derived) {
    const config = inputs.config;
    derived = {
      ...programmeOf(inputs),
      requests: cached(sortedRequests, inputs.requests, () =>
        [...inputs.requests].sort((a, b) => a.id - b.id),
      ),
      requestedTracks: cached(requestedTracksOf, inputs.requests, () =>
        requestsByTrack(inputs.requests),
      ),
      artists: cached(artistsByTracks, inputs.tracks, () => artistsOf(inputs.tracks)),
      horizonMs: Math.max(config.artistSeparationMs, config.trackSeparationMs),
    };
    byInputs.set(inputs, derived);
  }
  return derived;
}

function cached<K extends object, V>(cache: WeakMap<K, V>, key: K, make: () => V): V {
  let value = cache.get(key);
  if (value === undefined) {
    value = make();
    cache.set(key, value);
  }
  return value;
}

function requestsByTrack(requests: readonly PlanRequest[]): Map<number, number[]> {
  const byTrack = new Map<number, number[]>();
  for (const request of requests) {
    const ids = byTrack.get(request.trackId) ?? [];
    ids.push(request.id);
    byTrack.set(request.trackId, ids);
  }
  return byTrack;
}

function artistsOf(tracks: Tracks): ReadonlyMap<number, string | null> {
  const artists = new Map<number, string | null>();
  for (const track of tracks.values()) artists.set(track.id, artistKey(track.artist));
  return artists;
}

function programmeOf(inputs: PlannerInputs): Programme {
  const byPlaylists = cached(programmes, inputs.tracks, () => new WeakMap());
  const bySchedules = cached(byPlaylists, inputs.playlists, () => new WeakMap());
  return cached(bySchedules, inputs.schedules, () => computeProgramme(inputs));
}

function computeProgramme(inputs: PlannerInputs): Programme {
  const playlists = new Map<number, PlanPlaylist>();
  for (const playlist of inputs.playlists) {
    // Only tracks the library can play: an order over missing tracks would stall.
    const trackIds = playlist.trackIds.filter((id) => inputs.tracks.has(id));
    playlists.set(playlist.id, { ...playlist, trackIds });
  }
  const scheduled = new Set<number>();
  const scheduledEntries: PlanScheduleEntry[] = [];
  const ruleEntries = new Map<number, PlanScheduleEntry[]>();
  const liveEntries: PlanScheduleEntry[] = [];
  for (const entry of inputs.schedules) {
    if (entry.dj) liveEntries.push(entry);
    const playlist = entry.playlistId === null ? undefined : playlists.get(entry.playlistId);
    if (!playlist) continue;
    if (playlist.kind === 'rotation') {
      scheduled.add(playlist.id);
      scheduledEntries.push(entry);
    } else {
      ruleEntries.set(playlist.id, [...(ruleEntries.get(playlist.id) ?? []), entry]);
    }
  }
  const byId = [...playlists.values()].sort((a, b) => a.id - b.id);
  const withTracks = byId.filter((p) => p.trackIds.length > 0);
  const rank = (p: PlanPlaylist) => RULE_ORDER.indexOf(p.kind as (typeof RULE_ORDER)[number]);
  return {
    playlists,
    defaultRotation: withTracks.filter((p) => p.kind === 'rotation' && !scheduled.has(p.id)),
    library: libraryPlaylist(inputs.tracks, byId),
    rules: withTracks
      .filter((p) => p.kind !== 'rotation')
      .sort((a, b) => rank(a) - rank(b) || a.id - b.id),
    scheduledEntries,
    ruleEntries,
    liveEntries,
  };
}

function libraryPlaylist(
  tracks: ReadonlyMap<number, PlanTrack>,
  playlists: readonly PlanPlaylist[],
): PlanPlaylist {
  // Jingles, and what rule playlists insert (IDs, ads, every_n_songs), are not music to rotate:
  // played in rotation as well, "one after every four songs" would come more often.
  const inserted = new Set<number>();
  for (const playlist of playlists) {
    if (playlist.jingle || playlist.kind !== 'rotation') {
      for (const id of playlist.trackIds) inserted.add(id);
    }
  }
  const all = [...tracks.keys()].sort((a, b) => a - b);
  const music = all.filter((id) => !inserted.has(id));
  return {
    id: LIBRARY_ID,
    name: 'library',
    kind: 'rotation',
    order: 'shuffle',
    weight: 1,
    jingle: false,
    interval: null,
    playAt: null,
    startMode: 'after_track',
    // A library of jingles alone still plays rather than falls silent.
    trackIds: music.length > 0 ? music : all,
  };
}

/** The playlist of an id (0: the library), or undefined. */
export function playlistOf(derived: Derived, id: number): PlanPlaylist | undefined {
  return id === LIBRARY_ID ? derived.library : derived.playlists.get(id);
}
