import { SchedulerError } from '../errors.ts';
import type { LibraryTrack } from '../library/library-track.ts';
import type { PlaylistRepository } from '../repositories/playlist-repository.ts';

/**
 * The playable tracks of a playlist, in order. Items whose track is no longer playable are
 * left out; a playlist with none left is an error, so a command never queues nothing silently.
 */
export async function loadPlaylist(
  playlists: PlaylistRepository,
  lookup: (trackId: number) => LibraryTrack | undefined,
  playlistId: number,
): Promise<LibraryTrack[]> {
  if (!(await playlists.exists(playlistId))) {
    throw new SchedulerError('SCHEDULER_PLAYLIST_NOT_FOUND', `no playlist with id ${playlistId}`);
  }
  const tracks = (await playlists.trackIds(playlistId)).flatMap((id) => {
    const track = lookup(id);
    return track ? [track] : [];
  });
  if (tracks.length === 0) {
    throw new SchedulerError(
      'SCHEDULER_PLAYLIST_EMPTY',
      `playlist ${playlistId} has no playable track`,
    );
  }
  return tracks;
}
