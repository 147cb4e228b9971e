import { describe, expect, it } from '@jest/globals';
import { dbToGain, MAX_BOOST_DB, trackGainDb } from './track-gain.ts';

const none = { status: 'pending', loudness: null, truePeak: null, replayGain: null } as const;
const measured = (loudness: number, truePeak: number) =>
  ({ ...none, status: 'done', loudness, truePeak }) as const;

describe('trackGainDb', () => {
  it('brings a measured track to the target', () => {
    expect(trackGainDb(measured(-6, -0.1), -16)).toBeCloseTo(-10);
    expect(trackGainDb(measured(-16, -3), -16)).toBeCloseTo(0);
    expect(trackGainDb(measured(-30, -27), -16)).toBeCloseTo(14);
    expect(trackGainDb(measured(-9, 2.5), -23)).toBeCloseTo(-14);
  });

  it('bounds a boost so the true peak goes at most 6 dB over -1 dBTP into the limiter', () => {
    // -30 LUFS with peaks at -5 dBTP: +14 dB would put them at +9; the bound allows -5 -> +5.
    expect(trackGainDb(measured(-30, -5), -16)).toBeCloseTo(10);
    expect(trackGainDb(measured(-20, 8), -16)).toBe(0);
  });

  it('never raises a track by more than the largest boost', () => {
    expect(trackGainDb(measured(-60, -50), -10)).toBe(MAX_BOOST_DB);
  });

  it('uses the ReplayGain tag (reference -18 LUFS) when not measured, with a small boost', () => {
    expect(trackGainDb({ ...none, replayGain: -7 }, -16)).toBeCloseTo(-5);
    expect(trackGainDb({ ...none, replayGain: -7 }, -23)).toBeCloseTo(-12);
    expect(trackGainDb({ ...none, replayGain: 12 }, -16)).toBe(6);
  });

  it('leaves a track as mastered when nothing is known, or when levelling is off', () => {
    expect(trackGainDb(none, -16)).toBe(0);
    expect(trackGainDb({ ...none, status: 'failed', replayGain: null }, -16)).toBe(0);
    expect(trackGainDb(measured(-6, 0), null)).toBe(0);
    expect(trackGainDb({ ...none, replayGain: -3 }, null)).toBe(0);
  });

  it('converts dB to a linear gain', () => {
    expect(dbToGain(0)).toBe(1);
    expect(dbToGain(-6.0206)).toBeCloseTo(0.5, 4);
  });
});
