import { type FrameHeader, parseAdtsHeader } from '@radio/core';
import { segmentTag, titleTag } from './id3.ts';

/** One finished segment: immutable once made, so caches may keep it for good. */
export interface Segment {
  readonly sequence: number;
  /** Seconds of audio (its frames' samples over the sample rate). */
  readonly duration: number;
  /** Wall-clock time of its first sample (epoch ms): EXT-X-PROGRAM-DATE-TIME. */
  readonly startedAt: number;
  /** Follows a change of sample rate or channels (EXT-X-DISCONTINUITY). */
  readonly discontinuity: boolean;
  /** The ID3 tags and the mount's own ADTS frames, byte for byte. */
  readonly data: Buffer;
}

export interface VariantOptions {
  /** Target seconds per segment; a segment is cut at the first frame boundary past it. */
  segmentSeconds: number;
  /** Finished segments listed in the playlist (the sliding window). */
  windowSize: number;
}

/** Segments that have left the window stay fetchable this much longer (players that lag). */
const KEEP_AFTER_WINDOW = 2;

/**
 * The HLS rendition of one AAC mount: the mount's chunks (whole ADTS frames) are cut at frame
 * boundaries into segments of about `segmentSeconds`, with no second encode. The title the
 * mount had when a chunk was appended is the chunk's title, as for ICY listeners.
 */
export class HlsVariant {
  readonly mountPath: string;
  readonly name: string;
  /** Distinguishes this stream's segment names from those of an earlier stream on the mount. */
  readonly streamId: string;
  readonly #options: VariantOptions;
  readonly #segments: Segment[] = [];
  #nextSequence = 0;
  #parts: Buffer[] = [];
  #partSamples = 0;
  /** The open segment's sample rate (a format change cuts it before the new rate applies). */
  #partRate = 44100;
  #partStartedAt = 0;
  #partDiscontinuity = false;
  /** The 90 kHz time of the open segment's first sample. */
  #pts90k = 0;
  #nextDiscontinuity = false;
  #format: { sampleRate: number; channels: number; signature: number } | null = null;
  #title: string | null = null;
  #bytes = 0;
  #seconds = 0;

  constructor(mountPath: string, name: string, options: VariantOptions, now = Date.now()) {
    this.mountPath = mountPath;
    this.name = name;
    this.streamId = now.toString(36);
    this.#options = options;
  }

  get segments(): readonly Segment[] {
    return this.#segments;
  }

  /** Finished segments inside the window (the playlist's). */
  get window(): readonly Segment[] {
    return this.#segments.slice(-this.#options.windowSize);
  }

  get segmentSeconds(): number {
    return this.#options.segmentSeconds;
  }

  /** The average bit rate of what was cut so far (bits/s), for BANDWIDTH; 0 before. */
  get bitsPerSecond(): number {
    return this.#seconds > 0 ? Math.round((this.#bytes * 8) / this.#seconds) : 0;
  }

  get format(): { sampleRate: number; channels: number } | null {
    return this.#format;
  }

  segment(sequence: number): Segment | undefined {
    const first = this.#segments[0];
    if (first === undefined) return undefined;
    return this.#segments[sequence - first.sequence];
  }

  /**
   * Appends a chunk of whole ADTS frames; `title` is the mount's title for it. The chunk is
   * taken to end now (sources send in real time), which dates its frames.
   */
  append(chunk: Buffer, title: string | null, now = Date.now()): void {
    let chunkMs = 0;
    for (let at = 0, h = parseAdtsHeader(chunk, 0); h !== null; h = parseAdtsHeader(chunk, at)) {
      chunkMs += (h.samples * 1000) / h.sampleRate;
      at += h.length;
    }
    let frameAt = now - chunkMs;
    let offset = 0;
    let runStart = 0;
    while (offset < chunk.length) {
      const header = parseAdtsHeader(chunk, offset);
      if (header === null || offset + header.length > chunk.length) break;
      if (this.#formatChanged(header) || this.#full()) {
        this.#addRun(chunk, runStart, offset);
        runStart = offset;
        this.#cut();
      }
      if (this.#parts.length === 0) {
        this.#open(frameAt, title);
      } else if (title !== this.#title && title !== null) {
        this.#addRun(chunk, runStart, offset);
        runStart = offset;
        this.#parts.push(titleTag(title));
      }
      this.#title = title;
      this.#partSamples += header.samples;
      frameAt += (header.samples * 1000) / header.sampleRate;
      offset += header.length;
    }
    this.#addRun(chunk, runStart, offset);
    // A segment filled by this chunk goes out now, not when the next chunk arrives.
    if (this.#full()) this.#cut();
  }

  /** Notes the frame's format; true when it differs from the open segment's (cut there). */
  #formatChanged(header: FrameHeader): boolean {
    const format = this.#format;
    if (format !== null && format.signature === header.signature) return false;
    this.#format = {
      sampleRate: header.sampleRate,
      channels: header.channels,
      signature: header.signature,
    };
    if (format === null) return false;
    this.#nextDiscontinuity = true;
    return this.#parts.length > 0;
  }

  #full(): boolean {
    const rate = this.#format?.sampleRate ?? 0;
    return rate > 0 && this.#partSamples >= this.#options.segmentSeconds * rate;
  }

  #open(startedAt: number, title: string | null): void {
    this.#partStartedAt = startedAt;
    this.#partRate = this.#format?.sampleRate ?? 44100;
    this.#partDiscontinuity = this.#nextDiscontinuity;
    this.#nextDiscontinuity = false;
    this.#parts.push(segmentTag(this.#pts90k, title));
  }

  #addRun(chunk: Buffer, from: number, to: number): void {
    if (to > from) this.#parts.push(chunk.subarray(from, to));
  }

  #cut(): void {
    const data = Buffer.concat(this.#parts);
    const duration = this.#partSamples / this.#partRate;
    this.#segments.push({
      sequence: this.#nextSequence++,
      duration,
      startedAt: this.#partStartedAt,
      discontinuity: this.#partDiscontinuity,
      data,
    });
    this.#bytes += data.length;
    this.#seconds += duration;
    this.#pts90k += duration * 90000;
    this.#parts = [];
    this.#partSamples = 0;
    this.#partDiscontinuity = false;
    const keep = this.#options.windowSize + KEEP_AFTER_WINDOW;
    if (this.#segments.length > keep) this.#segments.splice(0, this.#segments.length - keep);
  }
}
