import { describe, expect, it } from '@jest/globals';
import {
  clockOf,
  describeDays,
  describeKind,
  entryLine,
  fromLocalInput,
  intervalField,
  requestStatusText,
  requestView,
  toLocalInput,
} from './programming.ts';

const AT = Date.parse('2026-03-29T13:05:40Z');

const request = {
  id: 4,
  track: { id: 9, title: 'Song', artist: 'Band', album: null, duration: 200 },
  user: { id: 2, name: 'ana' },
  status: 'pending' as const,
  requestedAt: '2026-03-29T13:00:00.000Z',
  notBefore: '2026-03-29T13:00:00.000Z',
  plannedAt: '2026-03-29T13:05:40.000Z',
  playedAt: null,
  reason: null,
};

describe('clockOf', () => {
  it('gives HH:MM on the wall clock of a zone, daylight saving included', () => {
    expect(clockOf(AT, 'UTC')).toBe('13:05');
    expect(clockOf(AT, 'Europe/Berlin')).toBe('15:05');
    expect(clockOf(Date.parse('2026-03-28T13:05:00Z'), 'Europe/Berlin')).toBe('14:05');
  });
});

describe('request status', () => {
  it('reads the api’s answer until a live event says more', () => {
    const view = requestView(request);
    expect(requestStatusText(view, 'UTC')).toBe('Planned at about 13:05');
    const played = requestView(request, {
      id: 4,
      userId: 2,
      trackId: 9,
      status: 'played',
      plannedAt: null,
      playedAt: AT + 60_000,
      reason: null,
    });
    expect(requestStatusText(played, 'UTC')).toBe('Played at 13:06');
  });

  it('words each state', () => {
    const base = { id: 1, plannedAt: null, playedAt: null, reason: null };
    expect(requestStatusText({ ...base, status: 'pending' }, 'UTC')).toBe('Pending');
    expect(requestStatusText({ ...base, status: 'played' }, 'UTC')).toBe('Played');
    expect(requestStatusText({ ...base, status: 'removed' }, 'UTC')).toBe('Removed');
    expect(
      requestStatusText({ ...base, status: 'removed', reason: 'removed by an admin' }, 'UTC'),
    ).toBe('Removed: removed by an admin');
  });
});

describe('entryLine', () => {
  it('names the track, or the DJ of a live slot', () => {
    expect(entryLine({ track: { title: 'Song', artist: 'Band' } })).toBe('Band - Song');
    expect(entryLine({ track: { title: 'Song', artist: null } })).toBe('Song');
    expect(entryLine({ track: null, dj: { name: 'Ana' } })).toBe('Live: Ana');
    expect(entryLine({ track: null, dj: null })).toBe('Live show');
  });
});

describe('playlist programming words', () => {
  it('labels the interval by kind with its range', () => {
    expect(intervalField('every_n_songs')).toEqual({
      label: 'After every how many songs (1-100)',
      min: 1,
      max: 100,
    });
    expect(intervalField('hourly_at')?.max).toBe(59);
    expect(intervalField('every_n_minutes')?.max).toBe(1440);
    expect(intervalField('rotation')).toBeNull();
    expect(intervalField('once_at')).toBeNull();
    expect(describeKind('every_n_songs', 4)).toBe('one track after every 4 songs');
    expect(describeKind('hourly_at', 0)).toBe('one track every hour at :00');
  });

  it('names days in runs', () => {
    expect(describeDays([1, 2, 3, 4, 5])).toBe('Mon–Fri');
    expect(describeDays([7, 6])).toBe('Sat, Sun');
    expect(describeDays([1, 3, 4, 5, 7])).toBe('Mon, Wed–Fri, Sun');
    expect(describeDays([1, 2, 3, 4, 5, 6, 7])).toBe('Every day');
  });

  it('turns a datetime-local value into an instant and back', () => {
    const iso = fromLocalInput('2026-03-29T14:30');
    expect(iso).not.toBeNull();
    expect(toLocalInput(iso)).toBe('2026-03-29T14:30');
    expect(fromLocalInput('')).toBeNull();
    expect(toLocalInput(null)).toBe('');
  });
});
