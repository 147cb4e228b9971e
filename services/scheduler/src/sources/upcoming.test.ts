import { describe, expect, it } from '@jest/globals';
import { type LibraryTrack, NOT_ANALYSED } from '../library/library-track.ts';
import { RequestIds } from './queue-entry.ts';
import { Upcoming } from './upcoming.ts';

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

describe('Upcoming', () => {
  it('lists rotation picks ahead, each with its own request id', () => {
    const upcoming = new Upcoming({ ids: new RequestIds(), lookahead: 3 });
    upcoming.init([track(1), track(2), track(3), track(4)]);
    const list = upcoming.list();
    expect(list).toHaveLength(3);
    expect(list.map((e) => e.kind)).toEqual(['rotation', 'rotation', 'rotation']);
    expect(new Set(list.map((e) => e.requestId)).size).toBe(3);
    expect(new Set(list.map((e) => e.track.id)).size).toBe(3);
  });

  it('puts requests first, then new music, then playlist items, then rotation', () => {
    const upcoming = new Upcoming({ ids: new RequestIds(), lookahead: 2 });
    upcoming.init([track(1), track(2), track(3)]);
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
      expect.stringMatching(/^rotation:/),
      expect.stringMatching(/^rotation:/),
    ]);
    expect(upcoming.head()?.requestId).toBe(request.requestId);
    expect(upcoming.take(request.requestId)?.track.id).toBe(1);
    expect(upcoming.head()?.track.id).toBe(3);
  });

  it('drops a track being deleted from the queue, the picks ahead and the rotation', () => {
    const upcoming = new Upcoming({ ids: new RequestIds(), lookahead: 2 });
    upcoming.init([track(1), track(2), track(3)]);
    upcoming.push(track(1));
    upcoming.pushPlaylist([track(1), track(2)], 'append');
    const queued = upcoming.list().filter((e) => e.track.id === 1).length;
    expect(upcoming.removeTrack(1)).toBe(queued);
    for (let i = 0; i < 10; i++) {
      expect(upcoming.list().some((e) => e.track.id === 1)).toBe(false);
      const head = upcoming.head();
      if (head) upcoming.take(head.requestId);
    }
    expect(upcoming.removeTrack(1)).toBe(0);
  });

  it('replaces the queue with a playlist in replace mode', () => {
    const upcoming = new Upcoming({ ids: new RequestIds(), lookahead: 1 });
    upcoming.init([track(1), track(2)]);
    upcoming.push(track(1));
    upcoming.pushPlaylist([track(2)], 'replace');
    expect(upcoming.list().map((e) => e.kind)).toEqual(['playlist', 'rotation']);
  });

  it('drops a removed track everywhere and does not queue start-up scan additions as new', () => {
    const upcoming = new Upcoming({ ids: new RequestIds(), lookahead: 3 });
    upcoming.init([track(1), track(2)]);
    upcoming.push(track(1));
    upcoming.applyLibraryChange({ ...noChange, removed: [1] });
    expect(upcoming.list().some((e) => e.track.id === 1)).toBe(false);
    upcoming.applyLibraryChange({ ...noChange, added: [track(5)], fresh: false });
    expect(upcoming.list().some((e) => e.kind === 'new')).toBe(false);
  });

  it('is empty with no playable track and fills as soon as one appears', () => {
    const upcoming = new Upcoming({ ids: new RequestIds() });
    upcoming.init([]);
    expect(upcoming.head()).toBeNull();
    upcoming.applyLibraryChange({ ...noChange, added: [track(1)] });
    expect(upcoming.head()?.track.id).toBe(1);
    expect(upcoming.head()?.kind).toBe('new');
  });

  it('tells its listeners about each change', () => {
    const upcoming = new Upcoming({ ids: new RequestIds() });
    upcoming.init([track(1)]);
    let calls = 0;
    upcoming.onChange(() => {
      calls += 1;
    });
    const entry = upcoming.push(track(1));
    upcoming.remove(entry.requestId);
    expect(calls).toBe(2);
  });
});
