import { describe, expect, it } from '@jest/globals';
import {
  addDays,
  dragDelta,
  entrySpan,
  formatHm,
  layoutWeek,
  moveSchedule,
  parseHm,
  pointToMinutes,
  todayIn,
  wallClock,
  weekday,
  weekStart,
} from './calendar.ts';

const GEOMETRY = { hourHeight: 40, dayWidth: 120 };
const MONDAY = '2026-03-23';

function occurrence(scheduleId: number, start: string, end: string) {
  return { scheduleId, start, end };
}

const asWritten = (o: { start: string; end: string }) => ({
  start: wallClock(o.start),
  end: wallClock(o.end),
});

describe('dates', () => {
  it('numbers days Monday 1 to Sunday 7 and finds the week’s Monday', () => {
    expect(weekday('2026-03-23')).toBe(1);
    expect(weekday('2026-03-29')).toBe(7);
    expect(weekStart('2026-03-29')).toBe('2026-03-23');
    expect(weekStart('2026-03-23')).toBe('2026-03-23');
    expect(weekStart('2027-01-01')).toBe('2026-12-28');
  });

  it('moves across months, years and the daylight-saving Sunday', () => {
    expect(addDays('2026-03-28', 1)).toBe('2026-03-29');
    expect(addDays('2026-03-29', 1)).toBe('2026-03-30');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
  });

  it('reads today on a time zone’s wall clock', () => {
    const late = Date.parse('2026-03-23T23:30:00Z');
    expect(todayIn('UTC', late)).toBe('2026-03-23');
    expect(todayIn('Europe/Berlin', late)).toBe('2026-03-24');
  });
});

describe('wall clock', () => {
  it('takes the digits of a time written with the station’s offset', () => {
    expect(wallClock('2026-03-29T03:00:00+02:00')).toEqual({ date: '2026-03-29', minutes: 180 });
    expect(wallClock('2026-03-29T01:30:00.000+01:00')).toEqual({
      date: '2026-03-29',
      minutes: 90,
    });
  });

  it('reads a UTC time on the given zone’s clock, daylight saving included', () => {
    expect(wallClock('2026-03-29T00:30:00Z', 'Europe/Berlin')).toEqual({
      date: '2026-03-29',
      minutes: 90,
    });
    expect(wallClock('2026-03-29T01:30:00Z', 'Europe/Berlin')).toEqual({
      date: '2026-03-29',
      minutes: 210,
    });
    expect(wallClock('2026-03-29T01:30:00Z')).toEqual({ date: '2026-03-29', minutes: 90 });
  });
});

describe('the station day of an occurrence', () => {
  it('finds the day from the instant and the entry’s own wall-clock times', () => {
    // Berlin, winter (UTC+1): Friday 20:00-22:00 starts at 19:00 UTC.
    const friday = { days: [5], startTime: '20:00', endTime: '22:00' };
    expect(entrySpan(Date.parse('2026-03-27T19:00:00Z'), friday)).toEqual({
      start: { date: '2026-03-27', minutes: 1200 },
      end: { date: '2026-03-27', minutes: 1320 },
    });
    // Summer (UTC+2) after the change on 29 March: the same wall clock, an hour earlier in UTC.
    expect(entrySpan(Date.parse('2026-04-03T18:00:00Z'), friday).start).toEqual({
      date: '2026-04-03',
      minutes: 1200,
    });
  });

  it('puts a Monday 00:30 start on Monday though it is Sunday in UTC, and ends past midnight', () => {
    const monday = { days: [1], startTime: '00:30', endTime: '02:00' };
    expect(entrySpan(Date.parse('2026-03-22T23:30:00Z'), monday).start.date).toBe('2026-03-23');
    const late = { days: [7], startTime: '23:00', endTime: '01:00' };
    expect(entrySpan(Date.parse('2026-03-29T21:00:00Z'), late)).toEqual({
      start: { date: '2026-03-29', minutes: 1380 },
      end: { date: '2026-03-30', minutes: 60 },
    });
  });

  it('takes the entry’s day over another within reach (UTC-10, evening)', () => {
    const tuesday = { days: [2], startTime: '20:00', endTime: '21:00' };
    // Tuesday 20:00 at UTC-10 is Wednesday 06:00 UTC.
    expect(entrySpan(Date.parse('2026-03-25T06:00:00Z'), tuesday).start.date).toBe('2026-03-24');
  });
});

describe('times of day', () => {
  it('formats and parses HH:MM, wrapping past midnight', () => {
    expect(formatHm(0)).toBe('00:00');
    expect(formatHm(20 * 60 + 5)).toBe('20:05');
    expect(formatHm(1440 + 30)).toBe('00:30');
    expect(formatHm(-30)).toBe('23:30');
    expect(parseHm('7:45')).toBe(465);
    expect(parseHm('23:59')).toBe(1439);
    expect(parseHm('24:00')).toBeNull();
    expect(parseHm('12:60')).toBeNull();
    expect(parseHm('noon')).toBeNull();
  });
});

describe('pointer geometry', () => {
  it('finds the snapped time under a point, kept inside the day', () => {
    expect(pointToMinutes(0, GEOMETRY)).toBe(0);
    expect(pointToMinutes(40 * 9 + 25, GEOMETRY)).toBe(9 * 60 + 30);
    expect(pointToMinutes(40 * 9 + 9, GEOMETRY)).toBe(9 * 60);
    expect(pointToMinutes(40 * 30, GEOMETRY)).toBe(1440 - 15);
    expect(pointToMinutes(-5, GEOMETRY)).toBe(0);
    expect(pointToMinutes(40 * 9 + 25, GEOMETRY, 60)).toBe(9 * 60);
  });

  it('snaps a drag to the nearest quarter hour and whole day', () => {
    expect(dragDelta(0, 40, GEOMETRY)).toEqual({ minutes: 60, days: 0 });
    expect(dragDelta(0, 4, GEOMETRY)).toEqual({ minutes: 0, days: 0 });
    expect(dragDelta(0, 6, GEOMETRY)).toEqual({ minutes: 15, days: 0 });
    expect(dragDelta(-70, -95, GEOMETRY)).toEqual({ minutes: -135, days: -1 });
    expect(dragDelta(250, 0, GEOMETRY)).toEqual({ minutes: 0, days: 2 });
    expect(dragDelta(-59, -3, GEOMETRY)).toEqual({ minutes: 0, days: 0 });
  });
});

describe('moving an entry', () => {
  it('moves a one-day entry in time and across days', () => {
    expect(
      moveSchedule({ days: [3], startTime: '20:00', endTime: '22:00' }, { minutes: 60, days: 0 }),
    ).toEqual({ days: [3], startTime: '21:00', endTime: '23:00' });
    expect(
      moveSchedule({ days: [1], startTime: '08:00', endTime: '09:00' }, { minutes: 0, days: -1 }),
    ).toEqual({ days: [7], startTime: '08:00', endTime: '09:00' });
  });

  it('keeps a many-day entry’s days on a sideways drag', () => {
    expect(
      moveSchedule(
        { days: [1, 2, 3, 4, 5], startTime: '06:00', endTime: '10:00' },
        { minutes: -30, days: 2 },
      ),
    ).toEqual({ days: [1, 2, 3, 4, 5], startTime: '05:30', endTime: '09:30' });
  });

  it('moves the days along when the start crosses midnight', () => {
    expect(
      moveSchedule({ days: [5], startTime: '23:00', endTime: '23:45' }, { minutes: 90, days: 0 }),
    ).toEqual({ days: [6], startTime: '00:30', endTime: '01:15' });
    expect(
      moveSchedule(
        { days: [1, 7], startTime: '00:30', endTime: '02:00' },
        { minutes: -60, days: 0 },
      ),
    ).toEqual({ days: [6, 7], startTime: '23:30', endTime: '01:00' });
  });
});

describe('week layout', () => {
  it('puts an occurrence in its day’s column from start to end', () => {
    const blocks = layoutWeek(
      [occurrence(1, '2026-03-25T20:00:00+01:00', '2026-03-25T22:30:00+01:00')],
      MONDAY,
      asWritten,
    );
    expect(blocks).toEqual([
      expect.objectContaining({ column: 2, top: 1200, bottom: 1350, continued: false, lanes: 1 }),
    ]);
  });

  it('cuts a span across midnight in two, and Sunday night’s tail out of the week', () => {
    const blocks = layoutWeek(
      [
        occurrence(1, '2026-03-24T22:00:00+01:00', '2026-03-25T02:00:00+01:00'),
        occurrence(2, '2026-03-29T23:00:00+02:00', '2026-03-30T01:00:00+02:00'),
        occurrence(3, '2026-03-22T23:00:00+01:00', '2026-03-23T01:00:00+01:00'),
      ],
      MONDAY,
      asWritten,
    );
    const summary = blocks.map((b) => [b.occurrence.scheduleId, b.column, b.top, b.bottom]);
    expect(summary).toEqual([
      [3, 0, 0, 60],
      [1, 1, 1320, 1440],
      [1, 2, 0, 120],
      [2, 6, 1380, 1440],
    ]);
    expect(blocks.find((b) => b.column === 2)?.continued).toBe(true);
  });

  it('ends a span at midnight without an empty piece on the next day', () => {
    const blocks = layoutWeek(
      [occurrence(1, '2026-03-23T22:00:00Z', '2026-03-24T00:00:00Z')],
      MONDAY,
      asWritten,
    );
    expect(blocks.map((b) => [b.column, b.top, b.bottom])).toEqual([[0, 1320, 1440]]);
  });

  it('sets overlapping blocks side by side and lone ones full width', () => {
    const blocks = layoutWeek(
      [
        occurrence(1, '2026-03-23T08:00:00Z', '2026-03-23T12:00:00Z'),
        occurrence(2, '2026-03-23T09:00:00Z', '2026-03-23T10:00:00Z'),
        occurrence(3, '2026-03-23T10:00:00Z', '2026-03-23T11:00:00Z'),
        occurrence(4, '2026-03-23T14:00:00Z', '2026-03-23T15:00:00Z'),
      ],
      MONDAY,
      asWritten,
    );
    const lanes = blocks.map((b) => [b.occurrence.scheduleId, b.lane, b.lanes]);
    expect(lanes).toEqual([
      [1, 0, 2],
      [2, 1, 2],
      [3, 1, 2],
      [4, 0, 1],
    ]);
  });
});
