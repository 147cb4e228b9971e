import type { Logger } from '@radio/core';
import { CHANNELS, secondsToFrames } from '../pcm.ts';
import { stationIdChime } from './chime.ts';
import { Decoder } from './decoder.ts';

export interface FallbackSourceOptions {
  ffmpegPath: string;
  /** FALLBACK_FILE (absolute), looped; the station-ID chime when unset or unplayable. */
  file: string | undefined;
  logger: Logger;
  /** A file this short (default 10 s) is kept decoded and looped from memory, not re-decoded. */
  clipMaxSeconds?: number;
}

const DECODER_BUFFER_SECONDS = 4;

/** Copies `frames` frames of `clip`, looped, from frame `position` into `out`; the new position. */
function loopClip(
  clip: Float32Array,
  position: number,
  out: Float32Array,
  offset: number,
  frames: number,
): number {
  const length = clip.length / CHANNELS;
  let pos = position;
  let done = 0;
  while (done < frames) {
    const take = Math.min(frames - done, length - pos);
    out.set(clip.subarray(pos * CHANNELS, (pos + take) * CHANNELS), (offset + done) * CHANNELS);
    done += take;
    pos = (pos + take) % length;
  }
  return pos;
}

/**
 * What the mounts carry when the player has nothing to play: FALLBACK_FILE decoded and looped
 * (the next pass decoded ahead, so the loop has no gap), or the generated station-ID chime when
 * no file is set or it does not play. It decodes only between `start` and `rest`: no ffmpeg
 * process waits idle while music is on air.
 */
export class FallbackSource {
  readonly #options: FallbackSourceOptions;
  readonly #log: Logger;
  readonly #clipMaxFrames: number;
  #chime: Float32Array | null = null;
  #chimePos = 0;
  /** The whole file, once known to be short. */
  #clip: Float32Array | null = null;
  #clipPos = 0;
  #current: Decoder | null = null;
  #next: Decoder | null = null;
  /** The first pass, kept while it may still turn out short enough to be the clip. */
  #firstPass: Float32Array[] | null = [];
  #firstPassFrames = 0;
  #fileFailed = false;

  constructor(options: FallbackSourceOptions) {
    this.#options = options;
    this.#log = options.logger;
    this.#clipMaxFrames = secondsToFrames(options.clipMaxSeconds ?? 10);
  }

  /** What is played: the file, or the chime (no file set, or it did not play). */
  get kind(): 'file' | 'chime' {
    return this.#options.file && !this.#fileFailed ? 'file' : 'chime';
  }

  /** Gets ready to play (starts decoding the file); a file that failed is tried again. */
  start(): void {
    this.#fileFailed = false;
    if (!this.#clip) {
      // A pass cut short by `rest` is not the whole file.
      this.#firstPass = [];
      this.#firstPassFrames = 0;
    }
    if (this.#options.file && !this.#clip && !this.#current) this.#current = this.#decoder();
  }

  /** Fills `frames` interleaved stereo frames of `out` with the fallback. */
  fill(out: Float32Array, frames: number): void {
    let filled = 0;
    if (this.kind === 'file') {
      filled = this.#fillFromFile(out, frames);
    } else {
      this.#chime ??= stationIdChime();
      this.#chimePos = loopClip(this.#chime, this.#chimePos, out, 0, frames);
      filled = frames;
    }
    out.fill(0, filled * CHANNELS, frames * CHANNELS);
  }

  /** Stops decoding until the next `start` (the music is back). */
  rest(): void {
    this.#dropDecoders();
  }

  async close(): Promise<void> {
    const decoders = [this.#current, this.#next];
    this.#current = null;
    this.#next = null;
    await Promise.all(decoders.map((decoder) => decoder?.dispose()));
  }

  #decoder(): Decoder {
    const decoder = new Decoder({
      ffmpegPath: this.#options.ffmpegPath,
      path: this.#options.file as string,
      logger: this.#log,
      bufferSeconds: DECODER_BUFFER_SECONDS,
    });
    decoder.start();
    return decoder;
  }

  #fillFromFile(out: Float32Array, frames: number): number {
    if (this.#clip) {
      this.#clipPos = loopClip(this.#clip, this.#clipPos, out, 0, frames);
      return frames;
    }
    let pos = 0;
    // Each pass reads audio or moves to the next decoder; the bound only guards against a bug.
    for (let pass = 0; pos < frames && pass < 4; pass++) {
      const decoder = this.#current ?? this.#decoder();
      this.#current = decoder;
      if (decoder.failedEmpty) {
        this.#failed(decoder);
        return pos;
      }
      // The file is all decoded: decode the next pass ahead, unless it may fit in memory.
      if (decoder.ended && !this.#firstPass) this.#next ??= this.#decoder();
      pos += this.#read(decoder, out, pos, frames - pos);
      // Behind (silence for now), or ended without its exit status yet (it may have failed).
      if (pos >= frames || !decoder.ended || decoder.decodedFrames === 0) break;
      this.#passEnded(decoder);
      if (this.#clip) {
        this.#clipPos = loopClip(this.#clip, 0, out, pos, frames - pos);
        return frames;
      }
    }
    return pos;
  }

  #read(decoder: Decoder, out: Float32Array, offset: number, frames: number): number {
    const got = decoder.read(out, offset, frames);
    if (this.#firstPass && got > 0) {
      this.#firstPassFrames += got;
      if (this.#firstPassFrames > this.#clipMaxFrames) this.#firstPass = null;
      else this.#firstPass.push(out.slice(offset * CHANNELS, (offset + got) * CHANNELS));
    }
    return got;
  }

  /** One pass through the file is over: loop it from memory when short, else decode it again. */
  #passEnded(decoder: Decoder): void {
    void decoder.dispose();
    this.#current = this.#next;
    this.#next = null;
    const firstPass = this.#firstPass;
    this.#firstPass = null;
    if (!firstPass || this.#firstPassFrames === 0) return;
    const clip = new Float32Array(this.#firstPassFrames * CHANNELS);
    let at = 0;
    for (const part of firstPass) {
      clip.set(part, at);
      at += part.length;
    }
    this.#clip = clip;
    this.#clipPos = 0;
    this.#dropDecoders();
  }

  #failed(decoder: Decoder): void {
    this.#log.warn(
      { file: this.#options.file, reason: decoder.error ?? 'no audio in the file' },
      'FALLBACK_FILE cannot be played; the station-ID chime plays instead',
    );
    this.#fileFailed = true;
    this.#dropDecoders();
  }

  #dropDecoders(): void {
    void this.#current?.dispose();
    void this.#next?.dispose();
    this.#current = null;
    this.#next = null;
  }
}
