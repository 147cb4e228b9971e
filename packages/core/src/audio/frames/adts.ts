import type { FrameHeader } from './frame-header.ts';

/*
 * AAC in ADTS framing (what Icecast sources send as audio/aac and the scheduler's AAC encoder
 * writes): frame boundaries and stream parameters.
 */

const SAMPLE_RATES = [
  96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350,
];

export const ADTS_HEADER_SIZE = 7;

/** Reads the header at `offset`, or null when there is no valid ADTS header there. */
export function parseAdtsHeader(buf: Buffer, offset: number): FrameHeader | null {
  if (offset + 7 > buf.length) return null;
  const b1 = buf[offset + 1] as number;
  if (buf[offset] !== 0xff || (b1 & 0xf6) !== 0xf0) return null; // sync, layer 00
  const b2 = buf[offset + 2] as number;
  const b3 = buf[offset + 3] as number;
  const rateIndex = (b2 >> 2) & 0x0f;
  const sampleRate = SAMPLE_RATES[rateIndex];
  if (sampleRate === undefined) return null;
  const channelConfig = ((b2 & 1) << 2) | (b3 >> 6);
  const length =
    ((b3 & 3) << 11) | ((buf[offset + 4] as number) << 3) | ((buf[offset + 5] as number) >> 5);
  const headerSize = b1 & 1 ? 7 : 9;
  if (length <= headerSize) return null;
  const blocks = ((buf[offset + 6] as number) & 3) + 1;
  return {
    codec: 'aac',
    length,
    samples: 1024 * blocks,
    sampleRate,
    channels: channelConfig === 7 ? 8 : channelConfig,
    bitrate: 0,
    // MPEG version, profile, sample rate and channel configuration.
    signature: ((b1 & 0x08) << 16) | ((b2 & 0xfc) << 8) | channelConfig,
  };
}
