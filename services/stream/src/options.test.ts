import { describe, expect, test } from '@jest/globals';
import { StreamConfigError } from './errors.ts';
import { isValidMountPath, resolveOptions } from './options.ts';

const base = { adminUser: 'admin', adminPassword: 'a', sourcePassword: 's' };

describe('options', () => {
  test('defaults: the three station mounts, Icecast-like limits', () => {
    const options = resolveOptions(base);
    expect(options.mounts.map((m) => [m.path, m.contentType, m.bitrate, m.quality])).toEqual([
      ['/radio.mp3', 'audio/mpeg', 128, 'high'],
      ['/radio.aac', 'audio/aac', 96, 'high'],
      ['/radio-low.mp3', 'audio/mpeg', 64, 'low'],
    ]);
    expect(options).toMatchObject({
      burstSize: 65536,
      queueLimit: 524288,
      sourceGraceMs: 10_000,
      sourceTimeoutMs: 10_000,
      port: 8000,
    });
  });

  test.each([
    [{ ...base, adminPassword: '' }, /adminPassword is required/],
    [{ ...base, port: 70000 }, /port must be an integer/],
    [{ ...base, burstSize: -1 }, /burstSize/],
    [{ ...base, mounts: [{ path: 'radio.mp3', contentType: 'audio/mpeg' }] }, /mounts\[0\]\.path/],
    [{ ...base, mounts: [{ path: '/a.mp3', contentType: 'mpeg' }] }, /contentType/],
    [
      {
        ...base,
        mounts: [
          { path: '/a.mp3', contentType: 'audio/mpeg' },
          { path: '/a.mp3', contentType: 'audio/mpeg' },
        ],
      },
      /configured twice/,
    ],
    [
      { ...base, mounts: [{ path: '/a.mp3', contentType: 'audio/mpeg', fallbackMount: '/a.mp3' }] },
      /own fallback/,
    ],
  ])('refuses bad options with STREAM_INVALID_OPTIONS (%#)', (options, message) => {
    expect(() => resolveOptions(options as Parameters<typeof resolveOptions>[0])).toThrow(message);
    try {
      resolveOptions(options as Parameters<typeof resolveOptions>[0]);
    } catch (error) {
      expect(error).toBeInstanceOf(StreamConfigError);
      expect((error as StreamConfigError).code).toBe('STREAM_INVALID_OPTIONS');
    }
  });

  test('mount paths', () => {
    expect(isValidMountPath('/radio.mp3')).toBe(true);
    expect(isValidMountPath('/live/show.aac')).toBe(true);
    for (const bad of ['', '/', 'radio', '/a b', '/../x', '/admin', '/admin/stats', '/x?y']) {
      expect(isValidMountPath(bad)).toBe(false);
    }
  });
});
