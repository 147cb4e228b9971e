import { useEffect } from 'react';
import { audioPlayer } from '../audio.ts';
import { useAudio } from './use-audio.ts';
import { useLive } from './use-live.ts';

/** What is on air, on the lock screen and media keys of the device, while the stream plays. */
export function useMediaSession(): void {
  const nowPlaying = useLive((s) => s.nowPlaying);
  const { status } = useAudio();
  const playing = status === 'playing' || status === 'loading';

  useEffect(() => {
    if (!('mediaSession' in navigator) || typeof MediaMetadata === 'undefined') return;
    navigator.mediaSession.metadata =
      playing && nowPlaying
        ? new MediaMetadata({
            title: nowPlaying.title,
            artist: nowPlaying.artist ?? '',
            album: nowPlaying.album ?? '',
          })
        : null;
    navigator.mediaSession.playbackState = playing ? 'playing' : 'none';
  }, [nowPlaying, playing]);

  useEffect(() => {
    if (!('mediaSession' in navigator)) return;
    const session = navigator.mediaSession;
    // A live stream cannot pause and pick up where it was: pause means stop.
    session.setActionHandler('play', () => audioPlayer.play());
    session.setActionHandler('pause', () => audioPlayer.stop());
    session.setActionHandler('stop', () => audioPlayer.stop());
    return () => {
      session.setActionHandler('play', null);
      session.setActionHandler('pause', null);
      session.setActionHandler('stop', null);
    };
  }, []);
}
