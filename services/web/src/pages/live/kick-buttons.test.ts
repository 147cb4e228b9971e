import { describe, expect, it } from '@jest/globals';
import type { LiveInput, LiveSource } from '../../api/types.ts';
import { kickButtons } from './kick-buttons.ts';

function source(id: number, name: string): LiveSource {
  return { dj: { id, name }, since: 0, title: null, bytesIn: 0, format: 'mp3' };
}

const ANA = source(2, 'Ana');
const BEN = source(3, 'Ben');
const live = (onAir: LiveSource | null, waiting: LiveSource[]): LiveInput => ({
  onAir,
  waiting,
  silent: false,
  recording: false,
});

describe('the Live now card’s disconnect buttons', () => {
  it('offers an admin both kicks', () => {
    expect(kickButtons(live(ANA, [BEN]), { id: 1, role: 'admin' })).toEqual([
      { target: 'on_air', label: 'Disconnect the live DJ' },
      { target: 'waiting', label: 'Disconnect the waiting DJ' },
    ]);
  });

  it('offers a DJ only its own source, on air or waiting', () => {
    expect(kickButtons(live(ANA, [BEN]), { id: ANA.dj.id, role: 'dj' })).toEqual([
      { target: 'on_air', label: 'Disconnect me' },
    ]);
    expect(kickButtons(live(ANA, [BEN]), { id: BEN.dj.id, role: 'dj' })).toEqual([
      { target: 'waiting', label: 'Stop waiting to take over' },
    ]);
    expect(kickButtons(live(ANA, [BEN]), { id: 9, role: 'dj' })).toEqual([]);
  });

  it('offers nothing before the state or the session is known', () => {
    expect(kickButtons(null, { id: 1, role: 'admin' })).toEqual([]);
    expect(kickButtons(live(ANA, []), null)).toEqual([]);
  });
});
