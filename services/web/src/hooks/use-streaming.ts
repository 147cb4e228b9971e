import { useEffect, useSyncExternalStore } from 'react';
import { api } from '../api/client.ts';
import { liveStore } from '../api/live-store.ts';
import { retryingLoad } from '../api/retrying-load.ts';
import type { StreamingStatus } from '../api/types.ts';
import { audioPlayer } from '../audio.ts';

interface StreamingState {
  data: StreamingStatus | null;
  error: unknown;
  loading: boolean;
}

let state: StreamingState = { data: null, error: null, loading: true };
const listeners = new Set<() => void>();
let users = 0;
let timer: ReturnType<typeof setInterval> | null = null;

const POLL_MS = 30_000;

function set(next: StreamingState): void {
  state = next;
  for (const listener of listeners) listener();
}

/*
 * The mounts come from this answer only, so a failed load (a network blip, the api restarting)
 * is tried again soon, waiting longer each time, rather than at the next poll.
 */
const streamingLoad = retryingLoad({
  load: () => api.streamingStatus(),
  onData: (data) => {
    audioPlayer.setMounts(data.mounts, data.hlsUrl);
    liveStore.seed({ nowPlaying: data.nowPlaying, fallback: data.fallback });
    set({ data, error: null, loading: false });
  },
  onError: (error) => set({ data: state.data, error, loading: false }),
});

/**
 * Fetches the mounts and what is on air; the event stream keeps the rest current. Calls
 * while one is under way share it (main.tsx starts the first before React renders).
 */
export function refreshStreaming(): Promise<void> {
  return streamingLoad.run();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const read = () => state;

/**
 * The streaming status (mounts with their public URLs, listener counts), polled while shown and
 * tried again soon after a failure.
 */
export function useStreaming(): StreamingState {
  useEffect(() => {
    users += 1;
    if (users === 1) {
      void refreshStreaming();
      timer = setInterval(() => void refreshStreaming(), POLL_MS);
    }
    return () => {
      users -= 1;
      if (users === 0 && timer) {
        clearInterval(timer);
        timer = null;
        streamingLoad.stop();
      }
    };
  }, []);
  return useSyncExternalStore(subscribe, read, read);
}
