import { useSyncExternalStore } from 'react';
import { type LiveState, liveStore } from '../api/live-store.ts';

/**
 * A slice of the live state (fed by the api's event stream). `select` must return a value
 * that stays the same object while its part of the state does not change.
 */
export function useLive<T>(select: (state: LiveState) => T): T {
  const read = () => select(liveStore.getState());
  return useSyncExternalStore(liveStore.subscribe, read, read);
}
