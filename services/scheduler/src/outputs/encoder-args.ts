import type { StationMount } from '@radio/core';

/** Each ADTS frame (1024 samples) carries a 7-byte header: 2412 bit/s at 44.1 kHz. */
const ADTS_HEADER_BPS = Math.round((7 * 8 * 44_100) / 1024);
/** ffmpeg's AAC rate control lands about 0.4 % above its target. */
const AAC_OVERSHOOT = 0.996;

/**
 * The `-b:a` for an AAC mount: the nominal rate is what listeners receive, so the ADTS headers
 * and the encoder's usual overshoot are taken off (96 kbit/s on the wire, not 98.7).
 */
export function aacEncoderBitrate(kbps: number): number {
  return Math.round((kbps * 1000 - ADTS_HEADER_BPS) * AAC_OVERSHOOT);
}

/**
 * ffmpeg output options for a mount: CBR MP3 without tags, or AAC-LC in ADTS. LAME's -q 5 and
 * ffmpeg's fast AAC coder halve the CPU of the encoders' defaults for a difference few can hear
 * at these bitrates.
 */
export function encoderArgs(mount: Pick<StationMount, 'codec' | 'bitrate'>): string[] {
  const bitrate = `${mount.bitrate}k`;
  if (mount.codec === 'mp3') {
    // No ID3 tag and no Xing header: a stream is joined in the middle, they would be noise.
    return [
      '-c:a',
      'libmp3lame',
      '-b:a',
      bitrate,
      '-compression_level',
      '5',
      '-write_xing',
      '0',
      '-id3v2_version',
      '0',
      '-f',
      'mp3',
    ];
  }
  return [
    '-c:a',
    'aac',
    '-profile:a',
    'aac_low',
    '-b:a',
    String(aacEncoderBitrate(mount.bitrate)),
    '-aac_coder',
    'fast',
    '-f',
    'adts',
  ];
}
