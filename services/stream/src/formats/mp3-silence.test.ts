import { describe, expect, test } from '@jest/globals';
import { type FrameHeader, parseMp3Header } from '@radio/core';
import { mp3MeanFrameLength, silentMp3Frames } from './mp3-silence.ts';

const header = (b1: number, b2: number, b3: number): Buffer => Buffer.from([0xff, b1, b2, b3]);

describe('silent MP3 frames', () => {
  test('keep the stream parameters and the exact byte rate', () => {
    const frames = silentMp3Frames(header(0xfb, 0x90, 0x64), 128);
    expect(frames).not.toBeNull();
    const plain = parseMp3Header(frames?.plain as Buffer, 0);
    const padded = parseMp3Header(frames?.padded as Buffer, 0);
    expect(plain).toMatchObject({ bitrate: 128, sampleRate: 44100, channels: 2, length: 417 });
    expect(padded?.length).toBe(418);
    expect(frames?.plain.subarray(4).every((byte) => byte === 0)).toBe(true);
    expect(mp3MeanFrameLength(plain as FrameHeader)).toBeCloseTo(417.96, 2);
  });

  test('take the nominal bitrate when the template frame differs (VBR source)', () => {
    const frames = silentMp3Frames(header(0xfb, 0xb0, 0x64), 128);
    expect(parseMp3Header(frames?.plain as Buffer, 0)?.bitrate).toBe(128);
  });

  test('are Layer III only', () => {
    expect(silentMp3Frames(header(0xfd, 0x90, 0x64), 128)).toBeNull();
  });
});
