import { describe, expect, test } from '@jest/globals';
import { loadConfig, streamSpec } from '@radio/core';
import { StreamConfigError } from './errors.ts';
import { isValidMountPath, resolveOptions, streamOptionsFromConfig } from './options.ts';

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
      maxConnectionsPerClient: 100,
    });
  });

  describe('from the environment', () => {
    const env = {
      ADMIN_PASSWORD: 'admin-password-12',
      SOURCE_PASSWORD: 'source-password-12',
      DATA_DIR: '/tmp/radio-test',
    };
    const options = (extra: Record<string, string>) =>
      streamOptionsFromConfig(loadConfig(streamSpec, { ...env, ...extra }));

    test('PUBLIC_URL is what listeners are told, unless PUBLIC_STREAM_URL says otherwise', () => {
      expect(options({}).publicUrl).toBeUndefined();
      expect(options({ PUBLIC_URL: 'https://radio.example' }).publicUrl).toBe(
        'https://radio.example',
      );
      expect(
        options({ PUBLIC_URL: 'https://radio.example', PUBLIC_STREAM_URL: 'https://cdn.example' })
          .publicUrl,
      ).toBe('https://cdn.example');
    });

    test('MAX_CONNECTIONS_PER_CLIENT: 100 unless set', () => {
      expect(options({}).maxConnectionsPerClient).toBe(100);
      expect(options({ MAX_CONNECTIONS_PER_CLIENT: '500' }).maxConnectionsPerClient).toBe(500);
      expect(() => options({ MAX_CONNECTIONS_PER_CLIENT: '0' })).toThrow(
        /MAX_CONNECTIONS_PER_CLIENT/,
      );
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
    const refused = ['', '/', 'radio', '/a b', '/../x', '/admin', '/admin/stats', '/x?y'];
    // Control characters could not be written in stats.xml (nor safely in a log).
    refused.push('/a\u0001b.mp3', '/a\u001b[2J.mp3', '/a\u007f.mp3', '/a\u0085.mp3');
    for (const bad of refused) {
      expect(isValidMountPath(bad)).toBe(false);
    }
  });
});
