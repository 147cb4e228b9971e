/**
 * What one decode pass of a track measured. Times are seconds from the start of the file as
 * decoded (after the decoder's own delay is trimmed), so the player can seek to them.
 *
 * - loudness: the integrated loudness (EBU R128 / ITU-R BS.1770, gated), LUFS.
 * - loudnessRange: the loudness range (EBU Tech 3342), LU.
 * - truePeak: the highest true (4x oversampled) peak over all channels, dBTP.
 * - cueIn: the end of a silence (below -60 dBFS on every channel for at least 50 ms) that
 *   starts at 0; 0 when the file starts audibly.
 * - cueOut: the start of a silence that runs to the end of the file; else the decoded length.
 * - fadePoint: the end of the last 100 ms block whose momentary loudness (400 ms window) is at
 *   least the integrated loudness - 12 LU, clamped into [cueIn, cueOut]: where the ending has
 *   fallen away, so the next track may start there.
 */
export interface Measurement {
  readonly loudness: number;
  readonly loudnessRange: number;
  /** Null when the file has no sample above digital silence. */
  readonly truePeak: number | null;
  readonly cueIn: number;
  readonly cueOut: number;
  readonly fadePoint: number;
  /** Seconds of audio decoded. */
  readonly duration: number;
}

export type ParsedAnalysis =
  | { readonly ok: true; readonly measurement: Measurement }
  | { readonly ok: false; readonly reason: string };

/** The fade point is where the momentary loudness stays this far below the integrated one. */
export const FADE_DROP_LU = 12;
/** ebur128 reports -70 LUFS (its absolute gate) when nothing was loud enough to measure. */
const GATE_LUFS = -70;
/** Momentary loudness is kept per 0.1 LU from the gate up to this, which no real file exceeds. */
const CEILING_LUFS = 10;
const STEPS_PER_LU = 10;
/** The shortest file ebur128 measures: one 400 ms momentary window. */
const SHORTEST_SECONDS = 0.4;

const NUMBER = String.raw`(-?(?:\d+(?:\.\d*)?(?:e[-+]?\d+)?|inf)|nan)`;
const FRAME = new RegExp(String.raw`\bt:\s*${NUMBER}\s+TARGET:.*?\bM:\s*${NUMBER}`);
const SILENCE_START = new RegExp(`silence_start: ${NUMBER}`);
const SILENCE_END = new RegExp(`silence_end: ${NUMBER}`);
// The summary's lines stand alone (indented, no `[filter @ 0x…]` prefix); the first summary is
// printed by a graph ffmpeg configures and drops before decoding, so the last one wins.
const SUMMARY_I = new RegExp(String.raw`^\s+I:\s+${NUMBER} LUFS\s*$`);
const SUMMARY_LRA = new RegExp(String.raw`^\s+LRA:\s+${NUMBER} LU\s*$`);
const SUMMARY_PEAK = new RegExp(String.raw`^\s+Peak:\s+${NUMBER} dBFS\s*$`);
const GRAPH_RATE = /\btb:1\/\d+ samplefmt:\S+ samplerate:(\d+)/;
const ENCODED = /Output stream #\d+:\d+ \(audio\): \d+ frames encoded \((\d+) samples\)/;
const ERROR = /error|invalid|matches no streams|no such file|not supported|could not|failed/i;
const PREFIX = /^\[[^\]]+ @ 0x[0-9a-f]+\]\s*/;

function parseNumber(text: string | undefined): number {
  if (text === undefined || text === 'nan') return Number.NaN;
  if (text === 'inf') return Number.POSITIVE_INFINITY;
  if (text === '-inf') return Number.NEGATIVE_INFINITY;
  return Number(text);
}

/**
 * Reads the stderr of `ffmpeg -v verbose` running `ebur128=peak=true:framelog=verbose` and
 * `silencedetect` over one file, line by line, keeping constant state whatever the length (a
 * 10-hour file prints 360,000 frame lines): the last time each momentary loudness (per 0.1 LU)
 * was seen, the silences that matter (the one at the start, the last one), the summary.
 */
export class AnalysisLogParser {
  /** Per momentary loudness step above the gate: the end of the last block at that level. */
  readonly #lastAtLevel = new Float64Array((CEILING_LUFS - GATE_LUFS) * STEPS_PER_LU + 1).fill(-1);
  #lastFrameEnd = 0;
  #loudness = Number.NaN;
  #range = Number.NaN;
  #peak = Number.NaN;
  #sampleRate = 0;
  #samples = -1;
  #firstSilenceEnd: number | null = null;
  #sawSound = false;
  #openSilence: number | null = null;
  #lastSilence: { start: number; end: number } | null = null;
  #error: string | null = null;

  /** Seconds decoded so far (to the last 100 ms block): what a length limit watches. */
  get decodedSeconds(): number {
    return this.#lastFrameEnd;
  }

  /** ffmpeg's first complaint, without its `[component @ 0x…]` prefix. */
  get error(): string | null {
    return this.#error;
  }

  line(text: string): void {
    if (text.includes(' TARGET:')) {
      this.#frame(text);
      return;
    }
    if (text.includes('silence_')) {
      this.#silence(text);
      return;
    }
    const summary = SUMMARY_I.exec(text) ?? SUMMARY_LRA.exec(text) ?? SUMMARY_PEAK.exec(text);
    if (summary) {
      const value = parseNumber(summary[1]);
      if (text.includes('LRA:')) this.#range = value;
      else if (text.includes('Peak:')) this.#peak = value;
      else this.#loudness = value;
      return;
    }
    const rate = GRAPH_RATE.exec(text);
    if (rate) this.#sampleRate = Number(rate[1]);
    const encoded = ENCODED.exec(text);
    if (encoded) this.#samples = Number(encoded[1]);
    if (this.#error === null && ERROR.test(text)) this.#error = text.replace(PREFIX, '').trim();
  }

  /** What the whole log says; call once ffmpeg exited successfully. */
  result(): ParsedAnalysis {
    const duration =
      this.#samples >= 0 && this.#sampleRate > 0
        ? this.#samples / this.#sampleRate
        : this.#lastFrameEnd;
    if (!(duration > 0)) return { ok: false, reason: 'no audio could be decoded' };
    if (duration < SHORTEST_SECONDS) {
      return { ok: false, reason: `too short to measure (${duration.toFixed(2)} s)` };
    }
    if (!Number.isFinite(this.#loudness)) {
      return { ok: false, reason: 'ffmpeg printed no loudness summary' };
    }
    const cueIn = this.#firstSilenceEnd ?? 0;
    const cueOut = this.#trailingSilenceStart(duration) ?? duration;
    if (this.#loudness <= GATE_LUFS || cueOut <= cueIn) {
      return { ok: false, reason: 'no audible audio: the file is silent throughout' };
    }
    const fadeFrom = this.#fadeEnd(this.#loudness - FADE_DROP_LU) ?? cueOut;
    return {
      ok: true,
      measurement: {
        loudness: this.#loudness,
        loudnessRange: Number.isFinite(this.#range) ? this.#range : 0,
        truePeak: Number.isFinite(this.#peak) ? this.#peak : null,
        cueIn,
        cueOut,
        fadePoint: Math.min(cueOut, Math.max(cueIn, fadeFrom)),
        duration,
      },
    };
  }

  #frame(text: string): void {
    const match = FRAME.exec(text);
    if (!match) return;
    const end = parseNumber(match[1]);
    const momentary = parseNumber(match[2]);
    if (!Number.isFinite(end)) return;
    if (end > this.#lastFrameEnd) this.#lastFrameEnd = end;
    if (!(momentary >= GATE_LUFS)) return;
    const level = Math.min(CEILING_LUFS, momentary);
    this.#lastAtLevel[Math.round((level - GATE_LUFS) * STEPS_PER_LU)] = end;
  }

  #silence(text: string): void {
    const start = SILENCE_START.exec(text);
    if (start) {
      const at = Math.max(0, parseNumber(start[1]));
      // Only a silence from the very start is lead-in; a later one means sound came before.
      if (at > 0.001) this.#sawSound = true;
      this.#openSilence = at;
      return;
    }
    const end = SILENCE_END.exec(text);
    if (!end) return;
    const at = parseNumber(end[1]);
    const from = this.#openSilence ?? 0;
    if (!this.#sawSound && from <= 0.001) this.#firstSilenceEnd = at;
    this.#sawSound = true;
    this.#lastSilence = { start: from, end: at };
    this.#openSilence = null;
  }

  /**
   * The start of the silence that runs to the end: one still open, or the last one, if it
   * ended at the end of the file (silencedetect closes an open silence at end of stream). The
   * times are printed with six significant digits, hence the tolerance growing with length.
   */
  #trailingSilenceStart(duration: number): number | null {
    if (this.#openSilence !== null) return this.#openSilence;
    const last = this.#lastSilence;
    if (!last) return null;
    return last.end >= duration - (0.01 + duration * 1e-5) ? last.start : null;
  }

  /** The end of the last block whose momentary loudness reached `threshold`, if any. */
  #fadeEnd(threshold: number): number | null {
    const from = Math.max(0, Math.ceil((threshold - GATE_LUFS) * STEPS_PER_LU - 1e-9));
    let latest = -1;
    for (let step = from; step < this.#lastAtLevel.length; step++) {
      const at = this.#lastAtLevel[step] as number;
      if (at > latest) latest = at;
    }
    return latest >= 0 ? latest : null;
  }
}
