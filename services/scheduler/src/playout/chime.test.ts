import { describe, expect, it } from '@jest/globals';
import { CHANNELS, SAMPLE_RATE } from '../pcm.ts';
import { CHIME_PERIOD_SECONDS, stationIdChime } from './chime.ts';

describe('stationIdChime', () => {
  it('is a pattern of notes at -20 dBFS peak, not a continuous tone', () => {
    const chime = stationIdChime();
    expect(chime.length).toBe(CHIME_PERIOD_SECONDS * SAMPLE_RATE * CHANNELS);
    let peak = 0;
    for (const value of chime) peak = Math.max(peak, Math.abs(value));
    expect(20 * Math.log10(peak)).toBeCloseTo(-20, 1);
    // The level of each 100 ms: loud at the notes, and the ring dies down before the next round.
    const window = SAMPLE_RATE / 10;
    const levels: number[] = [];
    for (let start = 0; start + window <= chime.length / CHANNELS; start += window) {
      let sum = 0;
      for (let i = start * CHANNELS; i < (start + window) * CHANNELS; i++) {
        sum += (chime[i] as number) ** 2;
      }
      levels.push(10 * Math.log10(sum / (window * CHANNELS)));
    }
    expect(Math.max(...levels)).toBeGreaterThan(-30);
    expect(levels.at(-1) as number).toBeLessThan(-45);
  });
});
