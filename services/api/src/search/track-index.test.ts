import { describe, expect, it } from '@jest/globals';
import { silentLogger } from '@radio/core';
import { ANALYSIS_PENDING, type Track } from '@radio/db';
import type { TrackListQuery } from '../dtos/tracks.dto.ts';
import { fold, searchTokens, sortKey } from './text.ts';
import { TrackIndex, type TrackIndexSource } from './track-index.ts';
import { TrackSnapshot } from './track-snapshot.ts';

let nextId = 1;
function row(fields: Partial<Track>): Track {
  const id = nextId++;
  return {
    id,
    path: `t${id}.mp3`,
    title: `Title ${id}`,
    artist: null,
    album: null,
    genre: null,
    isrc: null,
    year: null,
    track_no: null,
    duration: null,
    format: 'mp3',
    bitrate: null,
    sample_rate: null,
    channels: null,
    has_cover: 0,
    size: 1,
    mtime: 1,
    status: 'ok',
    error: null,
    added_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
    replay_gain: null,
    uploaded_by: null,
    ...ANALYSIS_PENDING,
    ...fields,
  };
}

const query = (fields: Partial<TrackListQuery> = {}): TrackListQuery => ({
  status: 'ok',
  sort: 'artist',
  order: 'asc',
  page: 1,
  limit: 50,
  ...fields,
});

describe('fold and searchTokens', () => {
  it('ignore case and accents, split on spaces and control characters', () => {
    expect(fold('Beyoncé ÅNGSTRÖM')).toBe('beyonce angstrom');
    expect(searchTokens('  Déjà   vu\u0000x ')).toEqual(['deja', 'vu', 'x']);
    expect(searchTokens('a a A')).toEqual(['a']);
    expect(searchTokens(undefined)).toEqual([]);
  });
});

describe('sortKey', () => {
  it('orders numbers by value and ignores case and accents', () => {
    const titles = [
      'track 10',
      'Track 9',
      'track 009b',
      'Éclair',
      'eclair',
      'apple',
      'Track 100',
      'zebra',
      '2 Live',
    ];
    const sorted = [...titles].sort((a, b) =>
      sortKey(a) < sortKey(b) ? -1 : sortKey(a) > sortKey(b) ? 1 : 0,
    );
    expect(sorted).toEqual([
      '2 Live',
      'apple',
      'Éclair',
      'eclair',
      'Track 9',
      'track 009b',
      'track 10',
      'Track 100',
      'zebra',
    ]);
    expect(sortKey('ABBA')).toBe(sortKey('abba'));
  });
});

describe('TrackSnapshot', () => {
  it('finds the same tracks as a plain scan, whatever the words', () => {
    const words = [
      'love',
      'night',
      'blue',
      'dance',
      'rain',
      'fire',
      'ünder',
      'star',
      'loveless',
      'x',
    ];
    const rows: Track[] = [];
    for (let i = 0; i < 600; i++) {
      rows.push(
        row({
          title: `${words[i % 10]} ${words[(i * 3) % 7]} ${i}`,
          artist: i % 5 === 0 ? null : `Artist ${words[(i * 7) % 10]}`,
          album: `Album ${i % 13}`,
          status: i % 17 === 0 ? 'missing' : 'ok',
        }),
      );
    }
    const snapshot = new TrackSnapshot(rows);
    const hay = (t: Track) => fold([t.title, t.artist ?? '', t.album ?? ''].join('\u0000'));
    for (const q of [
      'love',
      'LOVE night',
      'under',
      'ess',
      'ov',
      'x',
      'album 1',
      'artist fire 12',
      'zzz',
      '1 2',
      'e',
      '12',
      'ar 12',
      'lo ve st',
      'ün',
      'fire 1 12 123',
    ]) {
      const expected = rows
        .filter((t) => t.status === 'ok' && searchTokens(q).every((w) => hay(t).includes(w)))
        .map((t) => t.id)
        .sort((a, b) => a - b);
      const found = snapshot.search(query({ q, limit: 200, sort: 'added' }));
      expect(found.total).toBe(expected.length);
      const all: number[] = [];
      for (let page = 1; (page - 1) * 200 < found.total; page++) {
        all.push(
          ...snapshot.search(query({ q, limit: 200, page, sort: 'added' })).items.map((t) => t.id),
        );
      }
      expect(all.sort((a, b) => a - b)).toEqual(expected);
    }
  });

  it('serializes a page exactly as JSON.stringify would, and reuses results', () => {
    const rows = Array.from({ length: 300 }, (_, i) =>
      row({ title: `Song ${i} "quoted" \\ é`, artist: i % 2 ? 'Odd' : null, duration: i }),
    );
    const snapshot = new TrackSnapshot(rows);
    for (const q of [
      query({ q: 'song' }),
      query({ q: 'song', page: 3, limit: 7, sort: 'duration', order: 'desc' }),
      query({ artist: 'odd', page: 99 }),
      query({ q: 'nothing here' }),
    ]) {
      expect(JSON.parse(snapshot.searchJson(q))).toEqual(
        JSON.parse(JSON.stringify(snapshot.search(q))),
      );
      expect(snapshot.searchJson(q)).toBe(snapshot.searchJson(q));
    }
    // Many distinct searches: older results are dropped, answers stay right.
    for (let i = 0; i < 200; i++)
      expect(snapshot.search(query({ q: `song ${i}`, limit: 1 })).total).toBeGreaterThan(0);
    expect(snapshot.search(query({ q: 'song 299' })).items.map((t) => t.title)).toEqual([
      'Song 299 "quoted" \\ é',
    ]);
  });

  it('sorts with the chosen key first, unknown values last, ties by the next keys', () => {
    const rows = [
      row({ title: 'b', artist: 'Zed', album: 'A', track_no: 2, year: 2001 }),
      row({ title: 'a', artist: 'zed', album: 'A', track_no: 1, year: null }),
      row({ title: 'c', artist: null, year: 1999 }),
      row({ title: 'd', artist: 'Abba', album: 'Gold', track_no: 10, year: 2001 }),
      row({ title: 'e', artist: 'Abba', album: 'Gold', track_no: 9 }),
      row({ title: 'Track 10', artist: 'N' }),
      row({ title: 'Track 9', artist: 'N' }),
    ];
    const snapshot = new TrackSnapshot(rows);
    const titles = (q: Partial<TrackListQuery>) =>
      snapshot.search(query(q)).items.map((t) => t.title);
    expect(titles({ sort: 'artist' })).toEqual(['e', 'd', 'Track 9', 'Track 10', 'a', 'b', 'c']);
    // Unknown years last; then artist, album, track number, and the id (Track 10 was added first).
    expect(titles({ sort: 'year' })).toEqual(['c', 'd', 'b', 'e', 'Track 10', 'Track 9', 'a']);
    expect(titles({ sort: 'year', order: 'desc' })).toEqual([
      'd',
      'b',
      'c',
      'e',
      'Track 10',
      'Track 9',
      'a',
    ]);
    expect(titles({ sort: 'title', q: 'track' })).toEqual(['Track 9', 'Track 10']);
    // Few matches are sorted by rank; many by walking the order: both give the same order.
    expect(titles({ sort: 'title', order: 'desc' })).toEqual([
      'Track 10',
      'Track 9',
      'e',
      'd',
      'c',
      'b',
      'a',
    ]);
    expect(titles({ sort: 'title', order: 'desc', artist: 'abba' })).toEqual(['e', 'd']);
  });

  it('groups artists and albums over playable tracks', () => {
    const snapshot = new TrackSnapshot([
      row({ artist: 'Abba', album: 'Gold', duration: 100, year: 1992 }),
      row({ artist: 'ABBA', album: 'gold', duration: 50 }),
      row({ artist: 'Various', album: 'Hits' }),
      row({ artist: 'Other', album: 'Hits' }),
      row({ artist: 'Gone', album: 'Lost', status: 'missing' }),
    ]);
    expect(snapshot.artists({ page: 1, limit: 10 }).items).toEqual([
      { name: 'Abba', tracks: 2, albums: 1 },
      { name: 'Other', tracks: 1, albums: 1 },
      { name: 'Various', tracks: 1, albums: 1 },
    ]);
    expect(snapshot.albums({ page: 1, limit: 10 }).items).toEqual([
      { name: 'Gold', artist: 'Abba', tracks: 2, year: 1992, duration: 150 },
      { name: 'Hits', artist: null, tracks: 2, year: null, duration: 0 },
    ]);
    expect(
      snapshot.albums({ page: 1, limit: 10, artist: 'other' }).items.map((a) => a.name),
    ).toEqual(['Hits']);
  });
});

class FakeSource implements TrackIndexSource {
  rows: Track[] = [];
  version = 0;
  loads = 0;
  checks = 0;
  async loadAll(): Promise<Track[]> {
    this.loads += 1;
    return [...this.rows];
  }
  async fingerprint(): Promise<string> {
    this.checks += 1;
    return String(this.version);
  }
}

describe('TrackIndex', () => {
  it('builds once, rebuilds after invalidate, and shares one build between callers', async () => {
    const source = new FakeSource();
    source.rows = [row({ title: 'one' })];
    const index = new TrackIndex(source, { refreshMs: 60_000, logger: silentLogger() });
    const [a, b] = await Promise.all([index.snapshot(), index.snapshot()]);
    expect(a).toBe(b);
    expect(source.loads).toBe(1);
    source.rows.push(row({ title: 'two' }));
    expect((await index.snapshot()).size).toBe(1);
    index.invalidate();
    expect((await index.snapshot()).size).toBe(2);
    expect(source.loads).toBe(2);
  });

  it('notices a change without an event through the fingerprint', async () => {
    const source = new FakeSource();
    const index = new TrackIndex(source, { refreshMs: 0, logger: silentLogger() });
    expect((await index.snapshot()).size).toBe(0);
    source.rows.push(row({}));
    source.version += 1;
    expect((await index.snapshot()).size).toBe(1);
    expect((await index.snapshot()).size).toBe(1);
    expect(source.loads).toBe(2);
  });

  it('with a refresh interval, checks in the background and serves the current snapshot meanwhile', async () => {
    const source = new FakeSource();
    const index = new TrackIndex(source, { refreshMs: 1, logger: silentLogger() });
    await index.snapshot();
    source.rows.push(row({}));
    source.version += 1;
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect((await index.snapshot()).size).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect((await index.snapshot()).size).toBe(1);
  });
});
