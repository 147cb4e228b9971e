// The listener side of bench:live: a real listener of a mount whose MP3 is decoded as it
// arrives, each 50 ms of audio classified by its tone, so a handover is timed by when the new
// tone's bytes reached the listener (plus the local decoder's few milliseconds, the same for
// every system).
import { type ChildProcess, spawn } from 'node:child_process';
import { get, type IncomingMessage } from 'node:http';

const RATE = 8000;
const WINDOW = RATE / 20;
/** A tone counts once it holds this many windows in a row (150 ms). */
const RUN = 3;

export type Tone = 'auto' | 'dj' | 'none';

function level(pcm: Int16Array, start: number, hz: number): number {
  const k = 2 * Math.cos((2 * Math.PI * hz) / RATE);
  let s1 = 0;
  let s2 = 0;
  for (let i = start; i < start + WINDOW; i++) {
    const s0 = (pcm[i] as number) / 32_768 + k * s1 - s2;
    s2 = s1;
    s1 = s0;
  }
  return Math.sqrt(s1 * s1 + s2 * s2 - k * s1 * s2) / (WINDOW / 2);
}

export class ToneProbe {
  readonly #hz: { auto: number; dj: number };
  readonly #decoder: ChildProcess;
  #response: IncomingMessage | null = null;
  #pending = Buffer.alloc(0);
  /** Each window's tone and the time its bytes arrived. */
  readonly windows: { tone: Tone; at: number }[] = [];
  #closed = false;

  constructor(url: string, ffmpegPath: string, hz: { auto: number; dj: number }) {
    this.#hz = hz;
    this.#decoder = spawn(
      ffmpegPath,
      [
        ...['-hide_banner', '-loglevel', 'error', '-fflags', 'nobuffer', '-probesize', '32'],
        ...['-analyzeduration', '0', '-f', 'mp3', '-i', 'pipe:0', '-f', 's16le', '-ac', '1'],
        ...['-ar', String(RATE), '-flush_packets', '1', 'pipe:1'],
      ],
      { stdio: ['pipe', 'pipe', 'ignore'] },
    );
    this.#decoder.stdin?.on('error', () => {});
    this.#decoder.stdout?.on('data', (chunk: Buffer) => this.#pcm(chunk));
    get(url, { agent: false }, (response) => {
      this.#response = response;
      response.on('data', (chunk: Buffer) => this.#decoder.stdin?.write(chunk));
      response.on('end', () => {
        if (!this.#closed) throw new Error(`the listener of ${url} was disconnected`);
      });
    });
  }

  /** When `tone` started to be heard after `since` (a run of RUN windows); waits for it. */
  async next(tone: Tone, since: number, timeoutMs = 60_000): Promise<number> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      let run = 0;
      for (const window of this.windows) {
        if (window.at < since) continue;
        run = window.tone === tone ? run + 1 : 0;
        if (run >= RUN) {
          const first = this.windows[this.windows.indexOf(window) - RUN + 1];
          return (first as { at: number }).at;
        }
      }
      if (Date.now() > deadline) throw new Error(`no ${tone} tone heard within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  close(): void {
    this.#closed = true;
    this.#response?.destroy();
    this.#decoder.kill('SIGKILL');
  }

  #pcm(chunk: Buffer): void {
    const at = Date.now();
    this.#pending = Buffer.concat([this.#pending, chunk]);
    const samples = Math.floor(this.#pending.length / 2);
    const usable = samples - (samples % WINDOW);
    if (usable === 0) return;
    const copy = Buffer.from(this.#pending.subarray(0, usable * 2));
    const pcm = new Int16Array(copy.buffer, copy.byteOffset, usable);
    this.#pending = this.#pending.subarray(usable * 2);
    for (let start = 0; start < usable; start += WINDOW) {
      const auto = level(pcm, start, this.#hz.auto);
      const dj = level(pcm, start, this.#hz.dj);
      const tone: Tone = Math.max(auto, dj) < 0.02 ? 'none' : auto > dj ? 'auto' : 'dj';
      this.windows.push({ tone, at });
    }
    // Keep the last minute: a long bench would otherwise scan an ever longer list.
    if (this.windows.length > 1200) this.windows.splice(0, this.windows.length - 1200);
  }
}
