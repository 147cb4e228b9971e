import { describe, expect, test } from '@jest/globals';
import { ConfigError } from '../errors.ts';
import { waitFor } from '../testing/index.ts';
import { isTrustedProxyEntry, normalizeAddress, TrustedProxies } from './trusted-proxies.ts';

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
    for (const bad of ['10.0.0.0/33', '10.0.0.0/8/1', '::1/129', '1.2.3.4/x', '1.2.3', 'a b']) {
      expect(isTrustedProxyEntry(bad)).toBe(false);
      expect(() => new TrustedProxies([bad])).toThrow(ConfigError);
    }
  });

  test('host names are trusted at the addresses they resolve to, once started', async () => {
    const addresses = new Map([['web', ['172.18.0.5']]]);
    const named = new TrustedProxies(['web', 'caddy'], {
      resolve: async (name) => {
        const found = addresses.get(name);
        if (!found) throw new Error(`ENOTFOUND ${name}`);
        return found;
      },
      refreshMs: 60_000,
    });
    expect(named.trusts('172.18.0.5')).toBe(false);
    await named.start();
    expect(named.trusts('172.18.0.5')).toBe(true);
    expect(named.trusts('::ffff:172.18.0.5')).toBe(true);
    expect(named.trusts('172.18.0.6')).toBe(false);
    expect(named.resolve('172.18.0.5', '198.51.100.7')).toBe('198.51.100.7');
    named.close();
  });

  test('a peer it does not trust makes it look the names up again, at most once a second', async () => {
    // Compose starts `web` after the api that trusts it: the api's lookup at start finds none.
    const addresses = new Map<string, string[]>();
    let lookups = 0;
    const named = new TrustedProxies(['web'], {
      resolve: async (name) => {
        lookups++;
        const found = addresses.get(name);
        if (!found) throw new Error(`ENOTFOUND ${name}`);
        return found;
      },
      refreshMs: 3_600_000,
    });
    await named.start();
    expect(lookups).toBe(1);
    addresses.set('web', ['172.18.0.7']);
    // The new proxy is not believed at first; its requests set off a lookup (a second after
    // the last one at most)...
    expect(named.trusts('172.18.0.7')).toBe(false);
    await waitFor('the lookup it set off', () => named.trusts('172.18.0.7'), 5_000, 10);
    expect(lookups).toBe(2);
    // ...while strangers at any rate cost one lookup a second at most.
    for (let i = 0; i < 100; i++) named.trusts(`198.51.100.${i}`);
    expect(lookups).toBeLessThanOrEqual(3);
    named.close();
    named.trusts('198.51.100.200');
    expect(lookups).toBeLessThanOrEqual(3);
  });

  test('forwarded: proto and host from a trusted proxy only, the left-most of each', () => {
    const headers = {
      'x-forwarded-for': '198.51.100.7',
      'x-forwarded-proto': 'https, http',
      'x-forwarded-host': 'Radio.Example, web:8080',
      host: 'web:8080',
    };
    expect(proxies.forwarded('10.0.0.2', false, headers)).toEqual({
      ip: '198.51.100.7',
      proto: 'https',
      host: 'radio.example',
      viaTrustedProxy: true,
    });
    expect(proxies.forwarded('203.0.113.9', false, headers)).toEqual({
      ip: '203.0.113.9',
      proto: 'http',
      host: 'web:8080',
      viaTrustedProxy: false,
    });
    expect(proxies.forwarded('10.0.0.2', true, { host: 'a' }).proto).toBe('https');
    expect(proxies.forwarded('10.0.0.2', false, { 'x-forwarded-proto': 'gopher' }).proto).toBe(
      'http',
    );
  });
});
