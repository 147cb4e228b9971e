import { describe, expect, it } from '@jest/globals';
import { CHANNELS } from '../pcm.ts';
import { AirMixer, type AirSource } from './air-mixer.ts';

/** A source of constant samples. */
function constant(value: number): AirSource & { taken: number } {
  return {
    taken: 0,
    take(out, offset, frames) {
      this.taken += frames;
      out?.fill(value, offset * CHANNELS, (offset + frames) * CHANNELS);
      return frames;
    },
  };
}

describe('AirMixer', () => {
  const frames = 4410;
  const block = new Float32Array(frames * CHANNELS);

  it('fades the AutoDJ out, then holds it (not asked for audio) while live is heard', () => {
    let asked = 0;
    const mixer = new AirMixer((out, n) => {
      asked += 1;
      out.fill(0.5, 0, n * CHANNELS);
    }, 0.05);
    const live = constant(0.25);
    mixer.mix(block, frames, 0, live, true, []);
    expect(block[0]).toBeCloseTo(0.5, 1);
    expect(block[frames * CHANNELS - 1]).toBeCloseTo(0.25, 3);
    expect(mixer.autoDjHeld).toBe(true);
    const before = asked;
    mixer.mix(block, frames, frames, live, true, []);
    expect(asked).toBe(before);
    expect(block[10]).toBeCloseTo(0.25, 5);
  });

  it('brings the AutoDJ back when live is gone, and drains sources not on air', () => {
    const mixer = new AirMixer((out, n) => out.fill(0.5, 0, n * CHANNELS), 0.05);
    const waiting = constant(0.9);
    mixer.mix(block, frames, 0, constant(0.25), true, [waiting]);
    mixer.mix(block, frames, frames, null, false, [waiting]);
    expect(block[frames * CHANNELS - 1]).toBeCloseTo(0.5, 5);
    expect(waiting.taken).toBe(2 * frames);
    expect(mixer.autoDjHeld).toBe(false);
  });
});
