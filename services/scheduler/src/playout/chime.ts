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
 * One period of the station-ID chime the mounts carry when nothing else can play, interleaved
 * stereo in the playout's float format. Generated in code so the station never depends on a
 * file being there; each note rings out, so it reads as an identification, not a test tone.
 */
export function stationIdChime(): Float32Array {
  const frames = Math.round(CHIME_PERIOD_SECONDS * SAMPLE_RATE);
  const mono = new Float32Array(frames);
  for (const note of NOTES) {
    const start = Math.round(note.at * SAMPLE_RATE);
    for (let frame = start; frame < frames; frame++) {
      const t = (frame - start) / SAMPLE_RATE;
      const attack = Math.min(1, t / ATTACK_SECONDS);
      let value = 0;
      for (const partial of PARTIALS) {
        value +=
          partial.gain *
          Math.exp(-t / partial.decay) *
          Math.sin(2 * Math.PI * note.hz * partial.ratio * t);
      }
      mono[frame] = (mono[frame] as number) + attack * value;
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
