import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { INTERNAL_HOSTS, RefusedUrlError, SsrfGuard } from '../src/webhooks/ssrf-guard.ts';

/* What a webhook URL may reach, on this machine's real resolver. */

/**
 * The names docker-compose.yml gives its containers on the stack's network: every service
 * (whatever its profile), and any `container_name`, `hostname` or network `aliases`. Read
 * line by line (the file is plain block YAML, two-space indents; no YAML parser is a
 * dependency of the api).
 */
function composeNames(text: string): string[] {
  const names = new Set<string>();
  let inServices = false;
  let inAliases = false;
  for (const line of text.split('\n')) {
    if (/^\S/.test(line) && !line.startsWith('#')) inServices = /^services:\s*$/.test(line);
    if (!inServices) continue;
    const service = /^ {2}([\w.-]+):\s*(#.*)?$/.exec(line);
    if (service?.[1]) names.add(service[1]);
    const named = /^\s+(?:container_name|hostname):\s*["']?([\w.-]+)/.exec(line);
    if (named?.[1]) names.add(named[1]);
    const aliases = /^(\s+)aliases:\s*(\[.*\])?/.exec(line);
    if (aliases) {
      for (const alias of (aliases[2] ?? '').replace(/[[\]"']/g, '').split(',')) {
        if (alias.trim()) names.add(alias.trim());
      }
      inAliases = aliases[2] === undefined;
      continue;
    }
    const item = /^\s+-\s*["']?([\w.-]+)["']?\s*$/.exec(line);
    if (inAliases && item?.[1]) names.add(item[1]);
    else inAliases = false;
  }
  return [...names].map((name) => name.toLowerCase());
}

describe('the webhook URL guard', () => {
  const guard = new SsrfGuard({ streamUrl: 'http://198.51.100.7:8000', allowLoopback: false });
  const refused = async (url: string) => {
    await expect(guard.check(url)).rejects.toBeInstanceOf(RefusedUrlError);
  };
  // By name: not merely because the name does not resolve outside compose.
  const refusedByName = async (url: string) => {
    await expect(guard.check(url)).rejects.toThrow(/is one of the station's own services$/);
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
    // The list itself is checked against docker-compose.yml below.
    for (const name of INTERNAL_HOSTS) {
      await refusedByName(`http://${name}:1234/`);
      await refusedByName(`https://${name.toUpperCase()}./hook`);
    }
    await refused('http://198.51.100.7/hook');
    await refused('https://198.51.100.7:443/hook');
  });

  it('refuses every name docker-compose.yml gives a container, whatever the profile', async () => {
    const file = new URL('../../../docker-compose.yml', import.meta.url);
    const names = composeNames(readFileSync(file, 'utf8'));
    // The reader found the services, those of the profiles too (else this would pass on nothing).
    expect(names).toEqual(expect.arrayContaining(['redis', 'api', 'edge', 'lb', 'prometheus']));
    expect(INTERNAL_HOSTS).toEqual(expect.arrayContaining(names));
    for (const name of names) await refusedByName(`http://${name}/`);
    // The reader also sees the other names a container may be given.
    const other = [
      'services:',
      '  # a comment',
      '  cache:',
      '    container_name: radio-cache',
      '    hostname: "cache-host"',
      '    networks:',
      '      default:',
      '        aliases:',
      '          - memo',
      '          - "kv"',
      '    command: ["x"]',
      '  queue:',
      '    networks:',
      '      default:',
      '        aliases: [jobs, "work"]',
      'volumes:',
      '  data:',
    ].join('\n');
    expect(composeNames(other).sort()).toEqual(
      ['cache', 'cache-host', 'jobs', 'kv', 'memo', 'queue', 'radio-cache', 'work'].sort(),
    );
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
