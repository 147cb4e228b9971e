import type { LiveInput, LiveKickTarget, User } from '../../api/types.ts';

export interface KickButton {
  target: LiveKickTarget;
  label: string;
}

/**
 * The disconnect buttons the Live now card shows: an admin may drop the DJ on air and those
 * waiting, a DJ only itself (the api refuses a DJ's kick of another DJ with 403).
 */
export function kickButtons(
  live: LiveInput | null,
  user: Pick<User, 'id' | 'role'> | null,
): KickButton[] {
  if (!live || !user) return [];
  const admin = user.role === 'admin';
  const buttons: KickButton[] = [];
  if (live.onAir && (admin || live.onAir.dj.id === user.id)) {
    buttons.push({ target: 'on_air', label: admin ? 'Disconnect the live DJ' : 'Disconnect me' });
  }
  const waiting = live.waiting.filter((source) => admin || source.dj.id === user.id);
  if (waiting.length > 0) {
    buttons.push({
      target: 'waiting',
      label: admin ? 'Disconnect the waiting DJ' : 'Stop waiting to take over',
    });
  }
  return buttons;
}
