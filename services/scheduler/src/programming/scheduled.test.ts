import { describe, expect, it } from '@jest/globals';
import {
  inputs,
  jingleTrack,
  MIN,
  playlist,
  schedule,
  songs,
  start,
  T0,
} from '../../bench/fixture.ts';
import { initialState, plan } from './planner.ts';

const fresh = () => initialState([], []);
const HOUR = 60 * MIN;

describe('scheduled playlists and live slots', () => {
  const tracks = songs(60, 60);
  const day = playlist(
    1,
    tracks.slice(0, 30).map((t) => t.id),
    { name: 'Day' },
  );
  const morning = playlist(
    2,
    tracks.slice(30).map((t) => t.id),
    { name: 'Morning' },
  );

  it('starts after the track in progress, lets the last one finish, and falls back to rotation', () => {
    // Ends at 10:01, inside the track starting at 10:00 (songs are 3 minutes from 08:00).
    const span = schedule(7, {
      playlistId: 2,
      startTime: '09:00',
      endTime: '10:01',
      title: 'Morning show',
    });
    const input = inputs(tracks, { playlists: [day, morning], schedules: [span] });
    const entries = plan(input, fresh(), start(), T0 + 3 * HOUR);
    const first = entries.findIndex((e) => e.source === 'scheduled');
    expect(entries[first]?.at).toBeGreaterThanOrEqual(T0 + HOUR);
    expect(entries[first - 1]?.at).toBeLessThan(T0 + HOUR);
    expect(entries[first]?.reason).toBe('scheduled: Morning show');
    expect(entries[first]?.scheduleId).toBe(7);
    const last = entries.findLastIndex((e) => e.source === 'scheduled');
    expect(entries[last]?.at).toBe(T0 + 2 * HOUR);
    expect(entries[last]?.end).toBe(T0 + 2 * HOUR + 3 * MIN);
    expect(entries[last + 1]?.source).toBe('rotation');
    expect(entries.slice(first, last + 1).every((e) => e.playlistId === 2)).toBe(true);
  });

  it('interrupts at the span start, even a hand queue', () => {
    const span = schedule(7, {
      playlistId: 2,
      startTime: '09:00',
      endTime: '10:00',
      startMode: 'interrupt',
    });
    const queue = Array.from({ length: 30 }, (_, i) => ({
      requestId: `q${i}`,
      trackId: i + 1,
      kind: 'request' as const,
    }));
    // From 08:00:10, so 09:00 falls inside a track.
    const entries = plan(
      inputs(tracks, { playlists: [day, morning], schedules: [span], queue }),
      fresh(),
      start(T0 + 10_000),
      T0 + 3 * HOUR,
    );
    const first = entries.findIndex((e) => e.source === 'scheduled');
    expect(entries[first]).toMatchObject({ at: T0 + HOUR, interrupts: true, playlistId: 2 });
    expect(entries[first - 1]).toMatchObject({ source: 'queue', end: T0 + HOUR });
    // Then the hand queue goes on: the span replaces the rotation, not the queue.
    expect(entries[first + 1]?.source).toBe('queue');
  });

  it('keeps spans and hourly minutes on time across the spring change in Europe/Berlin', () => {
    const berlin = {
      timeZone: 'Europe/Berlin',
      artistSeparationMs: 30 * MIN,
      trackSeparationMs: 180 * MIN,
      seed: 7,
    };
    const rule = playlist(9, [100], {
      kind: 'hourly_at',
      interval: 0,
      jingle: true,
      startMode: 'interrupt',
    });
    // Sunday 29 March 2026: a span from 02:30, which does not exist, starts at 03:00 CEST.
    const span = schedule(7, {
      playlistId: 2,
      days: 0b1000000,
      startTime: '02:30',
      endTime: '04:00',
      startMode: 'interrupt',
    });
    const input = inputs([...tracks, jingleTrack(100)], {
      config: berlin,
      playlists: [day, morning, rule],
      schedules: [span],
    });
    const from = Date.parse('2026-03-28T23:50:10Z');
    const entries = plan(input, fresh(), start(from), Date.parse('2026-03-29T03:10:00Z'));
    const ids = entries
      .filter((e) => e.jingle)
      .map((e) => new Date(e.at).toISOString().slice(11, 16));
    // 01:00 CET, then 03:00 (after the show's first track: the span starting then goes
    // first), 04:00 and 05:00 CEST.
    expect(ids).toEqual(['00:00', '01:03', '02:00', '03:00']);
    const scheduled = entries.filter((e) => e.source === 'scheduled');
    expect(scheduled[0]).toMatchObject({
      at: Date.parse('2026-03-29T01:00:00Z'),
      interrupts: true,
    });
    expect(scheduled.at(-1)?.at).toBeLessThan(Date.parse('2026-03-29T02:00:00Z'));
  });

  it('keeps an interrupt planned a moment after its time, not later', () => {
    const span = schedule(7, {
      playlistId: 2,
      startTime: '09:00',
      endTime: '10:00',
      startMode: 'interrupt',
    });
    const input = inputs(tracks, { playlists: [day, morning], schedules: [span] });
    const onAir = { trackId: 1, startedAt: T0 + HOUR - MIN, jingle: false };
    const late = plan(input, fresh(), { now: T0 + HOUR + 1500, onAir }, T0 + 2 * HOUR);
    expect(late[0]).toMatchObject({ at: T0 + HOUR, interrupts: true, source: 'scheduled' });
    const later = plan(input, fresh(), { now: T0 + HOUR + 2500, onAir }, T0 + 2 * HOUR);
    expect(later[0]).toMatchObject({
      at: T0 + HOUR + 2 * MIN,
      interrupts: false,
      source: 'scheduled',
    });
  });

  it('does not interrupt again the track that went on air for the interrupt, heard a moment early', () => {
    const span = schedule(7, {
      playlistId: 2,
      startTime: '09:00',
      endTime: '10:00',
      startMode: 'interrupt',
    });
    const input = inputs(tracks, { playlists: [day, morning], schedules: [span] });
    const cut = { trackId: 31, startedAt: T0 + HOUR - 12, jingle: false };
    const again = plan(input, fresh(), { now: T0 + HOUR + 100, onAir: cut }, T0 + 2 * HOUR);
    expect(again[0]).toMatchObject({ at: T0 + HOUR, interrupts: true });
    const onAir = { ...cut, interruptAt: T0 + HOUR };
    const entries = plan(input, fresh(), { now: T0 + HOUR + 100, onAir }, T0 + 2 * HOUR);
    expect(entries[0]).toMatchObject({ at: T0 + HOUR - 12 + 3 * MIN, interrupts: false });
    expect(entries[0]?.playlistId).toBe(2);
  });

  it('lets the higher priority span win where spans overlap', () => {
    const low = schedule(7, { playlistId: 1, startTime: '08:00', endTime: '12:00' });
    const high = schedule(8, { playlistId: 2, startTime: '09:00', endTime: '10:00', priority: 2 });
    const entries = plan(
      inputs(tracks, { playlists: [day, morning], schedules: [low, high] }),
      fresh(),
      start(),
      T0 + 3 * HOUR,
    );
    const at = (t: number) => entries.filter((e) => e.at >= t).at(0)?.scheduleId;
    expect(at(T0)).toBe(7);
    expect(at(T0 + 65 * MIN)).toBe(8);
    expect(at(T0 + 125 * MIN)).toBe(7);
  });

  it('pauses automation for a future live slot and resumes at its end', () => {
    const dj = { id: 42, name: 'ana' };
    const slot = schedule(3, { dj, startTime: '09:00', endTime: '10:00', title: 'Ana live' });
    const entries = plan(inputs(tracks, { schedules: [slot] }), fresh(), start(), T0 + 3 * HOUR);
    const live = entries.findIndex((e) => e.source === 'live');
    expect(entries[live]).toMatchObject({
      dj,
      end: T0 + 2 * HOUR,
      reason: 'live: Ana live',
      trackId: null,
    });
    expect(entries[live]?.at).toBeGreaterThanOrEqual(T0 + HOUR);
    expect(entries[live - 1]?.end).toBe(entries[live]?.at);
    expect(entries[live + 1]?.at).toBe(T0 + 2 * HOUR);
  });

  it('lists a current slot first, holding automation only while its DJ is on air', () => {
    const dj = { id: 42, name: 'ana' };
    const slot = schedule(3, { dj, startTime: '07:30', endTime: '09:00' });
    const absent = plan(inputs(tracks, { schedules: [slot] }), fresh(), start(), T0 + HOUR);
    expect(absent[0]).toMatchObject({ source: 'live', at: T0 - 30 * MIN, end: T0 + HOUR });
    expect(absent[1]).toMatchObject({ source: 'rotation', at: T0 });
    const onAir = plan(
      inputs(tracks, { schedules: [slot], liveOnAir: { djId: 42 } }),
      fresh(),
      start(),
      T0 + 2 * HOUR,
    );
    expect(onAir[0]?.source).toBe('live');
    expect(onAir[1]).toMatchObject({ source: 'rotation', at: T0 + HOUR });
  });
});
