import type { FrameHeader } from './frame-header.ts';
import type { AudioFormat } from './index.ts';
import { id3v2Size } from './mp3.ts';

/** A stream holds no frame bigger than this (ADTS max 8191, MP3 max 2881); more is junk. */
const MAX_LEFTOVER = 64 * 1024;

/**
 * Cuts a source's byte stream into whole frames. Bytes that are not frames (an ID3 tag at the
 * start of ffmpeg's MP3 output, junk after a glitch) are dropped, so every piece it hands on
 * starts and ends on a frame boundary. A candidate frame is believed when it continues the
 * stream (same version, sample rate and channels as the last frame) or when the frame after it
 * confirms it; otherwise the splitter looks for the next sync.
 */
export class FrameSplitter {
  readonly #format: AudioFormat;
  #leftover: Buffer | null = null;
  #skip = 0;
  #last: FrameHeader | null = null;
  #template: Buffer | null = null;
  /** Bytes dropped as not being frames. */
  junkBytes = 0;

  constructor(format: AudioFormat) {
    this.#format = format;
  }

  /** The latest frame's header. */
  get header(): FrameHeader | null {
    return this.#last;
  }

  /** A copy of the latest frame's header bytes (what silence is built from). */
  get template(): Buffer | null {
    return this.#template;
  }

  /** Feeds source bytes; `onFrames` receives each run of whole frames and their sample count. */
  push(data: Buffer, onFrames: (frames: Buffer, samples: number) => void): void {
    const size = this.#format.headerSize;
    if (size === 0) {
      if (data.length > 0) onFrames(data, 0);
      return;
    }
    let buf = this.#leftover ? Buffer.concat([this.#leftover, data]) : data;
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
      const header = this.#format.parseHeader(buf, pos);
      if (header) {
        const continues = this.#last !== null && header.signature === this.#last.signature;
        if (!continues) {
          const next = pos + header.length;
          if (next + size > buf.length) break; // wait for the frame that confirms it
          const confirm = this.#format.parseHeader(buf, next);
          if (confirm?.signature !== header.signature) {
            endRun();
            pos = this.#resync(buf, pos + 1);
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
      if (this.#format.kind === 'mp3' && buf[pos] === 0x49) {
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
      pos = this.#resync(buf, pos + 1);
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
    buf = Buffer.alloc(0);
  }

  /** The next offset at or after `from` where a frame header may start; counts the junk. */
  #resync(buf: Buffer, from: number): number {
    let i = from;
    for (;;) {
      i = buf.indexOf(0xff, i);
      if (i < 0) {
        // Keep a possible header start that is cut off at the end of the buffer.
        const keep = Math.max(from, buf.length - this.#format.headerSize + 1);
        this.junkBytes += keep - (from - 1);
        return keep;
      }
      if (i + this.#format.headerSize > buf.length || this.#format.parseHeader(buf, i)) {
        this.junkBytes += i - (from - 1);
        return i;
      }
      i += 1;
    }
  }
}

/**
 * Gathers whole frames into chunks of about `chunkMs` of audio. Fewer, larger chunks mean
 * fewer writes per listener (the fan-out's cost is per write, not per byte); a quarter second
 * costs a quarter second of latency, which a radio stream does not notice.
 */
export class ChunkAssembler {
  readonly #chunkMs: number;
  readonly #passThroughBytes: number;
  #pending: Buffer[] = [];
  #bytes = 0;
  #samples = 0;

  constructor(chunkMs: number, passThroughBytes: number) {
    this.#chunkMs = chunkMs;
    this.#passThroughBytes = passThroughBytes;
  }

  /** Adds frames; returns a chunk when enough audio is gathered. */
  add(frames: Buffer, samples: number, sampleRate: number): Buffer | null {
    this.#pending.push(frames);
    this.#bytes += frames.length;
    this.#samples += samples;
    const full =
      sampleRate > 0 && samples > 0
        ? this.#samples * 1000 >= this.#chunkMs * sampleRate
        : this.#bytes >= this.#passThroughBytes;
    return full ? this.flush() : null;
  }

  /** Whatever is gathered, as one chunk (a copy: source read buffers are not kept). */
  flush(): Buffer | null {
    if (this.#bytes === 0) return null;
    const chunk = Buffer.concat(this.#pending, this.#bytes);
    this.#pending = [];
    this.#bytes = 0;
    this.#samples = 0;
    return chunk;
  }
}
