import { describe, expect, it } from '@jest/globals';
import { NOT_ANALYSED } from '../library/library-track.ts';
import type { QueueEntry } from '../sources/queue-entry.ts';
import { formatUptime } from './builtins.ts';
import { formatDuration, metadataLines, parseAssignment, queueLine } from './station-commands.ts';

const entry: QueueEntry = {
  requestId: '7',
  kind: 'request',
  queuedAt: 0,
  track: {
    id: 3,
    path: 'Alpha Band/01 - "Morning".mp3',
    title: 'Morning "Glory"',
    artist: 'Alpha Band',
    album: 'First Light',
    genre: null,
    year: 2021,
    trackNo: 1,
    duration: 187.5,
    format: 'mp3',
    hasCover: true,
    analysis: NOT_ANALYSED,
  },
};

describe('control formats', () => {
  it('parses every spelling of var.set', () => {
    for (const args of [
      'amplify 0.5',
      'amplify = 0.5',
      'amplify=0.5',
      'amplify= 0.5',
      'amplify =0.5',
    ]) {
      expect(parseAssignment(args)).toEqual({ name: 'amplify', value: '0.5' });
    }
    expect(parseAssignment('amplify')).toBeNull();
    expect(parseAssignment('amplify =')).toBeNull();
    expect(parseAssignment('')).toBeNull();
  });

  it('formats durations and uptime', () => {
    expect(formatDuration(0)).toBe('0:00');
    expect(formatDuration(187.9)).toBe('3:07');
    expect(formatDuration(3723)).toBe('1:02:03');
    expect(formatDuration(null)).toBe('--:--');
    expect(formatUptime(3_723_000)).toBe('0d 01h 02m 03s');
    expect(formatUptime(90_061_000)).toBe('1d 01h 01m 01s');
  });

  it('writes a queue line as id, artist - title, (path), [kind]', () => {
    expect(queueLine(entry)).toBe(
      '7 Alpha Band - Morning "Glory" (Alpha Band/01 - "Morning".mp3) [request]',
    );
  });

  it('writes metadata as key="value" lines, quotes escaped', () => {
    const lines = metadataLines(entry, '/music', { startedAt: 1_795_251_704_000 });
    expect(lines[0]).toBe('rid="7"');
    expect(lines).toContain('status="playing"');
    expect(lines).toContain('title="Morning \\"Glory\\""');
    expect(lines).toContain('artist="Alpha Band"');
    expect(lines).toContain('filename="/music/Alpha Band/01 - \\"Morning\\".mp3"');
    expect(lines).toContain('on_air_timestamp="1795251704.00"');
    expect(lines).toContain('duration="187.50"');
    expect(lines.some((line) => line.startsWith('genre='))).toBe(false);
    for (const line of lines) expect(line).toMatch(/^[a-z_]+=".*"$/);
  });
});
