import { describe, expect, it } from '@jest/globals';
import {
  formatBytes,
  formatCuePoint,
  formatDuration,
  formatLevel,
  formatLongDuration,
  plural,
  trackLine,
} from './format.ts';

describe('format', () => {
  it('formats track lengths', () => {
    expect(formatDuration(0)).toBe('0:00');
    expect(formatDuration(65.9)).toBe('1:05');
    expect(formatDuration(3723)).toBe('1:02:03');
    expect(formatDuration(null)).toBe('–');
    expect(formatDuration(Number.NaN)).toBe('–');
  });
  it('formats cue points and levels', () => {
    expect(formatCuePoint(4.25)).toBe('0:04.3');
    expect(formatCuePoint(312.5)).toBe('5:12.5');
    expect(formatCuePoint(59.96)).toBe('1:00.0');
    expect(formatCuePoint(null)).toBe('–');
    expect(formatLevel(-14.24, 'LUFS')).toBe('−14.2 LUFS');
    expect(formatLevel(0.4, 'dBTP')).toBe('0.4 dBTP');
    expect(formatLevel(-0.01, 'dB')).toBe('0.0 dB');
    expect(formatLevel(null, 'LU')).toBe('–');
  });
  it('formats long durations and sizes', () => {
    expect(formatLongDuration(30)).toBe('30 s');
    expect(formatLongDuration(125 * 60)).toBe('2 h 5 min');
    expect(formatLongDuration(3 * 86_400 + 3600)).toBe('3 d 1 h');
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(16 * 1024 * 1024)).toBe('16 MB');
  });
  it('writes counts and track lines', () => {
    expect(plural(1, 'track')).toBe('1 track');
    expect(plural(2, 'track')).toBe('2 tracks');
    expect(trackLine({ title: 'T', artist: 'A' })).toBe('A — T');
    expect(trackLine({ title: 'T', artist: null })).toBe('T');
  });
});
