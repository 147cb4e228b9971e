import { describe, expect, it } from '@jest/globals';
import type { PlannedEntry } from '../programming/planner-api.ts';
import { anchorAfter, plannedRequests } from './programme-inputs.ts';

function planned(trackId: number, at: number, extra: Partial<PlannedEntry> = {}): PlannedEntry {
  return {
    at,
    end: at,
    source: 'rotation',
    trackId,
    playlistId: null,
    scheduleId: null,
    songRequestId: null,
    requestId: null,
    dj: null,
    interrupts: false,
    jingle: false,
    reason: 'rotation',
    step: { order: null, weighted: null, rule: null },
    ...extra,
  };
}

const slot = { crossfaded: 2000, joined: 3000 };
const tracks = new Map([
  [2, { id: 2, title: 'B', artist: null, album: null, duration: 3, slotMs: slot }],
]);
const heard = { trackId: 1, startedAt: 10_000, jingle: false, slotMs: slot };

describe('programme anchors', () => {
  it('plans from the track heard when nothing is committed', () => {
    expect(anchorAfter(heard, [], tracks)).toBe(heard);
    expect(anchorAfter(null, [], tracks)).toBeNull();
  });

  it('plans from an entry decoded ahead, when the track heard hands over to it', () => {
    const next = planned(2, 12_100);
    expect(anchorAfter(heard, [{ entry: next, taken: false }], tracks)).toEqual({
      trackId: 2,
      startedAt: 12_000,
      jingle: false,
      interruptAt: null,
      slotMs: slot,
    });
    // Into a jingle: joined, not crossfaded.
    const jingle = planned(2, 13_100, { jingle: true });
    expect(anchorAfter(heard, [{ entry: jingle, taken: false }], tracks)?.startedAt).toBe(13_000);
  });

  it('plans from an interrupting entry decoded ahead at its cut, and marks the interrupt made', () => {
    const cut = planned(2, 11_000, { interrupts: true });
    expect(anchorAfter(heard, [{ entry: cut, taken: false }], tracks)).toMatchObject({
      startedAt: 11_000,
      interruptAt: 11_000,
    });
  });

  it('plans from an entry taken and not heard yet, at its planned time', () => {
    const taken = planned(2, 12_100);
    expect(anchorAfter(heard, [{ entry: taken, taken: true }], tracks)?.startedAt).toBe(12_100);
  });
});

describe('planned requests', () => {
  it('rounds to the second and reports only the requests whose time moved', () => {
    const rows = [
      { id: 1, userId: 1, userName: 'ana', trackId: 2, notBefore: 0, plannedAt: 5000 },
      { id: 2, userId: 1, userName: 'ana', trackId: 3, notBefore: 0, plannedAt: null },
      { id: 3, userId: 1, userName: 'ana', trackId: 4, notBefore: 0, plannedAt: 9000 },
    ];
    const entries = [
      planned(2, 5300, { songRequestId: 1 }),
      planned(3, 7600, { songRequestId: 2 }),
    ];
    const { requests, changes } = plannedRequests(rows, entries);
    expect(changes).toEqual([
      { id: 2, plannedAt: 8000 },
      { id: 3, plannedAt: null },
    ]);
    expect(requests.map((r) => r.plannedAt)).toEqual([5000, 8000, null]);
  });
});
