import type { FrameHeader } from './frame-header.ts';

/*
 * MPEG audio (MP1/MP2/MP3) frame headers: enough to find frame boundaries (the sync points a
 * new listener starts on), to read the stream's parameters and to build silent frames that a
 * decoder takes as a continuation of the same stream.
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
 * A Layer III frame that decodes to digital silence: a header like the stream's own (same
 * version, sample rate, bitrate and channel mode, no CRC), then side information and main data
 * that are all zero. `main_data_begin = 0` makes it independent of the frames around it, and
 * `part2_3_length = 0` in every granule means no coded values, so any decoder outputs zeros.
 * Returns the unpadded and the padded frame; alternating them keeps the exact byte rate.
 */
export function silentMp3Frames(
  template: Buffer,
  bitrate?: number,
): { plain: Buffer; padded: Buffer } | null {
  const header = parseMp3Header(template, 0);
  if (!header) return null;
  const b1 = template[1] as number;
  if (((b1 >> 1) & 3) !== 1) return null; // Layer III only: the zero-side-info trick is Layer III's.
  // The nominal bitrate of the mount when it is a valid one for this version, so a VBR source's
  // silence is not coded at whatever its last frame happened to use.
  const table = ((b1 >> 3) & 3) === 3 ? BITRATES_V1[3] : BITRATES_V2[3];
  const wanted = bitrate === undefined ? -1 : (table?.indexOf(bitrate) ?? -1);
  const bitrateIndex = wanted > 0 ? wanted : (template[2] as number) >> 4;
  const make = (padding: number): Buffer => {
    const b2 = (bitrateIndex << 4) | ((template[2] as number) & 0x0c) | (padding << 1);
    const probe = Buffer.from([0xff, b1 | 1, b2, (template[3] as number) & 0xcf]);
    const length = parseMp3Header(probe, 0)?.length ?? 0;
    const frame = Buffer.alloc(length);
    probe.copy(frame, 0);
    return frame;
  };
  return { plain: make(0), padded: make(1) };
}

/** The exact average frame length in bytes (for padding alternation), Layer III. */
export function mp3MeanFrameLength(header: FrameHeader): number {
  const perFrame = header.samples === 1152 ? 144 : 72;
  return (perFrame * header.bitrate * 1000) / header.sampleRate;
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
