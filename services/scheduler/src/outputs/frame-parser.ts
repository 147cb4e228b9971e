/** The compressed formats the encoders produce. */
export type FrameFormat = 'mp3' | 'adts';

export interface FrameInfo {
  /** Frame length in bytes (header included). */
  readonly length: number;
  /** PCM samples per channel the frame decodes to. */
  readonly samples: number;
}

const MP3_BITRATES: Record<string, readonly number[]> = {
  // [version][layer] → kbit/s by index; version 1 = MPEG-1, 2 = MPEG-2/2.5.
  '1-3': [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
  '1-2': [0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384],
  '1-1': [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448],
  '2-3': [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
  '2-2': [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
  '2-1': [0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256],
};
const MP3_RATES: Record<number, readonly number[]> = {
  3: [44_100, 48_000, 32_000], // MPEG-1
  2: [22_050, 24_000, 16_000], // MPEG-2
  0: [11_025, 12_000, 8_000], // MPEG-2.5
};

/** The MPEG audio frame starting at `at`, or null if no valid header is there. */
export function mp3Frame(buf: Buffer, at: number): FrameInfo | null {
  if (at + 4 > buf.length) return null;
  const b1 = buf[at + 1] as number;
  const b2 = buf[at + 2] as number;
  if (buf[at] !== 0xff || (b1 & 0xe0) !== 0xe0) return null;
  const versionBits = (b1 >> 3) & 0x03;
  const layerBits = (b1 >> 1) & 0x03;
  if (versionBits === 1 || layerBits === 0) return null;
  const layer = 4 - layerBits;
  const version = versionBits === 3 ? 1 : 2;
  const bitrate = MP3_BITRATES[`${version}-${layer}`]?.[(b2 >> 4) & 0x0f];
  const rate = MP3_RATES[versionBits]?.[(b2 >> 2) & 0x03];
  if (!bitrate || !rate) return null;
  const padding = (b2 >> 1) & 0x01;
  if (layer === 1) {
    return { length: (Math.floor((12 * bitrate * 1000) / rate) + padding) * 4, samples: 384 };
  }
  const samples = layer === 3 && version === 2 ? 576 : 1152;
  const length = Math.floor(((samples / 8) * bitrate * 1000) / rate) + padding;
  return { length, samples };
}

/** The ADTS (AAC) frame starting at `at`, or null if no valid header is there. */
export function adtsFrame(buf: Buffer, at: number): FrameInfo | null {
  if (at + 7 > buf.length) return null;
  if (buf[at] !== 0xff || ((buf[at + 1] as number) & 0xf6) !== 0xf0) return null;
  const length =
    (((buf[at + 3] as number) & 0x03) << 11) |
    ((buf[at + 4] as number) << 3) |
    ((buf[at + 5] as number) >> 5);
  if (length < 7) return null;
  const blocks = ((buf[at + 6] as number) & 0x03) + 1;
  return { length, samples: blocks * 1024 };
}

/**
 * Cuts an encoder's byte stream into whole frames. The output can then drop or send whole
 * frames only (a listener never gets half a frame after a reconnect) and count the audio
 * that has come out, which is how the title change is timed to what listeners hear.
 */
export class FrameSplitter {
  readonly #parse: (buf: Buffer, at: number) => FrameInfo | null;
  readonly #onFrames: (frames: Buffer, samples: number) => void;
  #rest: Buffer = Buffer.alloc(0);
  #skipped = 0;

  /** `onFrames` gets whole frames only: consecutive frames of one chunk come as one buffer. */
  constructor(format: FrameFormat, onFrames: (frames: Buffer, samples: number) => void) {
    this.#parse = format === 'mp3' ? mp3Frame : adtsFrame;
    this.#onFrames = onFrames;
  }

  /** Bytes thrown away while looking for a frame header (0 for a healthy encoder). */
  get skippedBytes(): number {
    return this.#skipped;
  }

  push(chunk: Buffer): void {
    const buf = this.#rest.length > 0 ? Buffer.concat([this.#rest, chunk]) : chunk;
    let at = 0;
    let runStart = 0;
    let runSamples = 0;
    const flush = (): void => {
      if (at > runStart) this.#onFrames(buf.subarray(runStart, at), runSamples);
      runSamples = 0;
    };
    while (at < buf.length) {
      const info = this.#parse(buf, at);
      if (!info) {
        if (buf.length - at < 7) break; // maybe a header cut in two: wait for more
        flush();
        at += 1; // not a header: resynchronise
        runStart = at;
        this.#skipped += 1;
        continue;
      }
      if (at + info.length > buf.length) break;
      at += info.length;
      runSamples += info.samples;
    }
    flush();
    this.#rest = at < buf.length ? Buffer.from(buf.subarray(at)) : Buffer.alloc(0);
  }

  reset(): void {
    this.#rest = Buffer.alloc(0);
  }
}
