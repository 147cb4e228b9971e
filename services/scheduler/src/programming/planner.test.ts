import { describe, expect, it } from '@jest/globals';
import {
  after,
  inputs,
  iso,
  jingleTrack,
  MIN,
  playlist,
  playOut,
  schedule,
  song,
  songs,
  start,
  T0,
} from '../../bench/fixture.ts';
import { commit, initialState, plan } from './planner.ts';

const fresh = () => initialState([], []);
const noSeparation = { timeZone: 'UTC', artistSeparationMs: 0, trackSeparationMs: 0, seed: 3 };
const HOUR = 60 * MIN;

describe('orders', () => {
  it('plays the whole library in shuffled rounds without a repeat within a round', () => {
    const input = inputs(songs(20, 20), { config: noSeparation });
    const { played } = playOut(input, fresh(), start(), 60);
    const ids = played.map((e) => e.trackId);
    for (let round = 0; round < 3; round++) {
      expect(new Set(ids.slice(round * 20, round * 20 + 20)).size).toBe(20);
    }
    expect(ids.slice(0, 20)).not.toEqual(ids.slice(20, 40));
    expect(played.every((e) => e.source === 'rotation' && e.reason === 'rotation: library')).toBe(
      true,
    );
  });

  it('continues a shuffle and a sequence from a saved cursor', () => {
    const tracks = songs(10, 10);
    const ids = tracks.map((t) => t.id);
    for (const order of ['shuffle', 'sequential'] as const) {
      const input = inputs(tracks, {
        config: noSeparation,
        playlists: [playlist(5, ids, { order })],
      });
      const whole = playOut(input, fresh(), start(), 10).played.map((e) => e.trackId);
      const saved = initialState([], [{ id: 5, cursor: 4, cycle: 0 }]);
      const resumed = playOut(input, saved, start(), 6).played.map((e) => e.trackId);
      expect(resumed).toEqual(whole.slice(4));
      if (order === 'sequential') expect(whole).toEqual(ids);
    }
  });

  it('keeps the cursor and round in the state for the runtime to persist', () => {
    const input = inputs(songs(3, 3), {
      config: noSeparation,
      playlists: [playlist(5, [1, 2, 3])],
    });
    const { state } = playOut(input, fresh(), start(), 4);
    expect(state.cursors[5]).toEqual({ cursor: 1, cycle: 1, ahead: [] });
  });

  it('draws a random order from the seed and the pick count', () => {
    const input = inputs(songs(10, 10), {
      config: noSeparation,
      playlists: [
        playlist(
          5,
          songs(10, 10).map((t) => t.id),
          { order: 'random' },
        ),
      ],
    });
    const a = playOut(input, fresh(), start(), 30).played.map((e) => e.trackId);
    const b = playOut(input, fresh(), start(), 30).played.map((e) => e.trackId);
    expect(a).toEqual(b);
    expect(new Set(a).size).toBeGreaterThan(5);
  });

  it('shares the default rotation among playlists by weight', () => {
    const tracks = songs(40, 40);
    const input = inputs(tracks, {
      config: noSeparation,
      playlists: [
        playlist(1, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], { weight: 3 }),
        playlist(2, [11, 12, 13, 14, 15], { weight: 1 }),
      ],
    });
    const { played } = playOut(input, fresh(), start(), 40);
    expect(played.filter((e) => e.playlistId === 1)).toHaveLength(30);
    // Smooth: never more than three of the heavier one in a row.
    expect(played.map((e) => e.playlistId).join('')).not.toContain('1111');
  });
});

describe('rule playlists', () => {
  const music = songs(30, 30);
  const jingles = [jingleTrack(100), jingleTrack(101)];
  const tracks = [...music, ...jingles];

  it('plays every_n_songs after every N songs, joined and without crossfade', () => {
    const rule = playlist(9, [100, 101], {
      kind: 'every_n_songs',
      interval: 3,
      jingle: true,
      name: 'Jingles',
    });
    const { played } = playOut(inputs(tracks, { playlists: [rule] }), fresh(), start(), 12);
    expect(played.map((e) => (e.jingle ? 'J' : 's')).join('')).toBe('sssJsssJsssJ');
    const first = played[3];
    expect(first?.reason).toBe('every 3 songs: Jingles');
    expect(first?.source).toBe('jingle');
    // The song before a jingle plays out (joined: 185 s), not crossfaded (180 s).
    expect((first?.at ?? 0) - (played[2]?.at ?? 0)).toBe(185_000);
    expect(played.filter((e) => !e.jingle).every((e) => e.source === 'rotation')).toBe(true);
  });

  it('leaves the tracks of a rule playlist out of the whole-library rotation', () => {
    // Not flagged as jingles: the rule alone decides when they play.
    const rule = playlist(9, [1, 2], { kind: 'every_n_songs', interval: 4 });
    const { played } = playOut(inputs(music, { playlists: [rule] }), fresh(), start(), 40);
    const fromRotation = played.filter((e) => e.source === 'rotation').map((e) => e.trackId);
    expect(fromRotation.length).toBeGreaterThan(0);
    expect(fromRotation.filter((id) => id === 1 || id === 2)).toEqual([]);
    expect(played.filter((e) => e.playlistId === 9)).toHaveLength(8);
  });

  it('plays every_n_minutes once N minutes have passed since its last play', () => {
    const rule = playlist(9, [100], { kind: 'every_n_minutes', interval: 10, jingle: true });
    const history = [
      { trackId: 100, artist: 'Station', playlistId: 9, jingle: true, startedAt: T0 - MIN },
    ];
    const { played } = playOut(
      inputs(tracks, { playlists: [rule] }),
      initialState(history, []),
      start(),
      20,
    );
    const times = played.filter((e) => e.jingle).map((e) => e.at);
    expect(times.length).toBeGreaterThanOrEqual(3);
    expect((times[0] ?? 0) - (T0 - MIN)).toBeGreaterThanOrEqual(10 * MIN);
    for (let i = 1; i < times.length; i++) {
      const gap = (times[i] ?? 0) - (times[i - 1] ?? 0);
      expect(gap).toBeGreaterThanOrEqual(10 * MIN);
      expect(gap).toBeLessThan(10 * MIN + 190_000);
    }
  });

  it('plays hourly_at in the first slot at or after its minute, or interrupts at it', () => {
    for (const startMode of ['after_track', 'interrupt'] as const) {
      const rule = playlist(9, [100], { kind: 'hourly_at', interval: 0, jingle: true, startMode });
      const history = [
        { trackId: 100, artist: 'Station', playlistId: 9, jingle: true, startedAt: T0 },
      ];
      const { played } = playOut(
        inputs(tracks, { playlists: [rule] }),
        initialState(history, []),
        start(T0 + 50 * MIN),
        45,
      );
      const ids = played.filter((e) => e.jingle);
      expect(ids).toHaveLength(2);
      ids.forEach((e, k) => {
        const mark = T0 + (k + 1) * HOUR;
        expect(e.at >= mark && e.at < mark + 3 * MIN).toBe(true);
      });
      if (startMode === 'interrupt') {
        expect(ids.map((e) => iso(e.at))).toEqual(['09:00:00', '10:00:00']);
        expect(ids.every((e) => e.interrupts)).toBe(true);
        // The interrupted song ends where the jingle starts.
        const index = played.indexOf(ids[0] as (typeof played)[number]);
        const before = plan(
          inputs(tracks, { playlists: [rule] }),
          initialState(history, []),
          start(T0 + 50 * MIN),
          T0 + 2 * HOUR,
        );
        expect(before[index - 1]?.end).toBe(T0 + HOUR);
      }
    }
  });

  it('lets an hourly_at wait for the next hour when its minute is over half an hour ago', () => {
    const rule = playlist(9, [100], { kind: 'hourly_at', interval: 0, jingle: true });
    const { played } = playOut(
      inputs(tracks, { playlists: [rule] }),
      fresh(),
      start(T0 + 45 * MIN),
      10,
    );
    const ids = played.filter((e) => e.jingle);
    // The song before it plays out (joined): 08:57 + 3:05.
    expect(ids.map((e) => iso(e.at))).toEqual(['09:00:05']);
  });

  it('puts an interrupt due in a crossfade in place of the next song, not after a blip of it', () => {
    // Songs hand over every 180 s with a 5 s crossfade: the sixth would start at 18:00, 2 s
    // before the interrupt, and be cut as it faded in.
    const playAt = T0 + 6 * 180_000 + 2000;
    const rule = playlist(9, [100], {
      kind: 'once_at',
      playAt,
      jingle: true,
      startMode: 'interrupt',
    });
    const planned = plan(
      inputs(tracks, { playlists: [rule], config: noSeparation }),
      fresh(),
      start(),
      T0 + HOUR,
    );
    const index = planned.findIndex((e) => e.jingle);
    expect(
      planned.slice(index - 1, index + 1).map((e) => [iso(e.at), iso(e.end), e.interrupts]),
    ).toEqual([
      ['08:15:00', '08:18:02', false],
      ['08:18:02', '08:18:12', true],
    ]);
  });

  it('plays once_at once, at its time when it interrupts', () => {
    const playAt = T0 + 20 * MIN + 30_000;
    const rule = playlist(9, [100], {
      kind: 'once_at',
      playAt,
      jingle: true,
      startMode: 'interrupt',
    });
    const { played } = playOut(inputs(tracks, { playlists: [rule] }), fresh(), start(), 40);
    const once = played.filter((e) => e.jingle);
    expect(once.map((e) => [e.at, e.interrupts])).toEqual([[playAt, true]]);
    const waiting = playlist(9, [100], { kind: 'once_at', playAt, jingle: true });
    const later = playOut(
      inputs(tracks, { playlists: [waiting] }),
      fresh(),
      start(),
      40,
    ).played.filter((e) => e.jingle);
    expect(later).toHaveLength(1);
    expect(later[0]?.at).toBeGreaterThan(playAt);
    expect((later[0]?.at ?? 0) - playAt).toBeLessThan(185_000);
  });

  it('fires a rule only inside its own schedule spans', () => {
    const rule = playlist(9, [100], { kind: 'every_n_songs', interval: 1, jingle: true });
    const span = schedule(1, { playlistId: 9, startTime: '09:00', endTime: '10:00' });
    const { played } = playOut(
      inputs(tracks, { playlists: [rule], schedules: [span] }),
      fresh(),
      start(),
      40,
    );
    const jingleTimes = played.filter((e) => e.jingle).map((e) => e.at);
    expect(jingleTimes.length).toBeGreaterThan(5);
    expect(jingleTimes.every((t) => t >= T0 + HOUR && t < T0 + 2 * HOUR)).toBe(true);
  });
});

describe('queue and requests', () => {
  const tracks = songs(30, 30);

  it('plays hand pushes first, then due requests oldest first once not_before has passed', () => {
    const requests = [
      { id: 8, userName: 'bo', trackId: 5, notBefore: T0 },
      { id: 4, userName: 'ana', trackId: 6, notBefore: T0 + 7 * MIN },
    ];
    const queue = [{ requestId: 'r1', trackId: 9, kind: 'new' as const }];
    const entries = plan(inputs(tracks, { queue, requests }), fresh(), start(), T0 + HOUR);
    expect(
      entries.slice(0, 4).map((e) => [e.source, e.trackId, e.songRequestId ?? e.requestId]),
    ).toEqual([
      ['queue', 9, 'r1'],
      ['request', 5, 8],
      ['rotation', expect.any(Number), null],
      ['request', 6, 4],
    ]);
    expect(entries[1]?.reason).toBe('request by bo');
    expect(entries[0]?.reason).toBe('new in the library');
    expect(entries.filter((e) => e.trackId === 5 || e.trackId === 6)).toHaveLength(2);
  });

  it('puts a request before the items of a playlist put on air, not before hand pushes', () => {
    const queue = [
      { requestId: 'p1', trackId: 1, kind: 'playlist' as const },
      { requestId: 'p2', trackId: 2, kind: 'playlist' as const },
      { requestId: 'h1', trackId: 3, kind: 'request' as const },
    ];
    const requests = [{ id: 1, userName: 'ana', trackId: 20, notBefore: T0 }];
    const entries = plan(inputs(tracks, { queue, requests }), fresh(), start(), T0 + HOUR);
    expect(entries.slice(0, 4).map((e) => e.requestId ?? e.songRequestId)).toEqual([
      'h1',
      1,
      'p1',
      'p2',
    ]);
    expect(entries[2]?.reason).toBe('playlist put on air');
  });

  it('keeps a requested track out of the rotation until its request plays', () => {
    // Four songs, no separation to keep: the rotation would play each every fourth slot.
    const few = songs(4, 4);
    const requests = [{ id: 1, userName: 'ana', trackId: 2, notBefore: T0 + 30 * MIN }];
    const entries = plan(
      inputs(few, { requests, config: noSeparation }),
      fresh(),
      start(),
      T0 + HOUR,
    );
    const plays = entries.filter((e) => e.trackId === 2);
    expect(plays[0]).toMatchObject({ source: 'request', songRequestId: 1 });
    expect(plays[0]?.at).toBeGreaterThanOrEqual(T0 + 30 * MIN);
    expect(entries.filter((e) => e.at < (plays[0]?.at ?? 0)).length).toBeGreaterThan(8);
  });

  it('plays a requested track in the rotation when nothing else is left', () => {
    const requests = [{ id: 1, userName: 'ana', trackId: 1, notBefore: T0 + HOUR }];
    const entries = plan(
      inputs(songs(1, 1), { requests, config: noSeparation }),
      fresh(),
      start(),
      T0 + 30 * MIN,
    );
    expect(entries.length).toBeGreaterThan(5);
    expect(entries.every((e) => e.trackId === 1 && e.source === 'rotation')).toBe(true);
  });

  it('holds a request back while its track or artist separation does not hold', () => {
    const history = [
      {
        trackId: 5,
        artist: 'artist 4',
        playlistId: null,
        jingle: false,
        startedAt: T0 - 170 * MIN,
      },
    ];
    const requests = [{ id: 1, userName: 'ana', trackId: 5, notBefore: T0 }];
    const entries = plan(
      inputs(tracks, { requests }),
      initialState(history, []),
      start(),
      T0 + HOUR,
    );
    const request = entries.find((e) => e.source === 'request');
    expect(request?.at).toBeGreaterThanOrEqual(T0 + 10 * MIN);
    expect(entries.filter((e) => e.trackId === 5)).toHaveLength(1);
  });
});

describe('determinism', () => {
  const tracks = [...songs(80, 20), jingleTrack(100), jingleTrack(101)];
  const input = inputs(tracks, {
    playlists: [
      playlist(
        1,
        tracks.slice(0, 40).map((t) => t.id),
        { weight: 2 },
      ),
      playlist(
        2,
        tracks.slice(40, 70).map((t) => t.id),
        { order: 'sequential' },
      ),
      playlist(
        3,
        tracks.slice(70, 80).map((t) => t.id),
        { order: 'random' },
      ),
      playlist(9, [100, 101], { kind: 'every_n_songs', interval: 4, jingle: true }),
      playlist(10, [100], {
        kind: 'hourly_at',
        interval: 30,
        jingle: true,
        startMode: 'interrupt',
      }),
    ],
    schedules: [schedule(1, { playlistId: 3, startTime: '10:00', endTime: '11:00' })],
    requests: [{ id: 1, userName: 'ana', trackId: 12, notBefore: T0 + 30 * MIN }],
  });

  it('gives the same plan for the same inputs and state', () => {
    expect(plan(input, fresh(), start(), T0 + 6 * HOUR)).toEqual(
      plan(input, fresh(), start(), T0 + 6 * HOUR),
    );
  });

  it('gives, after each planned entry is committed, the rest of the same plan', () => {
    const whole = plan(input, fresh(), start(), T0 + 6 * HOUR);
    let state = fresh();
    for (let i = 0; i < whole.length - 1; i++) {
      const entry = whole[i];
      if (!entry) break;
      state = commit(input, state, entry, entry.at);
      const rest = plan(input, state, after(entry), T0 + 6 * HOUR);
      expect(rest).toEqual(whole.slice(i + 1));
    }
  });

  it('never leaves a slot empty while the library has a track', () => {
    const one = inputs([song(1)]);
    const entries = plan(one, fresh(), start(), T0 + 2 * HOUR);
    expect(entries.length).toBe(40);
    expect(entries.every((e) => e.trackId === 1)).toBe(true);
    expect(plan(inputs([]), fresh(), start(), T0 + HOUR)).toEqual([]);
  });
});
