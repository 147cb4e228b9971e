import { networkInterfaces } from 'node:os';
import { beforeAll, describe, expect, it } from '@jest/globals';
import { RefusedUrlError, SsrfGuard } from '../src/webhooks/ssrf-guard.ts';

/*
 * Addresses that lead somewhere a webhook must not go, beyond loopback and the compose
 * services (webhooks-ssrf.test.ts): clouds' metadata over IPv6, NAT64 (an IPv4 address in an
 * IPv6 one), carrier-grade NAT, and the machine the api runs on. On the real resolver.
 */

/** This machine's addresses that are not loopback, as os.networkInterfaces() lists them. */
function machineAddresses(): string[] {
  return Object.values(networkInterfaces())
    .flatMap((entries) => entries ?? [])
    .filter((entry) => !entry.internal && !entry.address.startsWith('fe80:'))
    .map((entry) => entry.address);
}

describe('the webhook URL guard, on addresses in disguise', () => {
  const guard = new SsrfGuard({ streamUrl: 'http://198.51.100.7:8000', allowLoopback: false });
  // Tests let receivers on loopback through; nothing else of the machine's is let through.
  const testing = new SsrfGuard({ streamUrl: 'http://127.0.0.1:8000', allowLoopback: true });
  // The first check waits for the compose service names to resolve, which a name server that
  // drops the queries makes take 5 s a name: resolved here, outside the tests' own time.
  beforeAll(() => Promise.all([guard.refresh(), testing.refresh()]), 120_000);
  const refusedAs = async (url: string, what: RegExp) => {
    const refusal = guard.check(url);
    await expect(refusal).rejects.toBeInstanceOf(RefusedUrlError);
    await expect(refusal).rejects.toThrow(what);
  };

  it("refuses the clouds' metadata addresses over IPv6", async () => {
    for (const url of [
      'http://[fd00:ec2::254]/latest/meta-data/',
      'http://[fd00:ec2::23]/',
      'http://[fd20:ce::254]/computeMetadata/v1/',
      'http://[fd00:c1::a9fe:a9fe]/opc/v2/instance/',
    ]) {
      await refusedAs(url, /instance metadata address$/);
    }
  });

  it('refuses NAT64 addresses, which carry an IPv4 address to a translator', async () => {
    await refusedAs('http://[64:ff9b::7f00:1]/', /NAT64/);
    await refusedAs('http://[64:ff9b::a9fe:a9fe]/', /NAT64/);
    await refusedAs('http://[64:ff9b:1::a00:1]/', /NAT64/);
    await refusedAs('http://[64:ff9b:1:ffff::1]/', /NAT64/);
  });

  it("refuses carrier-grade NAT addresses, v4-mapped too (Alibaba's metadata among them)", async () => {
    for (const url of [
      'http://100.64.0.1/',
      'http://100.100.100.200/latest/meta-data/',
      'http://100.127.255.254/',
      'http://[::ffff:100.64.0.1]/',
    ]) {
      await refusedAs(url, /carrier-grade NAT address$/);
    }
  });

  it("refuses this machine's own addresses, v4-mapped too, even when loopback is let through", async () => {
    const own = machineAddresses();
    // The addresses the machine has are what is tested: it must have one besides loopback.
    expect(own.length).toBeGreaterThan(0);
    for (const address of own) {
      const host = address.includes(':') ? `[${address}]` : address;
      await refusedAs(`http://${host}:8080/`, /an address of the machine the api runs on$/);
      await expect(testing.check(`http://${host}:3000/`)).rejects.toThrow(/of the machine/);
      if (!address.includes(':')) {
        await refusedAs(`http://[::ffff:${address}]/`, /of the machine/);
      }
    }
  });

  it('allows the addresses just outside those ranges', async () => {
    for (const url of [
      'http://100.63.255.255/',
      'http://100.128.0.1/',
      'http://[64:ff9c::7f00:1]/',
      'http://[fd00:ec3::254]/',
      'http://[fd20:cf::254]/',
    ]) {
      expect((await guard.check(url)).url.href).toBe(url);
    }
  });
});
