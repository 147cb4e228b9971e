import { useSyncExternalStore } from 'react';
import { type AudioState, audioPlayer } from '../audio.ts';

/** The page's stream player: what it plays and how loud. */
export function useAudio(): AudioState {
  return useSyncExternalStore(audioPlayer.subscribe, audioPlayer.getState, audioPlayer.getState);
}
