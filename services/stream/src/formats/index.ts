import { type FrameFormat, mp3BitrateIndex, parseAdtsHeader, parseMp3Header } from '@radio/core';
import { silentAdtsFrame } from './aac-silence.ts';
import { mp3MeanFrameLength, silentMp3Frames } from './mp3-silence.ts';
import { SilenceFrames } from './silence-frames.ts';

export { SilenceFrames } from './silence-frames.ts';

export type FormatKind = 'mp3' | 'aac' | 'ogg' | 'generic';

/** What the server needs to know about one content type. */
export interface AudioFormat {
  readonly kind: FormatKind;
  /** ICY metadata can be interleaved (not for Ogg/WebM, which carry their own). */
  readonly icy: boolean;
  /** How the frames are packed; null when they are not parsed (passed through as they come). */
  readonly frameFormat: FrameFormat | null;
  /** Silent frames in the stream's own parameters (taken from `template`, one real frame). */
  silence(template: Buffer, bitrate: number): SilenceFrames | null;
  /** A frame header with the configured parameters (44.1 kHz stereo), until a source says. */
  defaultTemplate(bitrate: number): Buffer | null;
}

const mp3: AudioFormat = {
  kind: 'mp3',
  icy: true,
  frameFormat: 'mp3',
  silence(template, bitrate) {
    const frames = silentMp3Frames(template, bitrate);
    const header = frames && parseMp3Header(frames.plain, 0);
    if (!frames || !header) return null;
    return new SilenceFrames(header.sampleRate, header.samples, mp3MeanFrameLength(header), [
      frames.plain,
      frames.padded,
    ]);
  },
  defaultTemplate(bitrate) {
    const index = mp3BitrateIndex(bitrate, true) ?? 9;
    // MPEG-1 Layer III, no CRC, 44.1 kHz, joint stereo.
    return Buffer.from([0xff, 0xfb, (index << 4) | 0x00, 0x44]);
  },
};

const aac: AudioFormat = {
  kind: 'aac',
  icy: true,
  frameFormat: 'adts',
  silence(template, bitrate) {
    const header = parseAdtsHeader(template, 0);
    if (!header) return null;
    const mean = bitrate > 0 ? (bitrate * 1000 * header.samples) / 8 / header.sampleRate : 0;
    const low = silentAdtsFrame(template, Math.floor(mean));
    const high = silentAdtsFrame(template, Math.floor(mean) + 1);
    if (!low || !high) return null;
    return new SilenceFrames(header.sampleRate, header.samples, Math.max(mean, low.length), [
      low,
      high,
    ]);
  },
  defaultTemplate() {
    // MPEG-4 AAC-LC, no CRC, 44.1 kHz, 2 channels, one raw data block.
    return Buffer.from([0xff, 0xf1, 0x50, 0x80, 0x20, 0x1f, 0xfc]); // frame length 256
  },
};

function passThrough(kind: FormatKind, icy: boolean): AudioFormat {
  return {
    kind,
    icy,
    frameFormat: null,
    silence: () => null,
    defaultTemplate: () => null,
  };
}

const ogg = passThrough('ogg', false);
const generic = passThrough('generic', true);

/** The format of a Content-Type, as Icecast classifies them. */
export function formatOf(contentType: string): AudioFormat {
  const type = (contentType.split(';')[0] ?? '').trim().toLowerCase();
  switch (type) {
    case 'audio/mpeg':
    case 'audio/mp3':
    case 'audio/mpeg3':
    case 'audio/x-mpeg':
    case 'audio/x-mp3':
      return mp3;
    case 'audio/aac':
    case 'audio/aacp':
    case 'audio/x-aac':
    case 'audio/x-hx-aac-adts':
      return aac;
    case 'application/ogg':
    case 'audio/ogg':
    case 'video/ogg':
    case 'audio/webm':
    case 'video/webm':
      return ogg;
    default:
      return generic;
  }
}
