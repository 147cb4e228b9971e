import { describe, expect, it } from '@jest/globals';
import type { LiveEvent } from './events.ts';
import {
  initialLiveState,
  type LiveState,
  LiveStore,
  MAX_SERIES,
  positionNow,
  reduceLive,
} from './live-store.ts';
import type { NowPlaying } from './types.ts';

function track(title: string, startedAt: number, duration = 200): NowPlaying {
  return {
    trackId: 1,
    requestId: null,
    path: `${title}.mp3`,
    title,
    artist: 'Artist',
    album: null,
    duration,
    startedAt,
    source: 'rotation',
  };
}

function apply(state: LiveState, events: LiveEvent[], now: number): LiveState {
  return events.reduce((s, event) => reduceLive(s, event, now), state);
}

describe('reduceLive', () => {
  it('keeps the tracks that went off air, newest first', () => {
    const state = apply(
      initialLiveState(),
      [
        { type: 'player.now-playing', payload: track('One', 1000) },
        { type: 'player.now-playing', payload: track('Two', 2000) },
        { type: 'player.now-playing', payload: track('Two', 2000) },
        { type: 'player.now-playing', payload: track('Three', 3000) },
      ],
      5000,
    );
    expect(state.nowPlaying?.title).toBe('Three');
    expect(state.recent.map((t) => t.title)).toEqual(['Two', 'One']);
  });

  it('records listener counts as a series for the chart, bounded', () => {
    let state = initialLiveState();
    for (let i = 0; i < MAX_SERIES + 5; i += 1) {
      state = reduceLive(
        state,
        {
          type: 'stream.listeners',
          payload: { total: i, mounts: [{ mount: '/radio.mp3', listeners: i, peak: i }] },
        },
        i * 1000,
      );
    }
    expect(state.listenerSeries).toHaveLength(MAX_SERIES);
    expect(state.listenerSeries.at(-1)).toEqual({
      t: (MAX_SERIES + 4) * 1000,
      total: MAX_SERIES + 4,
      mounts: { '/radio.mp3': MAX_SERIES + 4 },
    });
    expect(state.listeners?.total).toBe(MAX_SERIES + 4);
  });

  it('counts library changes and keeps scans and sources', () => {
    const scan = {
      scanId: 's1',
      state: 'running' as const,
      done: 1,
      total: 4,
      indexed: 1,
      invalid: 0,
      missing: 0,
      startedAt: 1,
      finishedAt: null,
      error: null,
    };
    const state = apply(
      initialLiveState(),
      [
        { type: 'library.changed', payload: { added: 1, updated: 0, removed: 0, invalid: 0 } },
        { type: 'library.scan', payload: scan },
        { type: 'stream.source', payload: { mount: '/radio.mp3', connected: true } },
      ],
      0,
    );
    expect(state.libraryVersion).toBe(1);
    expect(state.scan).toEqual(scan);
    expect(state.sources).toEqual({ '/radio.mp3': true });
  });
});

describe('reduceLive, playout', () => {
  const fallback = {
    reason: 'empty-library' as const,
    message: 'the music folder is empty: add files to MUSIC_DIR',
  };

  it('follows the fallback in the player state, and clears it when music plays', () => {
    let state = reduceLive(
      initialLiveState(),
      { type: 'player.state', payload: { state: 'playing', position: 0, amplify: 1, fallback } },
      0,
    );
    expect(state.fallback).toEqual(fallback);
    state = reduceLive(
      state,
      { type: 'player.state', payload: { state: 'playing', position: 0, amplify: 1 } },
      1,
    );
    expect(state.fallback).toBeNull();
  });

  it('keeps the analysis progress and the dead-air skips, newest first and bounded', () => {
    const analysis = {
      state: 'running' as const,
      pending: 3,
      analysed: 7,
      failed: 1,
      current: ['a.mp3'],
      rate: 30,
    };
    let state = reduceLive(initialLiveState(), { type: 'library.analysis', payload: analysis }, 0);
    expect(state.analysis).toEqual(analysis);
    for (let i = 0; i < 25; i += 1) {
      state = reduceLive(
        state,
        {
          type: 'playout.dead_air',
          payload: { silentSeconds: 10 + i, trackId: i, title: `T${i}`, action: 'skipped' },
        },
        i * 1000,
      );
    }
    expect(state.deadAir).toHaveLength(20);
    expect(state.deadAir[0]).toEqual({
      silentSeconds: 34,
      trackId: 24,
      title: 'T24',
      action: 'skipped',
      at: 24_000,
    });
  });

  it('takes the fallback from a REST answer until the stream has said, and from commands', () => {
    const store = new LiveStore();
    store.seed({ fallback });
    expect(store.getState().fallback).toEqual(fallback);
    store.dispatch({
      type: 'player.state',
      payload: { state: 'playing', position: 0, amplify: 1 },
    });
    store.seed({ fallback });
    expect(store.getState().fallback).toBeNull();
    store.applyPlayer({ state: 'playing', nowPlaying: null, position: 0, amplify: 1, fallback });
    expect(store.getState().fallback).toEqual(fallback);
  });
});

describe('reduceLive, the live input', () => {
  it('follows who is live and who waits, from live.state', () => {
    const ana = { dj: { id: 2, name: 'Ana' }, since: 1, title: null, bytesIn: 10, format: 'mp3' };
    const bo = { ...ana, dj: { id: 3, name: 'Bo' }, format: 'webm' };
    const onAir = apply(
      initialLiveState(),
      [
        {
          type: 'live.state',
          payload: { onAir: ana, waiting: [bo], silent: false, recording: true },
        },
      ],
      5,
    );
    expect(onAir.live?.onAir?.dj.name).toBe('Ana');
    expect(onAir.live?.waiting.map((source) => source.dj.name)).toEqual(['Bo']);
    const handedOver = apply(
      onAir,
      [
        {
          type: 'live.state',
          payload: { onAir: bo, waiting: [], silent: false, recording: false },
        },
      ],
      6,
    );
    expect(handedOver.live).toEqual({ onAir: bo, waiting: [], silent: false, recording: false });
    expect(initialLiveState().live).toBeNull();
  });
});

describe('reduceLive, programming', () => {
  it('keeps the latest timeline and the newest word on each request, batch or single', () => {
    const timeline = { revision: 4, plannedAt: 10, cause: 'skip', entries: [] };
    const pending = {
      id: 7,
      userId: 2,
      trackId: 30,
      status: 'pending' as const,
      plannedAt: 5_000,
      playedAt: null,
      reason: null,
    };
    const state = apply(
      initialLiveState(),
      [
        { type: 'timeline', payload: timeline },
        { type: 'request', payload: { requests: [pending, { ...pending, id: 8 }] } },
        { type: 'request', payload: { ...pending, status: 'played', playedAt: 6_000 } },
      ],
      5,
    );
    expect(state.timeline).toEqual(timeline);
    expect(state.requests[7]).toMatchObject({ status: 'played', playedAt: 6_000 });
    expect(state.requests[8]).toMatchObject({ status: 'pending', plannedAt: 5_000 });
    expect(initialLiveState().requests).toEqual({});
  });
});

describe('positionNow', () => {
  it("counts from the track's start, corrected by the server clock", () => {
    // The server clock is 2 s ahead of ours.
    const state = apply(
      initialLiveState(),
      [
        { type: 'ready', payload: { at: 12_000 } },
        { type: 'player.now-playing', payload: track('One', 5000) },
      ],
      10_000,
    );
    expect(state.clockOffset).toBe(2000);
    expect(positionNow(state, 10_000)).toBe(7);
  });

  it('does not count on from a stored position of unknown age', () => {
    const state = apply(
      initialLiveState(),
      [
        { type: 'player.state', payload: { state: 'playing', position: 1, amplify: 1 } },
        { type: 'player.now-playing', payload: track('One', 0) },
        { type: 'ready', payload: { at: 30_000 } },
      ],
      30_000,
    );
    expect(positionNow(state, 40_000)).toBe(40);
  });

  it('counts on from a live position and holds it while paused', () => {
    let state = apply(
      initialLiveState(),
      [
        { type: 'player.now-playing', payload: track('One', 0) },
        { type: 'ready', payload: { at: 100_000 } },
        { type: 'player.state', payload: { state: 'playing', position: 50, amplify: 1 } },
      ],
      100_000,
    );
    expect(positionNow(state, 104_000)).toBe(54);
    state = reduceLive(
      state,
      { type: 'player.state', payload: { state: 'paused', position: 55, amplify: 1 } },
      105_000,
    );
    expect(positionNow(state, 200_000)).toBe(55);
  });

  it('is null with nothing on air', () => {
    expect(positionNow(initialLiveState(), 0)).toBeNull();
  });
});

describe('LiveStore.applyPlayer', () => {
  it('counts on from a GET /player answer, not from a command answer', () => {
    const store = new LiveStore();
    const nowPlaying = track('One', Date.now() - 100_000);
    store.applyPlayer({ state: 'playing', nowPlaying, position: 40, amplify: 1 }, true);
    expect(Math.round(positionNow(store.getState(), Date.now()) ?? -1)).toBe(40);

    const other = new LiveStore();
    other.applyPlayer({ state: 'playing', nowPlaying, position: 40, amplify: 1 });
    // A command's answer: the track's start time decides.
    expect(Math.round(positionNow(other.getState(), Date.now()) ?? -1)).toBe(100);
  });

  it('keeps a live position when a command answers after the event', () => {
    const store = new LiveStore();
    const nowPlaying = track('One', Date.now() - 100_000);
    store.dispatch({ type: 'player.now-playing', payload: nowPlaying });
    store.dispatch({ type: 'ready', payload: { at: Date.now() } });
    store.dispatch({
      type: 'player.state',
      payload: { state: 'playing', position: 30, amplify: 1 },
    });
    store.applyPlayer({ state: 'playing', nowPlaying, position: 5, amplify: 2 });
    expect(Math.round(positionNow(store.getState(), Date.now()) ?? -1)).toBe(30);
    expect(store.getState().player?.amplify).toBe(2);
  });

  it('holds the position of a pause', () => {
    const store = new LiveStore();
    store.applyPlayer({ state: 'paused', nowPlaying: track('One', 0), position: 12, amplify: 1 });
    expect(positionNow(store.getState(), Date.now())).toBe(12);
  });
});
