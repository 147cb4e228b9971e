import { describe, expect, test } from '@jest/globals';
import { StreamConfigError } from '../errors.ts';
import { normalizeAddress, TrustedProxies } from './client-address.ts';

describe('TrustedProxies', () => {
  const proxies = new TrustedProxies(['10.0.0.0/8', '192.168.1.7', '::1', 'fd00::/8']);

  test('from an untrusted peer, X-Forwarded-For is ignored', () => {
    expect(proxies.resolve('203.0.113.5', '8.8.8.8')).toBe('203.0.113.5');
    expect(proxies.resolve('192.168.1.8', '8.8.8.8')).toBe('192.168.1.8');
  });

  test('from a trusted peer, the right-most entry that is not a trusted proxy', () => {
    expect(proxies.resolve('10.1.2.3', '8.8.8.8')).toBe('8.8.8.8');
    // The client wrote 1.2.3.4 itself; the proxy appended the address it saw.
    expect(proxies.resolve('10.1.2.3', '1.2.3.4, 8.8.8.8')).toBe('8.8.8.8');
    // Two proxies of ours in a row.
    expect(proxies.resolve('::1', '5.9.0.1, 10.9.9.9,192.168.1.7')).toBe('5.9.0.1');
  });

  test('without the header, or with only proxies in it, or with junk', () => {
    expect(proxies.resolve('10.1.2.3', undefined)).toBe('10.1.2.3');
    expect(proxies.resolve('10.1.2.3', '10.4.4.4, 10.5.5.5')).toBe('10.4.4.4');
    expect(proxies.resolve('10.1.2.3', 'unknown')).toBe('10.1.2.3');
    expect(proxies.resolve('10.1.2.3', '8.8.8.8, garbage, 10.5.5.5')).toBe('10.5.5.5');
    expect(proxies.resolve(undefined, '8.8.8.8')).toBeNull();
  });

  test('IPv4-mapped IPv6 peers and entries are plain IPv4; ports are dropped', () => {
    expect(proxies.resolve('::ffff:10.0.0.1', '::ffff:8.8.8.8')).toBe('8.8.8.8');
    expect(proxies.resolve('::ffff:203.0.113.9', '8.8.8.8')).toBe('203.0.113.9');
    expect(proxies.resolve('10.0.0.1', '8.8.4.4:51000')).toBe('8.8.4.4');
    expect(proxies.resolve('10.0.0.1', '[2a00:1450:4001::1]:443')).toBe('2a00:1450:4001::1');
    expect(proxies.resolve('fd12::1', '2A00:1450:4001::1')).toBe('2a00:1450:4001::1');
    expect(normalizeAddress('::FFFF:1.2.3.4')).toBe('1.2.3.4');
  });

  test('an empty list trusts no one; a bad entry is refused', () => {
    expect(new TrustedProxies([]).resolve('10.0.0.1', '8.8.8.8')).toBe('10.0.0.1');
    for (const bad of ['10.0.0.0/33', 'example.com', '10.0.0.0/8/1', '::1/129', '1.2.3.4/x']) {
      expect(() => new TrustedProxies([bad])).toThrow(StreamConfigError);
    }
  });
});
