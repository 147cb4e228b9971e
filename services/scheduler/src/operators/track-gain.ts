import type { TrackAnalysis } from '@radio/db';

/** ReplayGain 2's reference loudness: a tag's gain brings the track to this level. */
const REPLAY_GAIN_REFERENCE_LUFS = -18;
/** The true peak the station keeps at the listener. */
const PEAK_LIMIT_DBTP = -1;
/**
 * How far a boost may push a track's measured true peak over −1 dBTP, into the limiter. A few dB
 * of limiting on the rare peaks of a quiet, dynamic track is inaudible; more would flatten it,
 * so such a track stays a little under the target rather than squashed to it.
 */
export const MAX_DRIVE_DB = 6;
/** A boost whose peaks are not known (ReplayGain tag only) stays this small. */
export const MAX_BLIND_BOOST_DB = 6;
/** No track is raised more than this: below it is noise, whose hiss must not be brought up. */
export const MAX_BOOST_DB = 20;

type Levels = Pick<TrackAnalysis, 'status' | 'loudness' | 'truePeak' | 'replayGain'>;

/**
 * The gain (dB) that brings a track to `targetLufs` (null: levelling is off). Measured loudness
 * comes first, then the ReplayGain tag (RG2: reference −18 LUFS), else the track plays as
 * mastered. A boost is bounded by the track's true peak, see MAX_DRIVE_DB.
 */
export function trackGainDb(levels: Levels, targetLufs: number | null): number {
  if (targetLufs === null) return 0;
  let gain = 0;
  let ceiling = MAX_BOOST_DB;
  if (levels.status === 'done' && levels.loudness !== null && Number.isFinite(levels.loudness)) {
    gain = targetLufs - levels.loudness;
    if (levels.truePeak !== null && Number.isFinite(levels.truePeak)) {
      ceiling = Math.min(ceiling, PEAK_LIMIT_DBTP - levels.truePeak + MAX_DRIVE_DB);
    }
  } else if (levels.replayGain !== null && Number.isFinite(levels.replayGain)) {
    gain = levels.replayGain + (targetLufs - REPLAY_GAIN_REFERENCE_LUFS);
    ceiling = MAX_BLIND_BOOST_DB;
  }
  // The bound limits boosts only: a track is always allowed down to the target.
  return gain > 0 ? Math.min(gain, Math.max(0, ceiling)) : gain;
}

export function dbToGain(db: number): number {
  return 10 ** (db / 20);
}
