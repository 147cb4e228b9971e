import { describe, expect, it } from '@jest/globals';
import { RefusedUrlError, SsrfGuard } from '../src/webhooks/ssrf-guard.ts';

/* What a webhook URL may reach, on this machine's real resolver. */

describe('the webhook URL guard', () => {
  const guard = new SsrfGuard({ streamUrl: 'http://198.51.100.7:8000', allowLoopback: false });
  const refused = async (url: string) => {
    await expect(guard.check(url)).rejects.toBeInstanceOf(RefusedUrlError);
  };

  it('refuses loopback, link-local and unspecified addresses, in both families', async () => {
    for (const url of [
      'http://127.0.0.1:3000/',
      'http://127.1.2.3/',
      'http://localhost:8080/',
      'http://LOCALHOST./',
      'http://[::1]/',
      'http://[::ffff:127.0.0.1]/',
      'http://169.254.169.254/latest/meta-data',
      'http://[fe80::1]/',
      'http://0.0.0.0/',
      'http://[::]/',
    ]) {
      await refused(url);
    }
  });

  it("refuses the compose services by name and the stream server's host", async () => {
    for (const name of ['redis', 'postgres', 'stream', 'scheduler', 'api', 'web']) {
      await refused(`http://${name}:1234/`);
    }
    await refused('http://198.51.100.7/hook');
    await refused('https://198.51.100.7:443/hook');
  });

  it('refuses other schemes, credentials in the URL and names that do not resolve', async () => {
    await refused('ftp://example.com/');
    await refused('file:///etc/passwd');
    await refused('http://user:password@192.0.2.50/');
    await refused('http://no-such-host.invalid/');
    await refused('not a url');
  });

  it('allows other addresses, and gives the ones it checked to connect to', async () => {
    const target = await guard.check('https://198.51.100.8/hook');
    expect(target.addresses).toEqual([{ address: '198.51.100.8', family: 4 }]);
    expect((await guard.check('http://10.1.2.3:9000/')).url.port).toBe('9000');
    expect((await guard.check('http://[2001:db8::5]/')).addresses[0]?.family).toBe(6);
  });

  it('lets loopback through only when told (tests)', async () => {
    const open = new SsrfGuard({ streamUrl: 'http://127.0.0.1:8000', allowLoopback: true });
    expect((await open.check('http://127.0.0.1:3000/')).addresses[0]?.address).toBe('127.0.0.1');
    await expect(open.check('http://169.254.169.254/')).rejects.toBeInstanceOf(RefusedUrlError);
    await expect(open.check('http://redis/')).rejects.toBeInstanceOf(RefusedUrlError);
  });
});
