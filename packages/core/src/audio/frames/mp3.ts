import type { FrameHeader } from './frame-header.ts';

/*
 * MPEG audio (MP1/MP2/MP3) frame headers: enough to find frame boundaries (where an encoder's
 * output is cut, where a new listener starts), to read a stream's parameters and to write a
 * header like a stream's own.
 */

// Bitrates in kbit/s by [version group][layer][index]; index 0 (free format) and 15 are invalid.
const BITRATES_V1 = [
  [],
  [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448],
  [0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384],
  [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
];
const BITRATES_V2 = [
  [],
  [0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256],
  [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
  [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
];
const SAMPLE_RATES_V1 = [44100, 48000, 32000];

/** MPEG version bits: 0 = 2.5, 2 = 2, 3 = 1 (1 is reserved). Layer bits: 1 = III, 2 = II, 3 = I. */
function versionDivisor(versionBits: number): number {
  return versionBits === 3 ? 1 : versionBits === 2 ? 2 : 4;
}

export const MP3_HEADER_SIZE = 4;

/** Reads the header at `offset`, or null when there is no valid frame header there. */
export function parseMp3Header(buf: Buffer, offset: number): FrameHeader | null {
  if (offset + 4 > buf.length) return null;
  const b0 = buf[offset] as number;
  const b1 = buf[offset + 1] as number;
  const b2 = buf[offset + 2] as number;
  const b3 = buf[offset + 3] as number;
  if (b0 !== 0xff || (b1 & 0xe0) !== 0xe0) return null;
  const versionBits = (b1 >> 3) & 3;
  const layerBits = (b1 >> 1) & 3;
  const bitrateIndex = b2 >> 4;
  const rateIndex = (b2 >> 2) & 3;
  if (versionBits === 1 || layerBits === 0 || bitrateIndex === 0 || bitrateIndex === 15)
    return null;
  if (rateIndex === 3 || (b3 & 3) === 2) return null;
  const layer = 4 - layerBits; // 1, 2 or 3
  const v1 = versionBits === 3;
  const bitrate = (v1 ? BITRATES_V1 : BITRATES_V2)[layer]?.[bitrateIndex] as number;
  const sampleRate = (SAMPLE_RATES_V1[rateIndex] as number) / versionDivisor(versionBits);
  const padding = (b2 >> 1) & 1;
  let length: number;
  let samples: number;
  if (layer === 1) {
    length = (Math.floor((12 * bitrate * 1000) / sampleRate) + padding) * 4;
    samples = 384;
  } else if (layer === 2 || v1) {
    length = Math.floor((144 * bitrate * 1000) / sampleRate) + padding;
    samples = 1152;
  } else {
    length = Math.floor((72 * bitrate * 1000) / sampleRate) + padding;
    samples = 576;
  }
  return {
    codec: 'mp3',
    length,
    samples,
    sampleRate,
    channels: b3 >> 6 === 3 ? 1 : 2,
    bitrate,
    // Version, layer, sample rate and mono-or-not: what stays the same within one stream (the
    // bitrate changes from frame to frame in VBR, the stereo mode may too).
    signature: ((b1 & 0xfe) << 8) | (b2 & 0x0c) | (b3 >> 6 === 3 ? 1 : 0),
  };
}

/**
 * The Layer III bitrate index (1 to 14) of `kbps` in MPEG-1 (`mpeg1`) or MPEG-2/2.5, or null
 * when that version has no such bitrate.
 */
export function mp3BitrateIndex(kbps: number, mpeg1: boolean): number | null {
  const index = (mpeg1 ? BITRATES_V1 : BITRATES_V2)[3]?.indexOf(kbps) ?? -1;
  return index > 0 ? index : null;
}

/** Size of an ID3v2 tag starting at `offset` (header included), or 0 if none starts there. */
export function id3v2Size(buf: Buffer, offset: number): number {
  if (offset + 10 > buf.length) return 0;
  if (buf[offset] !== 0x49 || buf[offset + 1] !== 0x44 || buf[offset + 2] !== 0x33) return 0;
  const flags = buf[offset + 5] as number;
  let size = 0;
  for (let i = 6; i < 10; i++) {
    const byte = buf[offset + i] as number;
    if (byte & 0x80) return 0;
    size = (size << 7) | byte;
  }
  return 10 + size + (flags & 0x10 ? 10 : 0);
}
