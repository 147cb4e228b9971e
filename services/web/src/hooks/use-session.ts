import { useSyncExternalStore } from 'react';
import { type SessionState, session } from '../session.ts';

/** Who is signed in; renders again when that changes. */
export function useSession(): SessionState {
  return useSyncExternalStore(session.subscribe, session.getState, session.getState);
}
