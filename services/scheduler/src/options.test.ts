import { describe, expect, it } from '@jest/globals';
import { resolveOptions } from './options.ts';

const base = { musicDir: '/music', streamUrl: 'http://127.0.0.1:8000', sourcePassword: 'pw' };

describe('resolveOptions: loudnessTarget', () => {
  it('levels to -16 LUFS unless told otherwise, and null turns levelling off', () => {
    expect(resolveOptions(base).loudnessTarget).toBe(-16);
    expect(resolveOptions({ ...base, loudnessTarget: -23 }).loudnessTarget).toBe(-23);
    expect(resolveOptions({ ...base, loudnessTarget: null }).loudnessTarget).toBeNull();
  });

  it('refuses a target outside -30 to -10 LUFS', () => {
    for (const loudnessTarget of [-31, -9, Number.NaN]) {
      expect(() => resolveOptions({ ...base, loudnessTarget })).toThrow(/loudnessTarget/);
    }
  });
});

describe('resolveOptions: programming', () => {
  it('plans in UTC with 30 and 180 minutes of separation unless told otherwise', () => {
    expect(resolveOptions(base).programming).toEqual({
      timeZone: 'UTC',
      artistSeparationMinutes: 30,
      trackSeparationMinutes: 180,
    });
    const told = resolveOptions({
      ...base,
      timeZone: 'Europe/Berlin',
      artistSeparationMinutes: 0,
      trackSeparationMinutes: 10_080,
    });
    expect(told.programming).toEqual({
      timeZone: 'Europe/Berlin',
      artistSeparationMinutes: 0,
      trackSeparationMinutes: 10_080,
    });
  });

  it('refuses an unknown zone and separations out of range', () => {
    expect(() => resolveOptions({ ...base, timeZone: 'Mars/Olympus' })).toThrow(/timeZone/);
    expect(() => resolveOptions({ ...base, artistSeparationMinutes: 1441 })).toThrow(/artist/);
    expect(() => resolveOptions({ ...base, trackSeparationMinutes: -1 })).toThrow(/track/);
  });
});
