import { describe, expect, test } from '@jest/globals';
import { id3v2Size, parseMp3Header } from './mp3.ts';

const header = (b1: number, b2: number, b3: number): Buffer => Buffer.from([0xff, b1, b2, b3]);

describe('MP3 frame headers', () => {
  test('MPEG-1 Layer III 128 kbit/s 44.1 kHz joint stereo', () => {
    const h = parseMp3Header(header(0xfb, 0x90, 0x64), 0);
    expect(h).toMatchObject({
      codec: 'mp3',
      bitrate: 128,
      sampleRate: 44100,
      channels: 2,
      samples: 1152,
      length: 417,
    });
    expect(parseMp3Header(header(0xfb, 0x92, 0x64), 0)?.length).toBe(418); // padding
  });

  test('MPEG-2 Layer III 64 kbit/s 22.05 kHz mono, and MPEG-1 48 kHz', () => {
    expect(parseMp3Header(header(0xf3, 0x80, 0xc4), 0)).toMatchObject({
      bitrate: 64,
      sampleRate: 22050,
      channels: 1,
      samples: 576,
      length: 208,
    });
    expect(parseMp3Header(header(0xfb, 0x94, 0x44), 0)).toMatchObject({
      bitrate: 128,
      sampleRate: 48000,
      length: 384,
    });
  });

  test('invalid headers are refused', () => {
    expect(parseMp3Header(header(0xfb, 0x00, 0x44), 0)).toBeNull(); // free format
    expect(parseMp3Header(header(0xfb, 0xf0, 0x44), 0)).toBeNull(); // bad bitrate
    expect(parseMp3Header(header(0xfb, 0x9c, 0x44), 0)).toBeNull(); // reserved sample rate
    expect(parseMp3Header(header(0xeb, 0x90, 0x44), 0)).toBeNull(); // reserved version
    expect(parseMp3Header(header(0xf9, 0x90, 0x44), 0)).toBeNull(); // reserved layer
    expect(parseMp3Header(Buffer.from([0xff, 0xfb, 0x90]), 0)).toBeNull(); // cut off
  });

  test('the signature ignores bitrate and padding (VBR), not the sample rate', () => {
    const a = parseMp3Header(header(0xfb, 0x90, 0x64), 0);
    const b = parseMp3Header(header(0xfb, 0xa2, 0x64), 0);
    const c = parseMp3Header(header(0xfb, 0x94, 0x64), 0);
    expect(a?.signature).toBe(b?.signature);
    expect(a?.signature).not.toBe(c?.signature);
  });

  test('ID3v2 tag size (syncsafe, with footer)', () => {
    const tag = Buffer.from([0x49, 0x44, 0x33, 4, 0, 0, 0, 0, 1, 0x7f]);
    expect(id3v2Size(tag, 0)).toBe(10 + 255);
    expect(id3v2Size(Buffer.from([0x49, 0x44, 0x33, 4, 0, 0x10, 0, 0, 0, 5]), 0)).toBe(25);
    expect(id3v2Size(Buffer.from([0x49, 0x44, 0x33, 4, 0, 0, 0x80, 0, 0, 0]), 0)).toBe(0);
    expect(id3v2Size(Buffer.from('TAG.......'), 0)).toBe(0);
  });
});
