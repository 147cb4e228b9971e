import { describe, expect, test } from '@jest/globals';
import { adtsHeader } from '@radio/core/testing';
import { HlsVariant } from './variant.ts';

/** ADTS frames (48 kHz: rate index 3) of 100 bytes, each filled with its index. */
function frames(from: number, count: number, rate = 3): Buffer {
  return Buffer.concat(
    Array.from({ length: count }, (_, i) => {
      const frame = Buffer.alloc(100, (from + i) % 256);
      adtsHeader(rate, 2, 100).copy(frame);
      return frame;
    }),
  );
}

/** Frames per second at 48 kHz is 46.875: a 1 s segment is cut after 47 frames. */
describe('HlsVariant', () => {
  test('cuts on frame boundaries past the target, and keeps the frames byte for byte', () => {
    const variant = new HlsVariant('/radio.aac', 'radio', { segmentSeconds: 1, windowSize: 3 });
    for (let i = 0; i < 4; i++) variant.append(frames(i * 25, 25), null, 1000 + i * 533);
    const [first, second] = variant.segments;
    expect(first?.duration).toBeCloseTo((47 * 1024) / 48000, 6);
    expect(first?.data.subarray(first.data.length - 47 * 100)).toEqual(frames(0, 47));
    expect(second?.sequence).toBe(1);
    expect(second?.data.includes(frames(47, 47))).toBe(true);
    for (let i = 4; i < 20; i++) variant.append(frames(i * 25, 25), null, 1000 + i * 533);
    expect(variant.window).toHaveLength(3);
    expect(variant.segments.length).toBeLessThanOrEqual(5);
    expect(variant.segment(0)).toBeUndefined();
  });

  test('a title change is a tag before the first frame it belongs to', () => {
    const variant = new HlsVariant('/radio.aac', 'radio', { segmentSeconds: 1, windowSize: 3 });
    variant.append(frames(0, 10), 'One');
    variant.append(frames(10, 10), 'Two');
    variant.append(frames(20, 40), 'Two');
    const data = variant.segments[0]?.data as Buffer;
    const tag = data.indexOf('ID3', 10);
    expect(data.subarray(0, 3).toString()).toBe('ID3');
    expect(data.indexOf('One')).toBeLessThan(tag);
    expect(data.indexOf('Two')).toBeGreaterThan(tag);
    expect(
      data.subarray(data.indexOf(frames(10, 1)) - 30, data.indexOf(frames(10, 1))).toString(),
    ).toContain('Two');
    expect(data.indexOf('Two', data.indexOf('Two') + 4)).toBeGreaterThan(tag);
  });

  test('a change of sample rate cuts the segment and marks a discontinuity', () => {
    const variant = new HlsVariant('/radio.aac', 'radio', { segmentSeconds: 1, windowSize: 3 });
    variant.append(frames(0, 10), null);
    variant.append(frames(10, 10, 4), null);
    variant.append(frames(20, 50, 4), null);
    expect(variant.segments.map((s) => s.discontinuity)).toEqual([false, true]);
    expect(variant.segments[0]?.duration).toBeCloseTo((10 * 1024) / 48000, 6);
    expect(variant.format?.sampleRate).toBe(44100);
  });
});
