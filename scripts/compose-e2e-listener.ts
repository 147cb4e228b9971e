// A listener of an MP3 mount as a player behaves (for scripts/compose-e2e.ts's scale stage): it
// plays the stream, cut into frames as it arrives, and when the stream ends or fails it connects
// again at once, then every 250 ms until audio flows. It keeps what a test asks of the audience:
// the audio received, each loss and how long until audio came back.
import { FrameSplitter } from '@radio/core';

const RETRY_MS = 250;

/** One time the stream was lost and came back. */
export interface Outage {
  /** performance.now() when the stream ended or failed. */
  lostAt: number;
  /** performance.now() when the first frame of the next stream arrived; null while waiting. */
  backAt: number | null;
}

export class StreamListener {
  readonly url: string;
  /** Bytes that were whole MP3 frames (junk is not audio). */
  audioBytes = 0;
  /** Seconds of audio those frames hold. */
  audioSeconds = 0;
  /** Bytes that were not frames: a stream that breaks mid-frame, or not MP3 at all. */
  junkBytes = 0;
  /** Streams answered with 200 and audio. */
  connections = 0;
  readonly outages: Outage[] = [];
  readonly #stop = new AbortController();
  #running: Promise<void> | null = null;

  constructor(url: string) {
    this.url = url;
  }

  /** The last outage still waiting for audio, if any. */
  get waiting(): Outage | null {
    const last = this.outages.at(-1);
    return last && last.backAt === null ? last : null;
  }

  start(): void {
    this.#running ??= this.#play();
  }

  async stop(): Promise<void> {
    this.#stop.abort();
    await this.#running;
  }

  async #play(): Promise<void> {
    while (!this.#stop.signal.aborted) {
      const played = await this.#listen().catch(() => false);
      if (this.#stop.signal.aborted) return;
      if (this.waiting === null) this.outages.push({ lostAt: performance.now(), backAt: null });
      // A player tries again at once after a stream that played, and waits a little after one
      // that failed to start.
      if (!played) await delay(RETRY_MS, this.#stop.signal);
    }
  }

  /** One connection: resolves true if it played audio before it ended. */
  async #listen(): Promise<boolean> {
    const response = await fetch(this.url, { signal: this.#stop.signal });
    if (response.status !== 200 || !response.body) {
      await response.body?.cancel();
      return false;
    }
    const frames = new FrameSplitter('mp3');
    let played = false;
    try {
      for await (const chunk of response.body) {
        frames.push(Buffer.from(chunk), (audio, samples) => {
          if (!played) {
            played = true;
            this.connections += 1;
            const outage = this.waiting;
            if (outage) outage.backAt = performance.now();
          }
          this.audioBytes += audio.length;
          this.audioSeconds += samples / (frames.header?.sampleRate ?? 44_100);
        });
      }
    } catch {
      // The stream broke off (its edge went away): the same as its end, for a player.
    } finally {
      this.junkBytes += frames.junkBytes;
    }
    return played;
  }
}

function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((done) => {
    const timer = setTimeout(done, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        done();
      },
      { once: true },
    );
  });
}
