import type { LibraryChange } from './library/change-batch.ts';
import type { NowPlaying } from './now-playing.ts';
import { secondsToFrames } from './pcm.ts';
import type { Player } from './playout/player.ts';

/**
 * A library change that re-indexed the track on air (its tags were edited): listeners see the
 * new title now, not from its next play. The decoder keeps the file it opened, so the audio
 * plays on untouched.
 */
export function followOnAirTags(
  change: LibraryChange,
  player: Player | null,
  nowPlaying: NowPlaying | null,
): void {
  const onAir = player?.onAir();
  if (!onAir || !nowPlaying || change.updated.length === 0) return;
  const track = change.updated.find((each) => each.id === onAir.entry.track.id);
  if (!track) return;
  const frame = onAir.startFrame + secondsToFrames(onAir.position);
  nowPlaying.retagged(onAir.entry.requestId, track, frame);
}
