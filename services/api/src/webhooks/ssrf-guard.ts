import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { networkInterfaces } from 'node:os';

/*
 * A webhook may point anywhere on the internet or the operator's own network, but never at the
 * station's own services: Redis, PostgreSQL, the stream server's admin routes and the api
 * itself would otherwise be reachable through the api (server-side request forgery). Nor at
 * the machine the api runs on (in embedded mode every service listens there; in a container,
 * its own addresses), a cloud's metadata server, or addresses that lead elsewhere in disguise
 * (NAT64) or into the provider's network (carrier-grade NAT). The name is resolved and every
 * address checked, on save and again right before each send (the send then connects to the
 * checked address, so a name cannot change its answer in between).
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
  // The `tls` profile: the HTTPS reverse proxy in front of the web server.
  'caddy',
] as const;

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');
LOOPBACK.addSubnet('::ffff:127.0.0.0', 104, 'ipv6');

function isLoopback(address: string, family: 4 | 6): boolean {
  return LOOPBACK.check(address, family === 6 ? 'ipv6' : 'ipv4');
}

/**
 * Addresses no webhook may use, by what they are (a BlockList matches v4-mapped v6 addresses
 * against the v4 rules too).
 */
function reservedAddresses(): Array<{ what: string; list: BlockList }> {
  const unspecified = new BlockList();
  unspecified.addSubnet('0.0.0.0', 8, 'ipv4');
  unspecified.addAddress('::', 'ipv6');
  const linkLocal = new BlockList();
  linkLocal.addSubnet('169.254.0.0', 16, 'ipv4');
  linkLocal.addSubnet('fe80::', 10, 'ipv6');
  // The clouds' instance metadata over IPv6 (AWS's services range, GCP's and OCI's server):
  // the v4 one, 169.254.169.254, is link-local.
  const metadata = new BlockList();
  metadata.addSubnet('fd00:ec2::', 32, 'ipv6');
  metadata.addAddress('fd20:ce::254', 'ipv6');
  metadata.addAddress('fd00:c1::a9fe:a9fe', 'ipv6');
  // NAT64 (RFC 6052's well-known prefix and RFC 8215's local-use one) carries an IPv4 address
  // in its last bits to a translator that connects to it: 64:ff9b::7f00:1 is 127.0.0.1.
  const nat64 = new BlockList();
  nat64.addSubnet('64:ff9b::', 96, 'ipv6');
  nat64.addSubnet('64:ff9b:1::', 48, 'ipv6');
  // Carrier-grade NAT (RFC 6598): the provider's side of the network, Alibaba's metadata too.
  const sharedSpace = new BlockList();
  sharedSpace.addSubnet('100.64.0.0', 10, 'ipv4');
  return [
    { what: 'an unspecified address', list: unspecified },
    { what: 'a link-local address', list: linkLocal },
    { what: "a cloud's instance metadata address", list: metadata },
    { what: 'a NAT64 address (an IPv4 address in disguise)', list: nat64 },
    { what: 'a carrier-grade NAT address', list: sharedSpace },
  ];
}

/** The addresses of this machine's own interfaces (in a container, the container's). */
function ownAddresses(): Array<{ address: string; family: 4 | 6 }> {
  return Object.values(networkInterfaces()).flatMap((entries) =>
    (entries ?? []).map((entry) => ({
      address: entry.address,
      family: entry.family === 'IPv6' ? (6 as const) : (4 as const),
    })),
  );
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

/** The station's own addresses: its services' (compose, the stream server) and the machine's. */
interface InternalAddresses {
  services: BlockList;
  machine: BlockList;
}

/**
 * A BlockList of exact addresses. Loopback ones are left out: they are refused (or, for tests,
 * allowed) as loopback, so a receiver on 127.0.0.1 may share the host with the stream server.
 */
function blockListOf(addresses: ReadonlyArray<{ address: string; family: 4 | 6 }>): BlockList {
  const list = new BlockList();
  for (const { address, family } of addresses) {
    if (!isLoopback(address, family)) list.addAddress(address, family === 6 ? 'ipv6' : 'ipv4');
  }
  return list;
}

export class SsrfGuard {
  readonly #options: SsrfGuardOptions;
  readonly #reserved = reservedAddresses();
  #internal: { addresses: InternalAddresses; until: number } | null = null;
  #resolving: Promise<InternalAddresses> | null = null;

  constructor(options: SsrfGuardOptions) {
    this.#options = options;
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
      const what = this.#refusal(address, family, internal);
      if (what !== null) throw new RefusedUrlError(`${host} resolves to ${address}, ${what}`);
    }
    return { url, addresses };
  }

  /** What makes an address one a webhook may not use; null when it may. */
  #refusal(address: string, family: 4 | 6, internal: InternalAddresses): string | null {
    const type = family === 6 ? 'ipv6' : 'ipv4';
    if (isLoopback(address, family)) {
      return this.#options.allowLoopback ? null : 'a loopback address';
    }
    const reserved = this.#reserved.find(({ list }) => list.check(address, type));
    if (reserved) return reserved.what;
    if (internal.services.check(address, type)) return "one of the station's own services";
    if (internal.machine.check(address, type)) return 'an address of the machine the api runs on';
    return null;
  }

  /**
   * The addresses of the compose services, of the stream server's host and of this machine,
   * resolved now and then: outside compose the service names do not resolve, which is fine. A
   * name server may take seconds to say so (a dropped query waits out the resolver's 5 s
   * timeout), so the names are resolved once at a time, and a set past its time is used while
   * it is resolved again: only the first check of a process waits.
   */
  #internalAddresses(): Promise<InternalAddresses> {
    const known = this.#internal;
    if (known && known.until > Date.now()) return Promise.resolve(known.addresses);
    const fresh = this.refresh();
    if (!known) return fresh;
    fresh.catch(() => undefined);
    return Promise.resolve(known.addresses);
  }

  /** Resolves the internal names again (one resolution at a time); the worker calls it at start. */
  refresh(): Promise<InternalAddresses> {
    this.#resolving ??= this.#resolveInternal().finally(() => {
      this.#resolving = null;
    });
    return this.#resolving;
  }

  async #resolveInternal(): Promise<InternalAddresses> {
    const streamHost = bareHost(new URL(this.#options.streamUrl));
    const names = [...INTERNAL_HOSTS, streamHost];
    const found = await Promise.all(names.map((name) => resolveAll(name).catch(() => [])));
    const addresses = { services: blockListOf(found.flat()), machine: blockListOf(ownAddresses()) };
    this.#internal = { addresses, until: Date.now() + (this.#options.internalCacheMs ?? 30_000) };
    return addresses;
  }
}
