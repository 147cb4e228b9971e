import { describe, expect, test } from '@jest/globals';
import { parseAdtsHeader } from './adts.ts';

/** An ADTS header: MPEG-4 AAC-LC, sampling index `rate`, `channels`, frame `length`. */
function adts(rate: number, channels: number, length: number): Buffer {
  return Buffer.from([
    0xff,
    0xf1,
    (1 << 6) | (rate << 2) | (channels >> 2),
    ((channels & 3) << 6) | ((length >> 11) & 3),
    (length >> 3) & 0xff,
    ((length & 7) << 5) | 0x1f,
    0xfc,
  ]);
}

describe('ADTS headers', () => {
  test('44.1 kHz stereo AAC-LC', () => {
    expect(parseAdtsHeader(adts(4, 2, 279), 0)).toMatchObject({
      codec: 'aac',
      sampleRate: 44100,
      channels: 2,
      samples: 1024,
      length: 279,
      bitrate: 0,
    });
  });

  test('invalid headers are refused', () => {
    expect(parseAdtsHeader(adts(13, 2, 279), 0)).toBeNull(); // reserved sample rate
    expect(parseAdtsHeader(adts(4, 2, 5), 0)).toBeNull(); // shorter than its header
    const layer = adts(4, 2, 279);
    layer[1] = 0xf3; // layer must be 00
    expect(parseAdtsHeader(layer, 0)).toBeNull();
  });
});
