import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { silentLogger, type TimelineEntry } from '@radio/core';
import { InterruptTimer } from './programme-interrupt.ts';

const T0 = Date.parse('2026-03-29T06:00:00Z');

function entry(at: number, requestId = 'next'): TimelineEntry {
  return {
    at,
    end: at + 8000,
    source: 'scheduled',
    track: { id: 1, title: 'Morning', artist: 'AM', album: null, duration: 8 },
    playlist: { id: 2, name: 'Morning' },
    dj: null,
    scheduleId: 3,
    songRequestId: null,
    requestId,
    interrupts: true,
    jingle: false,
    reason: 'scheduled: Morning',
  };
}

/** A timer over a station whose latency, entry on air and head the test sets. */
function station() {
  const state = { latencyMs: 300, onAir: 'on-air' as string | null, head: 'next' as string | null };
  const cuts: number[] = [];
  const prepared: number[] = [];
  const timer = new InterruptTimer({
    onAirRequestId: () => state.onAir,
    headRequestId: () => state.head,
    latencyMs: () => state.latencyMs,
    prepareNext: () => prepared.push(Date.now()),
    cut: () => cuts.push(Date.now()),
    logger: silentLogger(),
  });
  return { state, cuts, prepared, timer };
}

describe('InterruptTimer', () => {
  beforeEach(() => {
    jest.useFakeTimers({ now: T0 });
  });
  afterEach(() => {
    jest.useRealTimers();
  });

  it('cuts the latency before the planned time, and prepares the next track 5 s before', () => {
    const { cuts, prepared, timer } = station();
    timer.planned(entry(T0 + 60_000));
    jest.advanceTimersByTime(120_000);
    expect(prepared).toEqual([T0 + 60_000 - 300 - 5000]);
    expect(cuts).toEqual([T0 + 60_000 - 300]);
  });

  it('reads the latency again at the cut: a swell when it was armed does not cut early', () => {
    const { state, cuts, timer } = station();
    state.latencyMs = 5300;
    timer.planned(entry(T0 + 60_000));
    state.latencyMs = 300;
    jest.advanceTimersByTime(120_000);
    expect(cuts).toEqual([T0 + 60_000 - 300]);
  });

  it('cuts at once when the latency grew past the cut', () => {
    const { state, cuts, timer } = station();
    timer.planned(entry(T0 + 60_000));
    jest.advanceTimersByTime(50_000);
    state.latencyMs = 15_000;
    jest.advanceTimersByTime(10_000);
    expect(cuts).toEqual([T0 + 60_000 - 300]);
  });

  it('does not cut another track on air, nor for another head', () => {
    const a = station();
    a.timer.planned(entry(T0 + 60_000));
    a.state.onAir = 'other';
    jest.advanceTimersByTime(120_000);
    expect(a.cuts).toEqual([]);
    const b = station();
    b.timer.planned(entry(T0 + 180_000));
    b.state.head = 'pushed';
    jest.advanceTimersByTime(120_000);
    expect(b.cuts).toEqual([]);
  });

  it('is disarmed by a plan whose first entry does not interrupt', () => {
    const { cuts, timer } = station();
    timer.planned(entry(T0 + 60_000));
    timer.planned({ ...entry(T0 + 60_000), interrupts: false });
    jest.advanceTimersByTime(120_000);
    expect(cuts).toEqual([]);
  });

  it('keeps its timers when the same plan comes again', () => {
    const { state, cuts, timer } = station();
    timer.planned(entry(T0 + 60_000));
    jest.advanceTimersByTime(30_000);
    state.latencyMs = 5300;
    timer.planned(entry(T0 + 60_000));
    state.latencyMs = 300;
    jest.advanceTimersByTime(60_000);
    expect(cuts).toEqual([T0 + 60_000 - 300]);
  });

  it('cuts once for one interrupt, even when a later plan asks again', () => {
    const { state, cuts, timer } = station();
    timer.planned(entry(T0 + 60_000));
    jest.advanceTimersByTime(60_000);
    state.onAir = 'next';
    timer.planned(entry(T0 + 60_000, 'again'));
    state.head = 'again';
    jest.advanceTimersByTime(60_000);
    expect(cuts).toEqual([T0 + 60_000 - 300]);
  });
});
