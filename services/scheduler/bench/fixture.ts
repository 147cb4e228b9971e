import { commit, initialState, plan } from '../src/programming/planner.ts';
import type {
  PlanFrom,
  PlannedEntry,
  PlannerInputs,
  PlannerState,
} from '../src/programming/planner-api.ts';
import type { PlanPlaylist, PlanScheduleEntry, PlanTrack } from '../src/programming/types.ts';

/** Test fixtures for the planner: a simulated clock, small libraries, playing a plan out. */

export const MIN = 60_000;
/** Monday 1 June 2026, 08:00 UTC. */
export const T0 = Date.parse('2026-06-01T08:00:00Z');
export const DAY = 86_400_000;

/** A song: 3 minutes to the next when crossfaded, 3:05 when joined. Jingles: 10 s. */
export function song(id: number, artist: string | null = `artist ${id}`): PlanTrack {
  return {
    id,
    title: `song ${id}`,
    artist,
    album: null,
    duration: 185,
    slotMs: { crossfaded: 180_000, joined: 185_000 },
  };
}

export function jingleTrack(id: number): PlanTrack {
  return {
    id,
    title: `jingle ${id}`,
    artist: 'Station',
    album: null,
    duration: 10,
    slotMs: { crossfaded: 10_000, joined: 10_000 },
  };
}

/** `count` songs from id `first`, the artists taken in turn from `artists`. */
export function songs(count: number, artists: number, first = 1): PlanTrack[] {
  return Array.from({ length: count }, (_, i) => song(first + i, `artist ${i % artists}`));
}

export function playlist(
  id: number,
  trackIds: readonly number[],
  over: Partial<PlanPlaylist> = {},
): PlanPlaylist {
  return {
    id,
    name: `list ${id}`,
    kind: 'rotation',
    order: 'shuffle',
    weight: 1,
    jingle: false,
    interval: null,
    playAt: null,
    startMode: 'after_track',
    trackIds,
    ...over,
  };
}

export function schedule(id: number, over: Partial<PlanScheduleEntry> = {}): PlanScheduleEntry {
  return {
    id,
    playlistId: null,
    dj: null,
    title: null,
    days: 0b1111111,
    startTime: '10:00',
    endTime: '12:00',
    startDate: null,
    endDate: null,
    priority: 0,
    startMode: 'after_track',
    ...over,
  };
}

export function inputs(
  tracks: readonly PlanTrack[],
  over: Partial<PlannerInputs> = {},
): PlannerInputs {
  return {
    config: {
      timeZone: 'UTC',
      artistSeparationMs: 30 * MIN,
      trackSeparationMs: 180 * MIN,
      seed: 7,
    },
    tracks: new Map(tracks.map((t) => [t.id, t])),
    playlists: [],
    schedules: [],
    queue: [],
    requests: [],
    liveOnAir: null,
    ...over,
  };
}

/** Where the plan continues after `entry` went on air at its `at`. */
export function after(entry: PlannedEntry): PlanFrom {
  return {
    now: entry.at,
    onAir: { trackId: entry.trackId, startedAt: entry.at, jingle: entry.jingle },
  };
}

/**
 * Plays the plan out one entry at a time, as the runtime does: plan the next, commit it when
 * it starts, plan again from it. Returns what played and the state after.
 */
export function playOut(
  input: PlannerInputs,
  state: PlannerState,
  from: PlanFrom,
  count: number,
): { played: PlannedEntry[]; state: PlannerState } {
  const played: PlannedEntry[] = [];
  let next = from;
  for (let i = 0; i < count; i++) {
    const [entry] = plan(input, state, next, next.now + 7 * DAY, 1);
    if (!entry) break;
    state = commit(input, state, entry, entry.at);
    played.push(entry);
    next = after(entry);
  }
  return { played, state };
}

export const start = (now = T0): PlanFrom => ({ now, onAir: null });
export const iso = (ms: number) => new Date(ms).toISOString().slice(11, 19);

/** The bench's station: what `benchStation` builds and what the plan starts from. */
export interface BenchStation {
  readonly inputs: PlannerInputs;
  readonly state: PlannerState;
  /** A Monday 08:00 in the station's zone. */
  readonly now: number;
}

/** A deterministic choice for the fixture: the same station on every run. */
const pickOf = (i: number, n: number) => (Math.imul(i + 1, 2_654_435_761) >>> 0) % n;

/** A song of 2:30-5:00 with a 5 s crossfade. */
function benchSong(id: number, artists: number): PlanTrack {
  const ms = 150_000 + (pickOf(id, 151) % 151) * 1000;
  const artist = `artist ${id % artists}`;
  return {
    id,
    title: `song ${id}`,
    artist,
    album: null,
    duration: ms / 1000,
    slotMs: { crossfaded: ms - 5000, joined: ms },
  };
}

const range = (from: number, count: number) => Array.from({ length: count }, (_, i) => from + i);
const DAYS = { weekdays: 0b0011111, weekend: 0b1100000, all: 0b1111111 };

/** Four default rotation playlists, six scheduled ones and eight rules of each kind. */
function benchPlaylists(now: number): PlanPlaylist[] {
  const rotation = [1, 2, 3, 4].map((id) =>
    playlist(id, range((id - 1) * 2000 + 1, 2000), { weight: id, name: `Rotation ${id}` }),
  );
  const orders = ['shuffle', 'sequential', 'random'] as const;
  const scheduled = range(11, 6).map((id, i) =>
    playlist(id, range(i * 1500 + 1, 600), { order: orders[i % 3], name: `Show ${id}` }),
  );
  const jingle = { jingle: true, name: 'Jingles' };
  const rules = [
    playlist(21, range(9951, 25), { kind: 'every_n_songs', interval: 4, ...jingle }),
    playlist(22, range(9976, 25), {
      kind: 'every_n_songs',
      interval: 6,
      ...jingle,
      order: 'sequential',
    }),
    playlist(23, range(9951, 10), { kind: 'every_n_minutes', interval: 20, ...jingle }),
    playlist(24, range(8001, 300), { kind: 'every_n_minutes', interval: 45, name: 'New music' }),
    playlist(25, range(9961, 5), {
      kind: 'hourly_at',
      interval: 0,
      ...jingle,
      startMode: 'interrupt',
    }),
    playlist(26, range(9966, 5), { kind: 'hourly_at', interval: 30, ...jingle }),
    playlist(27, range(9971, 2), {
      kind: 'once_at',
      playAt: now + 5 * 3_600_000,
      ...jingle,
      startMode: 'interrupt',
    }),
    playlist(28, range(9973, 2), { kind: 'once_at', playAt: now + 30 * 3_600_000, ...jingle }),
  ];
  return [...rotation, ...scheduled, ...rules];
}

/** 40 entries over the week: shows, overnight spans, priorities, DJ slots, rule spans. */
function benchSchedules(): PlanScheduleEntry[] {
  const entries: PlanScheduleEntry[] = [];
  const times = [
    ['06:00', '09:00'],
    ['09:00', '12:00'],
    ['12:00', '15:00'],
    ['15:00', '18:00'],
    ['18:00', '21:00'],
    ['22:00', '02:00'],
  ];
  for (let i = 0; i < 30; i++) {
    const [startTime, endTime] = times[i % 6] as [string, string];
    const days = 1 << (i % 7);
    const startMode = i % 4 === 0 ? 'interrupt' : 'after_track';
    entries.push(
      schedule(i + 1, {
        playlistId: 11 + (i % 6),
        days,
        startTime,
        endTime,
        priority: i % 3,
        startMode,
      }),
    );
  }
  for (let i = 0; i < 6; i++) {
    const dj = { id: 100 + i, name: `dj ${i}` };
    entries.push(
      schedule(31 + i, {
        dj,
        days: 1 << ((i + 1) % 7),
        startTime: '20:00',
        endTime: '22:00',
        priority: 5,
      }),
    );
  }
  entries.push(
    schedule(37, { playlistId: 21, days: DAYS.weekdays, startTime: '06:00', endTime: '20:00' }),
  );
  entries.push(
    schedule(38, { playlistId: 22, days: DAYS.weekend, startTime: '00:00', endTime: '00:00' }),
  );
  entries.push(
    schedule(39, { playlistId: 26, days: DAYS.all, startTime: '07:00', endTime: '23:00' }),
  );
  entries.push(
    schedule(40, {
      playlistId: 13,
      days: DAYS.weekend,
      startTime: '10:00',
      endTime: '14:00',
      priority: 9,
      startDate: '2026-01-01',
      endDate: '2027-12-31',
    }),
  );
  return entries;
}

/**
 * The bench's station: 10,000 tracks by 2,000 artists (the last 50 are jingles), a week of 40
 * schedule entries over six scheduled playlists, four default rotation playlists and eight
 * rules (every kind), 500 rows of history, 20 pending requests and 3 hand pushes. Other
 * benches (the api's timeline row) build their station from it.
 */
export function benchStation(timeZone = 'Europe/Berlin'): BenchStation {
  // Monday 1 June 2026, 08:00 in Berlin.
  const now = Date.parse('2026-06-01T06:00:00Z');
  const tracks = range(1, 10_000).map((id) => (id > 9950 ? jingleTrack(id) : benchSong(id, 2000)));
  const history = range(0, 500).map((i) => {
    const trackId = pickOf(i, 9950) + 1;
    const startedAt = now - (500 - i) * 180_000;
    return {
      trackId,
      artist: tracks[trackId - 1]?.artist ?? null,
      playlistId: null,
      jingle: false,
      startedAt,
    };
  });
  const requests = range(1, 20).map((id) => ({
    id,
    userName: `listener ${id}`,
    trackId: pickOf(id + 900, 9950) + 1,
    notBefore: now + id * 600_000,
  }));
  const queue = range(1, 3).map((i) => ({
    requestId: `q${i}`,
    trackId: pickOf(i + 700, 9950) + 1,
    kind: 'request' as const,
  }));
  const input = inputs(tracks, {
    config: { timeZone, artistSeparationMs: 30 * MIN, trackSeparationMs: 180 * MIN, seed: 13 },
    playlists: benchPlaylists(now),
    schedules: benchSchedules(),
    requests,
    queue,
  });
  return { inputs: input, state: initialState(history, [{ id: 1, cursor: 17, cycle: 2 }]), now };
}
