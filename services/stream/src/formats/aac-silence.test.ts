import { describe, expect, test } from '@jest/globals';
import { parseAdtsHeader } from '@radio/core';
import { adtsHeader as adts } from '@radio/core/testing';
import { silentAdtsFrame } from './aac-silence.ts';

describe('silent ADTS frames', () => {
  test('have the template parameters and the requested length', () => {
    for (const target of [7 + 7, 100, 279, 600]) {
      const frame = silentAdtsFrame(adts(4, 2, 279), target);
      const header = parseAdtsHeader(frame as Buffer, 0);
      expect(header).toMatchObject({ sampleRate: 44100, channels: 2 });
      expect(header?.length).toBe(frame?.length);
      expect(Math.abs((frame?.length ?? 0) - target)).toBeLessThanOrEqual(1);
    }
    expect(parseAdtsHeader(silentAdtsFrame(adts(7, 1, 200), 150) as Buffer, 0)).toMatchObject({
      sampleRate: 22050,
      channels: 1,
    });
  });

  test('are for mono and stereo only', () => {
    expect(silentAdtsFrame(adts(4, 6, 279), 279)).toBeNull();
  });
});
