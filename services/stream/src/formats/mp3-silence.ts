import { type FrameHeader, mp3BitrateIndex, parseMp3Header } from '@radio/core';

/* Silent MPEG Layer III frames, for a mount whose source has gone. */

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
  const wanted = bitrate === undefined ? null : mp3BitrateIndex(bitrate, ((b1 >> 3) & 3) === 3);
  const bitrateIndex = wanted ?? (template[2] as number) >> 4;
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
