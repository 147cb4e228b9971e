import { describe, expect, it } from '@jest/globals';
import type { TimelineEntry } from '@radio/core';
import { stationTime, timelineLine } from './programme-commands.ts';

const base: TimelineEntry = {
  at: Date.parse('2026-03-29T00:59:58Z'),
  end: Date.parse('2026-03-29T01:03:00Z'),
  source: 'rotation',
  track: { id: 1, title: 'Morning', artist: 'Alpha Band', album: null, duration: 182 },
  playlist: null,
  dj: null,
  scheduleId: null,
  songRequestId: null,
  requestId: null,
  interrupts: false,
  jingle: false,
  reason: 'rotation: whole library',
};

describe('schedule.timeline lines', () => {
  it('writes the start in station time, across a daylight-saving change', () => {
    expect(stationTime(base.at, 'UTC')).toBe('00:59:58');
    // Berlin moves from +01:00 to +02:00 at 01:00 UTC on 29 March 2026.
    expect(stationTime(base.at, 'Europe/Berlin')).toBe('01:59:58');
    expect(stationTime(base.at + 4000, 'Europe/Berlin')).toBe('03:00:02');
  });

  it('names the source, the track and why; a live slot names its DJ', () => {
    expect(timelineLine(base, 'UTC')).toBe(
      '00:59:58  rotation  Alpha Band - Morning  (rotation: whole library)',
    );
    const live: TimelineEntry = {
      ...base,
      source: 'live',
      track: null,
      dj: { id: 4, name: 'Ana' },
      reason: 'show: Friday Night',
    };
    expect(timelineLine(live, 'UTC')).toBe('00:59:58  live  Live: Ana  (show: Friday Night)');
  });
});
