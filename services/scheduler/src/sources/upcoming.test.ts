import { describe, expect, it } from '@jest/globals';
import { type LibraryTrack, NOT_ANALYSED } from '../library/library-track.ts';
import { type ProgrammeMark, RequestIds } from './queue-entry.ts';
import { type PlannedTrack, Upcoming } from './upcoming.ts';

function track(id: number): LibraryTrack {
  return {
    id,
    path: `t${id}.mp3`,
    title: `Track ${id}`,
    artist: 'Artist',
    album: null,
    genre: null,
    year: null,
    trackNo: null,
    duration: 3,
    format: 'mp3',
    hasCover: false,
    analysis: NOT_ANALYSED,
  };
}

const noChange = { added: [], updated: [], removed: [], invalid: [], paths: [], fresh: true };

function planned(id: number, source: ProgrammeMark['source'] = 'rotation'): PlannedTrack {
  return {
    track: track(id),
    kind: 'rotation',
    programme: { source, playlistId: null, jingle: false, songRequestId: null, interruptAt: null },
  };
}

describe('Upcoming', () => {
  it('lists the planned entries after the queue, each with its own request id', () => {
    const upcoming = new Upcoming({ ids: new RequestIds() });
    upcoming.setPlanned([planned(1), planned(2), planned(3)]);
    const list = upcoming.list();
    expect(list.map((e) => e.track.id)).toEqual([1, 2, 3]);
    expect(list.map((e) => e.programme?.source)).toEqual(['rotation', 'rotation', 'rotation']);
    expect(new Set(list.map((e) => e.requestId)).size).toBe(3);
  });

  it('keeps the request id of an entry planned as before, wherever it moved', () => {
    const upcoming = new Upcoming({ ids: new RequestIds() });
    const first = upcoming.setPlanned([planned(1), planned(2)]);
    const again = upcoming.setPlanned([planned(3), planned(1)]);
    expect(again[1]?.requestId).toBe(first[0]?.requestId);
    expect(again[0]?.requestId).not.toBe(first[1]?.requestId);
    const jingle = upcoming.setPlanned([planned(1, 'jingle'), planned(3)]);
    expect(jingle[0]?.requestId).not.toBe(first[0]?.requestId);
    expect(jingle[1]?.requestId).toBe(again[0]?.requestId);
  });

  it('puts requests first, then new music, then playlist items, then the plan', () => {
    const upcoming = new Upcoming({ ids: new RequestIds() });
    upcoming.setPlanned([planned(7), planned(8)]);
    upcoming.pushPlaylist([track(2), track(3)], 'append');
    upcoming.applyLibraryChange({ ...noChange, added: [track(9)] });
    const request = upcoming.push(track(1));
    upcoming.push(track(3));
    expect(upcoming.list().map((e) => `${e.kind}:${e.track.id}`)).toEqual([
      'request:1',
      'request:3',
      'new:9',
      'playlist:2',
      'playlist:3',
      'rotation:7',
      'rotation:8',
    ]);
    expect(upcoming.queued().map((e) => e.track.id)).toEqual([1, 3, 9, 2, 3]);
    expect(upcoming.head()?.requestId).toBe(request.requestId);
    expect(upcoming.take(request.requestId)?.track.id).toBe(1);
    expect(upcoming.head()?.track.id).toBe(3);
  });

  it('drops a track being deleted from the queue and the plan', () => {
    const upcoming = new Upcoming({ ids: new RequestIds() });
    upcoming.setPlanned([planned(1), planned(2)]);
    upcoming.push(track(1));
    upcoming.pushPlaylist([track(1), track(2)], 'append');
    const queued = upcoming.list().filter((e) => e.track.id === 1).length;
    expect(upcoming.removeTrack(1)).toBe(queued);
    expect(upcoming.list().some((e) => e.track.id === 1)).toBe(false);
    expect(upcoming.removeTrack(1)).toBe(0);
  });

  it('keeps a deleted track withdrawn until the library sees its file again', () => {
    const upcoming = new Upcoming({ ids: new RequestIds() });
    const changes: string[] = [];
    upcoming.onChange((change) => {
      changes.push(change);
    });
    upcoming.removeTrack(1);
    upcoming.removeTrack(2);
    expect(changes).toEqual(['withdrawn', 'withdrawn']);
    expect(upcoming.isWithdrawn(1)).toBe(true);
    // Restored from the trash (the same id) and gone for good (missing): neither is withdrawn.
    upcoming.applyLibraryChange({ ...noChange, updated: [track(1)], removed: [2] });
    expect(upcoming.isWithdrawn(1)).toBe(false);
    expect(upcoming.isWithdrawn(2)).toBe(false);
  });

  it('replaces the queue with a playlist in replace mode', () => {
    const upcoming = new Upcoming({ ids: new RequestIds() });
    upcoming.setPlanned([planned(1)]);
    upcoming.push(track(1));
    upcoming.pushPlaylist([track(2)], 'replace');
    expect(upcoming.list().map((e) => e.kind)).toEqual(['playlist', 'rotation']);
  });

  it('drops a removed track everywhere and does not queue start-up scan additions as new', () => {
    const upcoming = new Upcoming({ ids: new RequestIds() });
    upcoming.setPlanned([planned(1), planned(2)]);
    upcoming.push(track(1));
    upcoming.applyLibraryChange({ ...noChange, removed: [1] });
    expect(upcoming.list().some((e) => e.track.id === 1)).toBe(false);
    upcoming.applyLibraryChange({ ...noChange, added: [track(5)], fresh: false });
    expect(upcoming.list().some((e) => e.kind === 'new')).toBe(false);
  });

  it('queues fresh music as new', () => {
    const upcoming = new Upcoming({ ids: new RequestIds() });
    expect(upcoming.head()).toBeNull();
    upcoming.applyLibraryChange({ ...noChange, added: [track(1)] });
    expect(upcoming.head()?.track.id).toBe(1);
    expect(upcoming.head()?.kind).toBe('new');
  });

  it('tells its listeners about each change and why', () => {
    const upcoming = new Upcoming({ ids: new RequestIds() });
    const changes: string[] = [];
    upcoming.onChange((change) => {
      changes.push(change);
    });
    const entry = upcoming.push(track(1));
    upcoming.remove(entry.requestId);
    const [ahead] = upcoming.setPlanned([planned(2)]);
    upcoming.take(ahead?.requestId ?? '');
    expect(changes).toEqual(['queue', 'queue', 'plan', 'take']);
  });
});
