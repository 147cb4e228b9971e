import { CHANNELS, SAMPLE_RATE } from '../pcm.ts';

/** The chime's loudest sample: -20 dBFS, clearly there without being loud. */
export const CHIME_PEAK_DBFS = -20;
/** One round of the pattern: three notes, then their ring dies down before the next round. */
export const CHIME_PERIOD_SECONDS = 4;

/** A falling major arpeggio (G4, E5, C5), one note each 0.45 s, as the broadcast chimes go. */
const NOTES = [
  { at: 0, hz: 392.0 },
  { at: 0.45, hz: 659.26 },
  { at: 0.9, hz: 523.25 },
];
/** Bell-like: a few harmonics that fade faster than the fundamental. */
const PARTIALS = [
  { ratio: 1, gain: 1, decay: 0.8 },
  { ratio: 2, gain: 0.3, decay: 0.4 },
  { ratio: 3, gain: 0.1, decay: 0.25 },
];
const ATTACK_SECONDS = 0.006;

/**
 * Adds a sine of `hz` to `mono` from frame `start`, decaying by e every `decay` seconds. A
 * two-pole resonance, x[n] = 2r·cos(w)·x[n-1] - r²·x[n-2], gives the same curve as sin and exp
 * sample by sample with two multiplies: the chime is made in a few milliseconds, well inside a
 * playout block, when the fallback first needs it.
 */
function addRing(mono: Float32Array, start: number, hz: number, gain: number, decay: number): void {
  const r = Math.exp(-1 / (decay * SAMPLE_RATE));
  const w = (2 * Math.PI * hz) / SAMPLE_RATE;
  const a = 2 * r * Math.cos(w);
  const b = r * r;
  const attackFrames = ATTACK_SECONDS * SAMPLE_RATE;
  let previous = 0;
  let current = 0;
  let next = r * Math.sin(w);
  for (let frame = start; frame < mono.length; frame++) {
    const n = frame - start;
    mono[frame] = (mono[frame] as number) + gain * Math.min(1, n / attackFrames) * current;
    previous = current;
    current = next;
    next = a * current - b * previous;
  }
}

/**
 * One period of the station-ID chime the mounts carry when nothing else can play, interleaved
 * stereo in the playout's float format. Generated in code so the station never depends on a
 * file being there; each note rings out, so it reads as an identification, not a test tone.
 */
export function stationIdChime(): Float32Array {
  const frames = Math.round(CHIME_PERIOD_SECONDS * SAMPLE_RATE);
  const mono = new Float32Array(frames);
  for (const note of NOTES) {
    for (const partial of PARTIALS) {
      const start = Math.round(note.at * SAMPLE_RATE);
      addRing(mono, start, note.hz * partial.ratio, partial.gain, partial.decay);
    }
  }
  let peak = 0;
  for (const value of mono) peak = Math.max(peak, Math.abs(value));
  const gain = 10 ** (CHIME_PEAK_DBFS / 20) / peak;
  const stereo = new Float32Array(frames * CHANNELS);
  for (let frame = 0; frame < frames; frame++) {
    const value = (mono[frame] as number) * gain;
    for (let channel = 0; channel < CHANNELS; channel++) stereo[frame * CHANNELS + channel] = value;
  }
  return stereo;
}
