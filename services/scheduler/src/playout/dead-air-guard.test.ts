import { describe, expect, it } from '@jest/globals';
import { type DeadAir, silentLogger } from '@radio/core';
import { CHANNELS, SAMPLE_RATE } from '../pcm.ts';
import { DeadAirGuard, type GuardedTrack } from './dead-air-guard.ts';

const BLOCK = 2205; // what a 50 ms clock hands out

/** A block of a sine at `db` dBFS RMS (0 dB = a full-scale square wave). */
function block(db: number | null, frames = BLOCK): Float32Array {
  const out = new Float32Array(frames * CHANNELS);
  if (db === null) return out;
  const amplitude = Math.SQRT2 * 10 ** (db / 20);
  for (let i = 0; i < frames; i++) {
    const value = amplitude * Math.sin((2 * Math.PI * 440 * i) / SAMPLE_RATE);
    out[i * CHANNELS] = value;
    out[i * CHANNELS + 1] = value;
  }
  return out;
}

function setup(seconds = 3) {
  const state: { track: GuardedTrack | null; frames: number; skippedAt: number[] } = {
    track: { requestId: '1', trackId: 7, title: 'Artist - Quiet' },
    frames: 0,
    skippedAt: [],
  };
  const events: DeadAir[] = [];
  const guard = new DeadAirGuard({
    seconds,
    logger: silentLogger(),
    onAir: () => state.track,
    skip: () => {
      state.skippedAt.push(state.frames);
      state.track = null;
    },
    onDeadAir: (event) => events.push(event),
  });
  const play = (seconds: number, db: number | null, frames = BLOCK): void => {
    const samples = block(db, frames);
    const end = state.frames + Math.round(seconds * SAMPLE_RATE);
    while (state.frames < end) {
      const take = Math.min(frames, end - state.frames);
      guard.observe(samples, take);
      state.frames += take;
    }
  };
  return { guard, state, events, play };
}

describe('DeadAirGuard', () => {
  it('skips a track silent for longer than DEAD_AIR_SECONDS, within one window', () => {
    const { guard, state, events, play } = setup(3);
    play(10, null);
    expect(state.skippedAt).toHaveLength(1);
    const at = (state.skippedAt[0] as number) / SAMPLE_RATE;
    expect(at).toBeGreaterThan(3);
    expect(at).toBeLessThanOrEqual(3.15);
    expect(guard.skips).toBe(1);
    expect(events).toEqual([
      { silentSeconds: 3.1, trackId: 7, title: 'Artist - Quiet', action: 'skipped' },
    ]);
  });

  it('counts -60 dBFS as silence and -40 dBFS as sound, whatever the block size', () => {
    for (const frames of [64, 1000, 4410, 9000]) {
      const quiet = setup(2);
      quiet.play(5, -60, frames);
      expect(quiet.state.skippedAt).toHaveLength(1);
      const soft = setup(2);
      soft.play(5, -40, frames);
      expect(soft.state.skippedAt).toEqual([]);
    }
  });

  it('starts counting again on sound', () => {
    const { state, play } = setup(3);
    play(2.5, null);
    play(0.2, -20);
    play(2.5, null);
    expect(state.skippedAt).toEqual([]);
    play(1, null);
    expect(state.skippedAt).toHaveLength(1);
  });

  it('starts counting again on a change of track, and not at all without one on air', () => {
    const { state, play } = setup(3);
    play(2.5, null);
    state.track = { requestId: '2', trackId: 8, title: 'Next' };
    play(2.5, null);
    expect(state.skippedAt).toEqual([]);
    state.track = null; // paused, stopped or in fallback
    play(10, null);
    expect(state.skippedAt).toEqual([]);
    state.track = { requestId: '2', trackId: 8, title: 'Next' };
    play(3.2, null);
    expect(state.skippedAt).toHaveLength(1);
  });
});
