import { describe, expect, it } from '@jest/globals';
import { activeSpan, nextBoundary } from './active.ts';
import { daysToMask, maskToDays } from './days.ts';
import { expandSchedules } from './expand.ts';
import { findOverlap } from './overlap.ts';
import type { PlanScheduleEntry } from './types.ts';
import { fromLocal, toLocal, weekdayAt } from './zoned-time.ts';

const BERLIN = 'Europe/Berlin';
const utc = (iso: string) => Date.parse(iso);
const ALL = 0b1111111;

function entry(overrides: Partial<PlanScheduleEntry> & { id: number }): PlanScheduleEntry {
  return {
    playlistId: 1,
    dj: null,
    title: null,
    days: ALL,
    startTime: '10:00',
    endTime: '12:00',
    startDate: null,
    endDate: null,
    priority: 0,
    startMode: 'after_track',
    ...overrides,
  };
}

const iso = (spans: { start: number; end: number }[]) =>
  spans.map((s) => [new Date(s.start).toISOString(), new Date(s.end).toISOString()]);

describe('zoned time', () => {
  it('converts both ways on an ordinary day', () => {
    const at = fromLocal({ year: 2026, month: 6, day: 1, hour: 9, minute: 30 }, BERLIN);
    expect(new Date(at).toISOString()).toBe('2026-06-01T07:30:00.000Z');
    expect(toLocal(at, BERLIN)).toEqual({ year: 2026, month: 6, day: 1, hour: 9, minute: 30 });
    expect(weekdayAt(at, BERLIN)).toBe(1);
    expect(weekdayAt(utc('2026-05-31T22:30:00Z'), BERLIN)).toBe(1);
    expect(weekdayAt(utc('2026-05-31T22:30:00Z'), 'UTC')).toBe(7);
  });

  it('maps the missing hour of 29 March 2026 to 03:00 CEST', () => {
    const gap = fromLocal({ year: 2026, month: 3, day: 29, hour: 2, minute: 30 }, BERLIN);
    expect(new Date(gap).toISOString()).toBe('2026-03-29T01:00:00.000Z');
    const before = fromLocal({ year: 2026, month: 3, day: 29, hour: 1, minute: 59 }, BERLIN);
    expect(new Date(before).toISOString()).toBe('2026-03-29T00:59:00.000Z');
    const after = fromLocal({ year: 2026, month: 3, day: 29, hour: 3, minute: 0 }, BERLIN);
    expect(after).toBe(gap);
  });

  it('maps the doubled hour of 25 October 2026 to its first occurrence', () => {
    const twice = fromLocal({ year: 2026, month: 10, day: 25, hour: 2, minute: 30 }, BERLIN);
    expect(new Date(twice).toISOString()).toBe('2026-10-25T00:30:00.000Z');
    const three = fromLocal({ year: 2026, month: 10, day: 25, hour: 3, minute: 0 }, BERLIN);
    expect(new Date(three).toISOString()).toBe('2026-10-25T02:00:00.000Z');
    expect(toLocal(utc('2026-10-25T01:30:00Z'), BERLIN).hour).toBe(2);
  });
});

describe('expandSchedules', () => {
  it('lists a span that crosses midnight under the day it starts', () => {
    const night = entry({ id: 1, days: daysToMask([5]), startTime: '22:00', endTime: '02:00' });
    // Friday 2026-06-05 .. the following Monday, UTC.
    const spans = expandSchedules(
      [night],
      utc('2026-06-05T00:00:00Z'),
      utc('2026-06-08T00:00:00Z'),
      'UTC',
    );
    expect(iso(spans)).toEqual([['2026-06-05T22:00:00.000Z', '2026-06-06T02:00:00.000Z']]);
    // A window starting after midnight still sees Friday's span running into Saturday.
    const late = expandSchedules(
      [night],
      utc('2026-06-06T01:00:00Z'),
      utc('2026-06-06T03:00:00Z'),
      'UTC',
    );
    expect(late).toHaveLength(1);
  });

  it('treats an end equal to the start as a whole day', () => {
    const day = entry({ id: 1, days: daysToMask([1]), startTime: '06:00', endTime: '06:00' });
    const spans = expandSchedules(
      [day],
      utc('2026-06-01T00:00:00Z'),
      utc('2026-06-03T00:00:00Z'),
      'UTC',
    );
    expect(iso(spans)).toEqual([['2026-06-01T06:00:00.000Z', '2026-06-02T06:00:00.000Z']]);
  });

  it('keeps the wall times across the spring change in Europe/Berlin', () => {
    // Sunday 29 March 2026: 01:00-04:00 local lasts two hours; 02:30-05:00 starts at 03:00.
    const night = entry({ id: 1, days: daysToMask([7]), startTime: '01:00', endTime: '04:00' });
    const gap = entry({ id: 2, days: daysToMask([7]), startTime: '02:30', endTime: '05:00' });
    const inside = entry({ id: 3, days: daysToMask([7]), startTime: '02:10', endTime: '02:40' });
    const daily = entry({ id: 4, startTime: '08:00', endTime: '09:00' });
    const spans = expandSchedules(
      [night, gap, inside, daily],
      utc('2026-03-28T12:00:00Z'),
      utc('2026-03-30T12:00:00Z'),
      BERLIN,
    );
    const by = (id: number) => iso(spans.filter((s) => s.entry.id === id));
    expect(by(1)).toEqual([['2026-03-29T00:00:00.000Z', '2026-03-29T02:00:00.000Z']]);
    expect(by(2)).toEqual([['2026-03-29T01:00:00.000Z', '2026-03-29T03:00:00.000Z']]);
    expect(by(3)).toEqual([]);
    expect(by(4)).toEqual([
      ['2026-03-29T06:00:00.000Z', '2026-03-29T07:00:00.000Z'],
      ['2026-03-30T06:00:00.000Z', '2026-03-30T07:00:00.000Z'],
    ]);
  });

  it('keeps the wall times across the autumn change in Europe/Berlin', () => {
    // Sunday 25 October 2026: 01:00-04:00 local lasts four hours; 02:30 is the first 02:30.
    const night = entry({ id: 1, days: daysToMask([7]), startTime: '01:00', endTime: '04:00' });
    const twice = entry({ id: 2, days: daysToMask([7]), startTime: '02:30', endTime: '03:30' });
    const crossing = entry({ id: 3, days: daysToMask([6]), startTime: '23:00', endTime: '07:00' });
    const spans = expandSchedules(
      [night, twice, crossing],
      utc('2026-10-24T12:00:00Z'),
      utc('2026-10-25T12:00:00Z'),
      BERLIN,
    );
    const by = (id: number) => iso(spans.filter((s) => s.entry.id === id));
    expect(by(1)).toEqual([['2026-10-24T23:00:00.000Z', '2026-10-25T03:00:00.000Z']]);
    expect(by(2)).toEqual([['2026-10-25T00:30:00.000Z', '2026-10-25T02:30:00.000Z']]);
    // Saturday 23:00 CEST to Sunday 07:00 CET: nine hours.
    expect(by(3)).toEqual([['2026-10-24T21:00:00.000Z', '2026-10-25T06:00:00.000Z']]);
  });

  it('applies date ranges to the day a span starts, inclusively', () => {
    const limited = entry({
      id: 1,
      startTime: '23:00',
      endTime: '01:00',
      startDate: '2026-06-02',
      endDate: '2026-06-03',
    });
    const spans = expandSchedules(
      [limited],
      utc('2026-06-01T00:00:00Z'),
      utc('2026-06-06T00:00:00Z'),
      'UTC',
    );
    expect(iso(spans)).toEqual([
      ['2026-06-02T23:00:00.000Z', '2026-06-03T01:00:00.000Z'],
      ['2026-06-03T23:00:00.000Z', '2026-06-04T01:00:00.000Z'],
    ]);
  });
});

describe('activeSpan', () => {
  const spans = expandSchedules(
    [
      entry({ id: 1, startTime: '08:00', endTime: '12:00', priority: 0 }),
      entry({ id: 2, startTime: '10:00', endTime: '11:00', priority: 5 }),
      entry({ id: 3, startTime: '09:00', endTime: '12:00', priority: 0 }),
      entry({ id: 4, startTime: '08:00', endTime: '12:00', priority: 0 }),
    ],
    utc('2026-06-01T00:00:00Z'),
    utc('2026-06-02T00:00:00Z'),
    'UTC',
  );

  it('takes the highest priority, then the earliest start, then the lowest id', () => {
    expect(activeSpan(spans, utc('2026-06-01T10:30:00Z'))?.entry.id).toBe(2);
    expect(activeSpan(spans, utc('2026-06-01T11:00:00Z'))?.entry.id).toBe(1);
    expect(activeSpan(spans, utc('2026-06-01T07:59:59Z'))).toBeNull();
    expect(activeSpan(spans, utc('2026-06-01T12:00:00Z'))).toBeNull();
  });

  it('names the next boundary', () => {
    expect(nextBoundary(spans, utc('2026-06-01T08:00:00Z'))).toBe(utc('2026-06-01T09:00:00Z'));
    expect(nextBoundary(spans, utc('2026-06-01T11:00:00Z'))).toBe(utc('2026-06-01T12:00:00Z'));
    expect(nextBoundary(spans, utc('2026-06-01T12:00:00Z'))).toBeNull();
  });
});

describe('findOverlap', () => {
  const morning = entry({
    id: 1,
    days: daysToMask([1, 2, 3]),
    startTime: '06:00',
    endTime: '10:00',
  });

  it('finds a shared minute on a shared day of the same priority', () => {
    const other = entry({ id: 2, days: daysToMask([3]), startTime: '09:59', endTime: '11:00' });
    expect(findOverlap(morning, [other])).toBe(other);
  });

  it('lets spans meet end to start, and other days and priorities pass', () => {
    const after = entry({ id: 2, days: daysToMask([1]), startTime: '10:00', endTime: '11:00' });
    const otherDay = entry({ id: 3, days: daysToMask([4]), startTime: '06:00', endTime: '10:00' });
    const higher = entry({
      id: 4,
      days: daysToMask([1]),
      startTime: '07:00',
      endTime: '08:00',
      priority: 1,
    });
    expect(findOverlap(morning, [after, otherDay, higher, { ...morning }])).toBeNull();
  });

  it('follows a span across midnight into the next day, and Sunday into Monday', () => {
    const night = entry({ id: 2, days: daysToMask([7]), startTime: '22:00', endTime: '06:30' });
    expect(findOverlap(morning, [night])).toBe(night);
    const short = entry({ id: 3, days: daysToMask([7]), startTime: '22:00', endTime: '06:00' });
    expect(findOverlap(morning, [short])).toBeNull();
  });

  it('needs the date ranges to share a start day on the right weekday', () => {
    const june = { startDate: '2026-06-01', endDate: '2026-06-30' };
    const july = { startDate: '2026-07-01', endDate: '2026-07-31' };
    const a = entry({ id: 1, days: daysToMask([1]), ...june });
    const b = entry({ id: 2, days: daysToMask([1]), ...july });
    const open = entry({ id: 3, days: daysToMask([1]), startDate: '2026-06-20', endDate: null });
    expect(findOverlap(a, [b])).toBeNull();
    expect(findOverlap(a, [open])).toBe(open);
    // 2026-06-02 to 06-06 holds no Monday.
    const week = entry({ id: 4, startDate: '2026-06-02', endDate: '2026-06-06' });
    expect(findOverlap(a, [week])).toBeNull();
    // Sunday 2026-05-31 22:00-11:00 runs into Monday 1 June, the first day of a.
    const eve = entry({
      id: 5,
      days: daysToMask([7]),
      startTime: '22:00',
      endTime: '11:00',
      startDate: '2026-05-31',
      endDate: '2026-05-31',
    });
    expect(findOverlap(a, [eve])).toBe(eve);
  });

  it('converts weekdays to the bitmask and back', () => {
    expect(daysToMask([1, 7])).toBe(0b1000001);
    expect(maskToDays(0b1000001)).toEqual([1, 7]);
  });
});
