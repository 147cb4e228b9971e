import type { Socket } from 'node:net';
import { ChunkedDecoder, type Logger } from '@radio/core';
import { CHANNELS, secondsToFrames } from '../pcm.ts';
import type { LiveDj } from './dj-credentials.ts';
import { LiveDecoder } from './live-decoder.ts';
import { OggPages } from './ogg-pages.ts';
import { foreignContainer, type LiveFormat, sniffFormat } from './source-format.ts';

export interface LiveSessionOptions {
  id: number;
  dj: LiveDj;
  socket: Socket;
  address: string;
  /** The format the Content-Type named (null: none, the bytes tell). */
  declared: LiveFormat | null;
  chunked: boolean;
  ffmpegPath: string;
  logger: Logger;
  /** A source that sends nothing for this long is dropped. */
  idleTimeoutMs: number;
  /** The session ended (`reason` says why; `fault`: the source's fault, logged as a warning). */
  onEnd(session: LiveSession, reason: string, fault: boolean): void;
  /** Its title or format changed. */
  onChange(session: LiveSession): void;
}

/** The source is heard once this much is decoded: a margin for network jitter, not a buffer. */
const START_FRAMES = secondsToFrames(0.15);
/** The longest a source may send bytes that decode to nothing (not audio, or broken). */
const UNDECODABLE_MS = 5000;
/** RMS windows of the silence measure. */
const LEVEL_WINDOW = secondsToFrames(0.1);
/** −50 dBFS as a mean square. */
const SILENCE_POWER = 10 ** (-50 / 10);

/**
 * One source client on the live port: its bytes checked (audio, one container, one codec),
 * decoded, and handed to the playout in real time from its first 150 ms of audio, never after a
 * fixed buffer of seconds; the margin grows by itself when the network is late (see `take`).
 */
export class LiveSession {
  readonly id: number;
  readonly dj: LiveDj;
  readonly address: string;
  readonly since = Date.now();
  format: string;
  /** The title the DJ's client sent (updinfo, or the Ogg stream's comments); null: none yet. */
  title: string | null = null;
  bytesIn = 0;
  /** Seconds of continuous silence (below −50 dBFS) in what was taken so far. */
  silentFrames = 0;
  readonly #options: LiveSessionOptions;
  readonly #log: Logger;
  readonly #chunked: ChunkedDecoder | null;
  #decoder: LiveDecoder | null = null;
  #ogg: OggPages | null = null;
  #container: LiveFormat | null = null;
  #sniffed: Buffer[] = [];
  #primed = false;
  #energy = 0;
  #measured = 0;
  #watch: NodeJS.Timeout | null = null;
  #lastProgress = { at: Date.now(), decoded: 0, bytes: 0 };
  #ended = false;

  constructor(options: LiveSessionOptions) {
    this.#options = options;
    this.id = options.id;
    this.dj = options.dj;
    this.address = options.address;
    this.format = options.declared ?? 'unknown';
    this.#log = options.logger;
    this.#chunked = options.chunked ? new ChunkedDecoder() : null;
  }

  /** Starts reading the body (`first`: the bytes that came with the head). */
  start(first: Buffer): void {
    const { socket, idleTimeoutMs } = this.#options;
    // It may have gone while its login was checked (no one listened for its close then).
    if (socket.destroyed || socket.readableEnded) {
      this.end('the source disconnected', false);
      return;
    }
    socket.setTimeout(idleTimeoutMs);
    socket.on('timeout', () => this.end(`no data for ${idleTimeoutMs / 1000} s`, true));
    socket.on('data', (chunk: Buffer) => this.#receive(chunk));
    socket.on('end', () => this.end('the source disconnected', false));
    socket.on('close', () => this.end('the source disconnected', false));
    this.#watch = setInterval(() => this.#checkDecoding(), 1000);
    if (first.length > 0) this.#receive(first);
    socket.resume();
  }

  /** Its first audio is decoded (with the jitter margin): it can be heard. */
  get audible(): boolean {
    return this.#primed;
  }

  /**
   * Takes the next `frames` frames of its audio into `out` from frame `offset` (null: taken and
   * dropped, for a source that is connected but not heard); returns how many it had. Called
   * once per playout block for every session, so a waiting DJ's audio stays current.
   */
  take(out: Float32Array | null, offset: number, frames: number): number {
    const decoder = this.#decoder;
    if (!decoder) return 0;
    if (!this.#primed) {
      if (decoder.bufferedFrames < START_FRAMES) return 0;
      this.#primed = true;
    }
    // A client clock faster than ours piles audio up: drop what is over a second ahead.
    const excess = decoder.bufferedFrames - START_FRAMES - secondsToFrames(1);
    if (excess > 0) decoder.read(null, 0, excess);
    // Short of audio (the network or the client was late), the rest of the block is silence
    // and the audio goes on from where it was: the gap is only what was missing, and from
    // then on the source is that much further ahead of the clock, so a late packet of the
    // same size no longer makes a gap.
    const got = decoder.read(out, offset, frames);
    if (out) this.#measure(out, offset, got, frames);
    return got;
  }

  /** Ends the session (idempotent): the socket closes and ffmpeg stops. */
  end(reason: string, fault: boolean): void {
    if (this.#ended) return;
    this.#ended = true;
    if (this.#watch) clearInterval(this.#watch);
    this.#options.socket.destroy();
    void this.#decoder?.dispose();
    this.#options.onEnd(this, reason, fault);
  }

  #measure(out: Float32Array, offset: number, got: number, frames: number): void {
    const end = (offset + got) * CHANNELS;
    for (let i = offset * CHANNELS; i < end; i++) {
      const s = out[i] as number;
      this.#energy += s * s;
    }
    this.#measured += frames; // frames it did not have count as silence
    if (this.#measured < LEVEL_WINDOW) return;
    const power = this.#energy / (this.#measured * CHANNELS);
    this.silentFrames = power < SILENCE_POWER ? this.silentFrames + this.#measured : 0;
    this.#energy = 0;
    this.#measured = 0;
  }

  #receive(encoded: Buffer): void {
    if (this.#ended) return;
    if (!this.#chunked) {
      this.#bytes(encoded);
      return;
    }
    if (!this.#chunked.push(encoded, (data) => this.#bytes(data))) {
      this.end('malformed chunked body', true);
    }
  }

  #bytes(chunk: Buffer): void {
    if (this.#ended) return;
    this.bytesIn += chunk.length;
    if (!this.#container) {
      this.#sniffed.push(chunk);
      const head = Buffer.concat(this.#sniffed);
      const format = sniffFormat(head);
      if (format === 'pending') return;
      if (format === null) {
        this.end(`not audio: the first ${head.length} bytes are no MP3, AAC, Ogg or WebM`, true);
        return;
      }
      this.#sniffed = [];
      this.#begin(format);
      chunk = head;
    }
    const container = this.#container as LiveFormat;
    const foreign = foreignContainer(container, chunk);
    if (foreign) {
      this.end(`codec change: ${foreign} in a ${container} stream`, true);
      return;
    }
    const oggProblem = this.#ogg?.push(chunk);
    if (oggProblem) {
      this.end(`not audio: ${oggProblem}`, true);
      return;
    }
    if (this.#ended) return;
    const decoder = this.#decoder as LiveDecoder;
    if (!decoder.write(chunk)) {
      // ffmpeg is behind (a client sending faster than real time): hold the client back.
      this.#options.socket.pause();
      decoder.onDrain(() => this.#options.socket.resume());
    }
  }

  #begin(format: LiveFormat): void {
    const { declared } = this.#options;
    if (declared && declared !== format) {
      this.#log.info({ declared, sent: format }, 'the source sends another format than it says');
    }
    this.#container = format;
    this.format = format;
    if (format === 'ogg') {
      this.#ogg = new OggPages({
        onCodecChange: (from, to) => this.end(`codec change: Ogg ${from} then ${to}`, true),
        onCodec: (codec) => {
          this.format = codec;
          this.#options.onChange(this);
        },
        onTitle: (title) => {
          this.title = title;
          this.#options.onChange(this);
        },
      });
    }
    this.#decoder = new LiveDecoder({
      ffmpegPath: this.#options.ffmpegPath,
      format,
      logger: this.#log,
      onExit: (error) =>
        this.end(error ? `undecodable: ${error}` : 'the stream ended', error !== null),
    });
    this.#decoder.start();
    this.#lastProgress = { at: Date.now(), decoded: 0, bytes: this.bytesIn };
    this.#options.onChange(this);
  }

  /** Bytes that keep coming but decode to nothing are not audio (or a broken stream). */
  #checkDecoding(): void {
    const decoded = this.#decoder?.decodedFrames ?? 0;
    const now = Date.now();
    const last = this.#lastProgress;
    // No bytes at all is the idle timeout's case, not this one.
    if (decoded > last.decoded || !this.#decoder || this.bytesIn === last.bytes) {
      this.#lastProgress = { at: now, decoded, bytes: this.bytesIn };
      return;
    }
    if (now - this.#lastProgress.at >= UNDECODABLE_MS) {
      this.end(
        `not audio: ${this.bytesIn} bytes in and nothing decoded for ${UNDECODABLE_MS / 1000} s`,
        true,
      );
    }
  }
}
