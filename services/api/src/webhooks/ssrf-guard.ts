import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/*
 * A webhook may point anywhere on the internet or the operator's own network, but never at the
 * station's own services: Redis, PostgreSQL, the stream server's admin routes and the api
 * itself would otherwise be reachable through the api (server-side request forgery). The
 * name is resolved and every address checked, on save and again right before each send (the
 * send then connects to the checked address, so a name cannot change its answer in between).
 */

/**
 * Every service of docker-compose.yml, those of the `scale` and `monitoring` profiles too:
 * refused by name whatever they resolve to, and their addresses refused under any other name
 * (a container's own name, `<project>-edge-1`, resolves to the same address). The one list: a
 * service added to docker-compose.yml is added here, and webhooks-ssrf.test.ts reads the
 * compose file to check that none is missing.
 */
export const INTERNAL_HOSTS = [
  'redis',
  'postgres',
  'stream',
  'scheduler',
  'api',
  'web',
  // The `scale` profile: the edge relays and HAProxy in front of them.
  'edge',
  'lb',
  // The `monitoring` profile.
  'prometheus',
] as const;

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');
LOOPBACK.addSubnet('::ffff:127.0.0.0', 104, 'ipv6');

function isLoopback(address: string, family: 4 | 6): boolean {
  return LOOPBACK.check(address, family === 6 ? 'ipv6' : 'ipv4');
}

/** Link-local and unspecified addresses, in both families (and v4-mapped v6). */
function reservedAddresses(): BlockList {
  const list = new BlockList();
  list.addSubnet('0.0.0.0', 8, 'ipv4');
  list.addSubnet('169.254.0.0', 16, 'ipv4');
  list.addAddress('::', 'ipv6');
  list.addSubnet('fe80::', 10, 'ipv6');
  list.addSubnet('::ffff:0.0.0.0', 104, 'ipv6');
  list.addSubnet('::ffff:169.254.0.0', 112, 'ipv6');
  return list;
}

export interface SsrfGuardOptions {
  /** The api's STREAM_URL: its host's addresses are refused too. */
  streamUrl: string;
  /** Lets receivers on loopback through (tests run them on 127.0.0.1). Default false. */
  allowLoopback: boolean;
  /** How long the internal hosts' addresses are kept before they are resolved again (ms). */
  internalCacheMs?: number;
}

/** A URL a webhook may not use, and why. */
export class RefusedUrlError extends Error {}

export interface CheckedTarget {
  url: URL;
  /** Every address the host resolved to, all allowed; a send connects to the first. */
  addresses: Array<{ address: string; family: 4 | 6 }>;
}

function bareHost(url: URL): string {
  return url.hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
}

async function resolveAll(host: string): Promise<Array<{ address: string; family: 4 | 6 }>> {
  const family = isIP(host);
  if (family === 4 || family === 6) return [{ address: host, family }];
  const found = await lookup(host, { all: true, verbatim: true });
  return found.map((entry) => ({ address: entry.address, family: entry.family === 6 ? 6 : 4 }));
}

export class SsrfGuard {
  readonly #options: SsrfGuardOptions;
  readonly #reserved: BlockList;
  #internal: { addresses: Set<string>; until: number } | null = null;
  #resolving: Promise<Set<string>> | null = null;

  constructor(options: SsrfGuardOptions) {
    this.#options = options;
    this.#reserved = reservedAddresses();
  }

  /** The URL and its allowed addresses; throws RefusedUrlError when it may not be used. */
  async check(text: string): Promise<CheckedTarget> {
    if (!URL.canParse(text)) throw new RefusedUrlError('not a URL');
    const url = new URL(text);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new RefusedUrlError('only http and https URLs are allowed');
    }
    if (url.username || url.password) {
      throw new RefusedUrlError('put credentials in the secret, not in the URL');
    }
    const host = bareHost(url);
    if ((INTERNAL_HOSTS as readonly string[]).includes(host) || host === 'localhost') {
      if (!(host === 'localhost' && this.#options.allowLoopback)) {
        throw new RefusedUrlError(`"${host}" is one of the station's own services`);
      }
    }
    let addresses: CheckedTarget['addresses'];
    try {
      addresses = await resolveAll(host);
    } catch {
      throw new RefusedUrlError(`the host "${host}" does not resolve`);
    }
    if (addresses.length === 0) throw new RefusedUrlError(`the host "${host}" does not resolve`);
    const internal = await this.#internalAddresses();
    for (const { address, family } of addresses) {
      const loopback = isLoopback(address, family);
      if (
        (loopback && !this.#options.allowLoopback) ||
        this.#reserved.check(address, family === 6 ? 'ipv6' : 'ipv4')
      ) {
        throw new RefusedUrlError(
          `${host} resolves to ${address}, a loopback, link-local or unspecified address`,
        );
      }
      if (internal.has(address)) {
        throw new RefusedUrlError(
          `${host} resolves to ${address}, one of the station's own services`,
        );
      }
    }
    return { url, addresses };
  }

  /**
   * The addresses of the compose services and of the stream server's host, resolved now and
   * then: outside compose the service names do not resolve, which is fine. A name server may
   * take seconds to say so (a dropped query waits out the resolver's 5 s timeout), so the
   * names are resolved once at a time, and a set past its time is used while it is resolved
   * again: only the first check of a process waits.
   */
  #internalAddresses(): Promise<Set<string>> {
    const known = this.#internal;
    if (known && known.until > Date.now()) return Promise.resolve(known.addresses);
    const fresh = this.refresh();
    if (!known) return fresh;
    fresh.catch(() => undefined);
    return Promise.resolve(known.addresses);
  }

  /** Resolves the internal names again (one resolution at a time); the worker calls it at start. */
  refresh(): Promise<Set<string>> {
    this.#resolving ??= this.#resolveInternal().finally(() => {
      this.#resolving = null;
    });
    return this.#resolving;
  }

  async #resolveInternal(): Promise<Set<string>> {
    const streamHost = bareHost(new URL(this.#options.streamUrl));
    const names = [...INTERNAL_HOSTS, streamHost];
    const found = await Promise.all(names.map((name) => resolveAll(name).catch(() => [])));
    const addresses = new Set<string>();
    for (const entry of found.flat()) {
      // Tests run the stream server on loopback too; allowLoopback lets receivers share it.
      if (this.#options.allowLoopback && isLoopback(entry.address, entry.family)) continue;
      addresses.add(entry.address);
    }
    this.#internal = { addresses, until: Date.now() + (this.#options.internalCacheMs ?? 30_000) };
    return addresses;
  }
}
