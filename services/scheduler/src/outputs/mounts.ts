import type { FrameFormat } from './frame-parser.ts';

export type MountCodec = 'mp3' | 'aac';

/** One output of the station: a mount on the stream server and the encoding it carries. */
export interface MountSpec {
  /** `/radio.mp3` … */
  readonly mount: string;
  readonly codec: MountCodec;
  /** kbit/s. */
  readonly bitrate: number;
  /** Added to the station name in `ice-name` ("Radio (AAC)"). */
  readonly label?: string;
  /**
   * Encoder speed against quality: `balanced` (the default) uses LAME's -q 5 and ffmpeg's
   * fast AAC coder, which halve the CPU of the defaults for a difference few can hear at
   * these bitrates; `best` uses the encoders' defaults.
   */
  readonly quality?: 'balanced' | 'best';
}

/** The three outputs DESIGN.md fixes. */
export const DEFAULT_MOUNTS: readonly MountSpec[] = [
  { mount: '/radio.mp3', codec: 'mp3', bitrate: 128 },
  { mount: '/radio.aac', codec: 'aac', bitrate: 96, label: 'AAC' },
  { mount: '/radio-low.mp3', codec: 'mp3', bitrate: 64, label: 'low' },
];

export function contentType(codec: MountCodec): string {
  return codec === 'mp3' ? 'audio/mpeg' : 'audio/aac';
}

export function frameFormat(codec: MountCodec): FrameFormat {
  return codec === 'mp3' ? 'mp3' : 'adts';
}

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

/** ffmpeg output options for a mount: CBR MP3 without tags, or AAC-LC in ADTS. */
export function encoderArgs(spec: MountSpec): string[] {
  const bitrate = `${spec.bitrate}k`;
  const best = spec.quality === 'best';
  if (spec.codec === 'mp3') {
    // No ID3 tag and no Xing header: a stream is joined in the middle, they would be noise.
    return [
      '-c:a',
      'libmp3lame',
      '-b:a',
      bitrate,
      ...(best ? [] : ['-compression_level', '5']),
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
    String(aacEncoderBitrate(spec.bitrate)),
    ...(best ? [] : ['-aac_coder', 'fast']),
    '-f',
    'adts',
  ];
}
