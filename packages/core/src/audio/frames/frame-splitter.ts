import type { FrameFormat } from '../../station/mounts.ts';
import { ADTS_HEADER_SIZE, parseAdtsHeader } from './adts.ts';
import type { FrameHeader } from './frame-header.ts';
import { id3v2Size, MP3_HEADER_SIZE, parseMp3Header } from './mp3.ts';

interface HeaderReader {
  /** Bytes needed to read a frame header. */
  readonly size: number;
  read(buf: Buffer, offset: number): FrameHeader | null;
}

const READERS: Record<FrameFormat, HeaderReader> = {
  mp3: { size: MP3_HEADER_SIZE, read: parseMp3Header },
  adts: { size: ADTS_HEADER_SIZE, read: parseAdtsHeader },
};

/** A stream holds no frame bigger than this (ADTS max 8191, MP3 max 2881); more is junk. */
const MAX_LEFTOVER = 64 * 1024;

/**
 * Cuts a byte stream (a source's on the stream server, an encoder's in the scheduler) into whole
 * frames. Bytes that are not frames (an ID3 tag at the start of ffmpeg's MP3 output, junk after
 * a glitch) are dropped, so every piece it hands on starts and ends on a frame boundary. A
 * candidate frame is believed when it continues the stream (same version, sample rate and
 * channels as the last frame) or when the frame after it confirms it; otherwise the splitter
 * looks for the next sync.
 */
export class FrameSplitter {
  readonly #format: FrameFormat | null;
  readonly #reader: HeaderReader | null;
  #leftover: Buffer | null = null;
  #skip = 0;
  #last: FrameHeader | null = null;
  #template: Buffer | null = null;
  /** Bytes dropped as not being frames. */
  junkBytes = 0;

  /** `format` null: the bytes are not framed (Ogg, unknown types) and pass through as they come. */
  constructor(format: FrameFormat | null) {
    this.#format = format;
    this.#reader = format === null ? null : READERS[format];
  }

  /** The latest frame's header. */
  get header(): FrameHeader | null {
    return this.#last;
  }

  /** A copy of the latest frame's header bytes (what the stream server builds silence from). */
  get template(): Buffer | null {
    return this.#template;
  }

  /** Feeds bytes; `onFrames` receives each run of whole frames and their sample count. */
  push(data: Buffer, onFrames: (frames: Buffer, samples: number) => void): void {
    const reader = this.#reader;
    if (!reader) {
      if (data.length > 0) onFrames(data, 0);
      return;
    }
    const size = reader.size;
    const buf = this.#leftover ? Buffer.concat([this.#leftover, data]) : data;
    this.#leftover = null;
    let pos = 0;
    if (this.#skip > 0) {
      const n = Math.min(this.#skip, buf.length);
      this.#skip -= n;
      this.junkBytes += n;
      pos = n;
    }
    let runStart = pos;
    let runSamples = 0;
    const endRun = (): void => {
      if (pos > runStart) onFrames(buf.subarray(runStart, pos), runSamples);
      runSamples = 0;
    };

    while (pos + size <= buf.length) {
      const header = reader.read(buf, pos);
      if (header) {
        const continues = this.#last !== null && header.signature === this.#last.signature;
        if (!continues) {
          const next = pos + header.length;
          if (next + size > buf.length) break; // wait for the frame that confirms it
          const confirm = reader.read(buf, next);
          if (confirm?.signature !== header.signature) {
            endRun();
            pos = this.#resync(reader, buf, pos + 1);
            runStart = pos;
            continue;
          }
          this.#template = Buffer.from(buf.subarray(pos, pos + size));
        }
        if (pos + header.length > buf.length) break;
        this.#last = header;
        pos += header.length;
        runSamples += header.samples;
        continue;
      }
      endRun();
      if (this.#format === 'mp3' && buf[pos] === 0x49) {
        if (buf.length - pos < 10) break;
        const tag = id3v2Size(buf, pos);
        if (tag > 0) {
          const n = Math.min(tag, buf.length - pos);
          this.junkBytes += n;
          this.#skip = tag - n;
          pos += n;
          runStart = pos;
          continue;
        }
      }
      pos = this.#resync(reader, buf, pos + 1);
      runStart = pos;
    }
    endRun();
    if (pos < buf.length) {
      const rest = buf.length - pos;
      if (rest > MAX_LEFTOVER) {
        this.junkBytes += rest;
      } else {
        this.#leftover = Buffer.from(buf.subarray(pos));
      }
    }
  }

  /** The next offset at or after `from` where a frame header may start; counts the junk. */
  #resync(reader: HeaderReader, buf: Buffer, from: number): number {
    let i = from;
    for (;;) {
      i = buf.indexOf(0xff, i);
      if (i < 0) {
        // Keep a possible header start that is cut off at the end of the buffer.
        const keep = Math.max(from, buf.length - reader.size + 1);
        this.junkBytes += keep - (from - 1);
        return keep;
      }
      if (i + reader.size > buf.length || reader.read(buf, i)) {
        this.junkBytes += i - (from - 1);
        return i;
      }
      i += 1;
    }
  }
}
