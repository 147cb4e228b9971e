import { describe, expect, test } from '@jest/globals';
import { adtsHeader as adts } from '../../testing/index.ts';
import { parseAdtsHeader } from './adts.ts';

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
