import { describe, expect, it } from '@jest/globals';
import {
  inputs,
  jingleTrack,
  MIN,
  playlist,
  playOut,
  schedule,
  songs,
  start,
} from '../../bench/fixture.ts';
import { initialState } from './planner.ts';
import type { PlannedEntry, PlannerInputs } from './planner-api.ts';

const ARTIST_MS = 30 * MIN;
const TRACK_MS = 180 * MIN;

/** Separation as the rules state it, checked over what played (jingles neither count nor are checked). */
function violations(input: PlannerInputs, played: readonly PlannedEntry[]): string[] {
  const trackLast = new Map<number, number>();
  const artistLast = new Map<string, number>();
  const found: string[] = [];
  for (const entry of played) {
    if (entry.jingle || entry.trackId === null) continue;
    const artist = input.tracks.get(entry.trackId)?.artist ?? '';
    const trackGap = entry.at - (trackLast.get(entry.trackId) ?? Number.NEGATIVE_INFINITY);
    const artistGap = entry.at - (artistLast.get(artist) ?? Number.NEGATIVE_INFINITY);
    if (trackGap < TRACK_MS) found.push(`track ${entry.trackId} again after ${trackGap / MIN} min`);
    if (artistGap < ARTIST_MS) found.push(`${artist} again after ${artistGap / MIN} min`);
    trackLast.set(entry.trackId, entry.at);
    artistLast.set(artist, entry.at);
  }
  return found;
}

describe('separation', () => {
  it('holds over 10,000 picks from 200 tracks by 40 artists', () => {
    const tracks = [...songs(200, 40), jingleTrack(1000)];
    const ids = tracks.filter((t) => t.id < 1000).map((t) => t.id);
    const input = inputs(tracks, {
      playlists: [
        playlist(1, ids.slice(0, 120), { weight: 2 }),
        playlist(2, ids.slice(80), { order: 'sequential' }),
        playlist(
          3,
          ids.filter((id) => id % 2 === 0),
          { order: 'random' },
        ),
        playlist(9, [1000], { kind: 'every_n_songs', interval: 5, jingle: true }),
      ],
      // Playlist 3 plays daily 10:00-13:00 in place of the rotation.
      schedules: [schedule(1, { playlistId: 3, startTime: '10:00', endTime: '13:00' })],
    });
    const { played } = playOut(input, initialState([], []), start(), 10_000);
    expect(played).toHaveLength(10_000);
    expect(violations(input, played)).toEqual([]);
    expect(played.filter((e) => e.reason.includes('('))).toEqual([]);
    const sources = new Set(played.map((e) => e.source));
    expect([...sources].sort()).toEqual(['jingle', 'rotation', 'scheduled']);
  });

  it('relaxes in the documented order with a tiny library and never leaves a slot empty', () => {
    // 5 songs by 2 artists: the rules cannot hold, so each pick must be the least relaxed possible.
    const tracks = songs(5, 2);
    const input = inputs(tracks);
    const { played } = playOut(input, initialState([], []), start(), 500);
    expect(played).toHaveLength(500);
    const trackLast = new Map<number, number>();
    const artistLast = new Map<string, number>();
    const seen = new Set<string>();
    for (const entry of played) {
      const levels = tracks.map((t) => {
        const trackAge = entry.at - (trackLast.get(t.id) ?? Number.NEGATIVE_INFINITY);
        const artistAge = entry.at - (artistLast.get(t.artist ?? '') ?? Number.NEGATIVE_INFINITY);
        if (trackAge >= TRACK_MS)
          return artistAge >= ARTIST_MS ? 0 : artistAge >= ARTIST_MS / 2 ? 1 : 2;
        return trackAge >= TRACK_MS / 2 ? 3 : 4;
      });
      const least = Math.min(...levels);
      const picked = tracks.findIndex((t) => t.id === entry.trackId);
      expect(levels[picked]).toBe(least);
      if (least === 4) {
        // The least recently played of them all.
        const oldest = Math.min(
          ...tracks.map((t) => trackLast.get(t.id) ?? Number.NEGATIVE_INFINITY),
        );
        expect(trackLast.get(entry.trackId ?? 0) ?? Number.NEGATIVE_INFINITY).toBe(oldest);
      }
      seen.add(entry.reason);
      trackLast.set(entry.trackId ?? 0, entry.at);
      artistLast.set(input.tracks.get(entry.trackId ?? 0)?.artist ?? '', entry.at);
    }
    // After the first five songs, every pick relaxes down to the least recently played.
    expect(seen).toContain('rotation: library (least recently played)');
  });

  it('steps through each relaxation as the library allows', () => {
    // Two artists, enough songs that track separation halves before it goes.
    const tracks = songs(50, 2);
    const { played } = playOut(inputs(tracks), initialState([], []), start(), 300);
    const reasons = new Set(played.map((e) => e.reason));
    expect(reasons).toContain('rotation: library (artist separation dropped)');
    expect(reasons).toContain('rotation: library (track separation halved)');
    expect(played).toHaveLength(300);
  });
});
