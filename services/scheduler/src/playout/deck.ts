import { join } from 'node:path';
import type { Logger } from '@radio/core';
import type { LibraryTrack } from '../library/library-track.ts';
import { dbToGain, trackGainDb } from '../operators/track-gain.ts';
import { CHANNELS, framesToSeconds, secondsToFrames } from '../pcm.ts';
import type { QueueEntry } from '../sources/queue-entry.ts';
import { Decoder } from './decoder.ts';

/** The longest overlap a fade point may ask for, unless CROSSFADE_SECONDS is longer. */
export const MAX_OVERLAP_SECONDS = 10;

/** How one track is played: the part of the file, its level, and how it hands over. */
export interface DeckPlan {
  /** Seconds into the file where playing starts (the cue-in). */
  readonly startSeconds: number;
  /** Seconds played from there (to the cue-out); null: to the end of the file. */
  readonly playSeconds: number | null;
  /** Frames at the end that the next track overlaps (0: back to back). */
  readonly overlapFrames: number;
  /** Linear gain that levels the track to the loudness target. */
  readonly gain: number;
}

export interface PlanSettings {
  crossfadeSeconds: number;
  /** LUFS, or null when levelling is off. */
  loudnessTarget: number | null;
}

/**
 * The plan of a track from its analysis. Analysed: it plays from cue-in to cue-out, and the next
 * track starts at its fade point (cue-out − crossfade without one), so the overlap covers the
 * ending's fall and nothing is cut. Not analysed: the whole file, overlapped by the crossfade.
 */
export function planDeck(track: LibraryTrack, settings: PlanSettings): DeckPlan {
  const analysis = track.analysis;
  const crossfade = Math.max(0, settings.crossfadeSeconds);
  const analysed = analysis.status === 'done';
  const cueIn = analysed && analysis.cueIn !== null && analysis.cueIn > 0 ? analysis.cueIn : 0;
  const cueOut =
    analysed && analysis.cueOut !== null && analysis.cueOut > cueIn ? analysis.cueOut : null;
  let overlap = crossfade;
  if (crossfade > 0 && cueOut !== null) {
    const fadePoint = analysis.fadePoint;
    if (fadePoint !== null && fadePoint >= cueIn && fadePoint <= cueOut) {
      overlap = Math.min(cueOut - fadePoint, Math.max(crossfade, MAX_OVERLAP_SECONDS));
    }
    // A short track is not overlapped for more than half of what it plays.
    overlap = Math.min(overlap, (cueOut - cueIn) / 2);
  }
  return {
    startSeconds: cueIn,
    playSeconds: cueOut === null ? null : cueOut - cueIn,
    overlapFrames: secondsToFrames(overlap),
    gain: dbToGain(trackGainDb(analysis, settings.loudnessTarget)),
  };
}

export interface DeckOptions {
  ffmpegPath: string;
  /** MUSIC_DIR, absolute. */
  musicDir: string;
  logger: Logger;
}

/** One track being played or decoded ahead: its decoder, its plan, and how far it has played. */
export class Deck {
  readonly entry: QueueEntry;
  readonly plan: DeckPlan;
  readonly decoder: Decoder;
  /** Frames played so far. */
  played = 0;
  /** Global frame at which its first audio is heard, once it is. */
  startFrame: number | null = null;

  constructor(entry: QueueEntry, plan: DeckPlan, options: DeckOptions) {
    this.entry = entry;
    this.plan = plan;
    const overlapSeconds = framesToSeconds(plan.overlapFrames);
    this.decoder = new Decoder({
      ffmpegPath: options.ffmpegPath,
      path: join(options.musicDir, entry.track.path),
      logger: options.logger,
      // It must hold the whole overlap when it reaches the end of its file, and it refills from
      // half its buffer: half the buffer is the overlap plus a margin.
      bufferSeconds: 2 * (overlapSeconds + 2),
      startSeconds: plan.startSeconds,
      durationSeconds: plan.playSeconds,
    });
    this.decoder.start();
  }

  /** Seconds it plays: exact once the whole file is decoded, from the cue points or tags before. */
  get duration(): number | null {
    if (this.decoder.ended) return framesToSeconds(this.played + this.decoder.bufferedFrames);
    return this.plan.playSeconds ?? this.entry.track.duration;
  }

  /** Reads up to `frames` frames at its level into `target` from frame `offset`. */
  read(target: Float32Array, offset: number, frames: number): number {
    const got = this.decoder.read(target, offset, frames);
    const gain = this.plan.gain;
    if (gain !== 1) {
      const end = (offset + got) * CHANNELS;
      for (let i = offset * CHANNELS; i < end; i++) target[i] = (target[i] as number) * gain;
    }
    return got;
  }
}

/**
 * Ms from a track's start to the start of the next, as the player joins them: what it plays less
 * the overlap of the crossfade (`crossfaded`), or all of it back to back (`joined`: into or out
 * of a jingle). The planner's timing comes from here, so what it predicts is what plays.
 */
export function slotMs(
  track: LibraryTrack,
  settings: PlanSettings,
): { crossfaded: number; joined: number } {
  const plan = planDeck(track, settings);
  const playFrames = secondsToFrames(plan.playSeconds ?? track.duration ?? 0);
  const toMs = (frames: number): number => (frames * 1000) / secondsToFrames(1);
  return {
    crossfaded: toMs(Math.max(0, playFrames - plan.overlapFrames)),
    joined: toMs(playFrames),
  };
}
