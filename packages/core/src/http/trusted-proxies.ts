import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { ConfigError } from '../errors.ts';

/** `::ffff:192.0.2.1` (an IPv4 peer of a dual-stack socket) is `192.0.2.1`; case folded. */
export function normalizeAddress(address: string): string {
  const lower = address.toLowerCase();
  if (lower.startsWith('::ffff:') && isIP(lower.slice(7)) === 4) return lower.slice(7);
  return lower;
}

/**
 * One X-Forwarded-For entry as an address, or null when it is none. Proxies write the bare
 * address; some add a port (`192.0.2.1:5000`, `[2001:db8::1]:5000`), which is not part of it.
 */
function entryAddress(entry: string): string | null {
  let text = entry.trim();
  if (text.startsWith('[')) {
    const close = text.indexOf(']');
    text = close < 0 ? '' : text.slice(1, close);
  } else if (/^[\d.]+:\d+$/.test(text)) {
    text = text.slice(0, text.indexOf(':'));
  }
  return isIP(text) === 0 ? null : normalizeAddress(text);
}

const HOST_NAME = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9_-]{0,62})(?:\.[a-z0-9](?:[a-z0-9_-]{0,62}))*$/i;

/** An address with its prefix length, or null when `entry` is neither an address nor a CIDR. */
function subnetOf(entry: string): { address: string; prefix: number; family: 4 | 6 } | null {
  const [address = '', bits, extra] = entry.trim().split('/');
  const family = isIP(address);
  if (family === 0 || extra !== undefined) return null;
  const max = family === 4 ? 32 : 128;
  if (bits !== undefined && !/^\d{1,3}$/.test(bits)) return null;
  const prefix = bits === undefined ? max : Number(bits);
  if (prefix > max) return null;
  return { address: normalizeAddress(address), prefix, family: family === 4 ? 4 : 6 };
}

/**
 * Whether `entry` may stand in TRUSTED_PROXIES: an address, a CIDR, or a host name (a compose
 * service such as `web` or `caddy`, resolved to its current addresses).
 */
export function isTrustedProxyEntry(entry: string): boolean {
  return subnetOf(entry) !== null || (HOST_NAME.test(entry) && !/^[\d.]+$/.test(entry));
}

/** What a request says about itself once the proxies in front of it are accounted for. */
export interface ForwardedRequest {
  /** The client: the TCP peer, or the address a chain of trusted proxies names. */
  readonly ip: string | null;
  /** `https` when the connection, or a trusted proxy, says so. */
  readonly proto: 'http' | 'https';
  /** The Host the client asked for (a trusted proxy's X-Forwarded-Host first); lower case. */
  readonly host: string | null;
  /** Whether the TCP peer is a trusted proxy (so its X-Forwarded-* headers were believed). */
  readonly viaTrustedProxy: boolean;
}

/** The request headers `forwarded` reads (lower-case names, as node:http gives them). */
export interface ForwardingHeaders {
  readonly 'x-forwarded-for'?: string | string[] | undefined;
  readonly 'x-forwarded-proto'?: string | string[] | undefined;
  readonly 'x-forwarded-host'?: string | string[] | undefined;
  readonly host?: string | undefined;
}

/** The left-most value of a header a chain of proxies may have written (`https, http`). */
function firstValue(value: string | string[] | undefined): string | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  const first = text?.split(',')[0]?.trim();
  return first ? first : undefined;
}

function joined(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}

export interface TrustedProxiesOptions {
  /** How often host names are looked up again (a container that restarts gets a new address). */
  refreshMs?: number;
  /** Resolves a name to its addresses; node's resolver by default (tests give their own). */
  resolve?: (name: string) => Promise<string[]>;
}

/** The soonest a peer it does not trust makes it look the names up again. */
const MISS_LOOKUP_MS = 1000;

async function resolveName(name: string): Promise<string[]> {
  const found = await lookup(name, { all: true });
  return found.map((each) => each.address);
}

/**
 * TRUSTED_PROXIES, the one list every service reads: the peers whose X-Forwarded-For,
 * -Proto and -Host are believed. From anyone else those headers are ignored, since any client
 * can send them. Entries are addresses, CIDRs or host names; names are looked up at `start`
 * and again every `refreshMs`, and a name that does not resolve (a profile that is not up)
 * trusts nothing until it does.
 */
export class TrustedProxies {
  readonly #fixed = new BlockList();
  readonly #names: string[] = [];
  readonly #options: Required<TrustedProxiesOptions>;
  #resolved = new Set<string>();
  #empty: boolean;
  #timer: NodeJS.Timeout | null = null;
  #lookedUpAt = 0;
  #lookingUp: Promise<void> | null = null;

  /** `entries`: see `isTrustedProxyEntry`; throws a ConfigError naming a bad one. */
  constructor(entries: readonly string[], options: TrustedProxiesOptions = {}) {
    this.#options = {
      refreshMs: options.refreshMs ?? 30_000,
      resolve: options.resolve ?? resolveName,
    };
    for (const raw of entries) {
      const entry = raw.trim();
      const subnet = subnetOf(entry);
      if (subnet) {
        this.#fixed.addSubnet(subnet.address, subnet.prefix, subnet.family === 4 ? 'ipv4' : 'ipv6');
      } else if (isTrustedProxyEntry(entry)) {
        this.#names.push(entry.toLowerCase());
      } else {
        throw new ConfigError(
          'TRUSTED_PROXIES',
          `TRUSTED_PROXIES: "${raw}" is not an address, a CIDR or a host name`,
        );
      }
    }
    this.#empty = entries.length === 0;
  }

  /** Looks the host names up, then keeps them fresh in the background. */
  async start(): Promise<void> {
    if (this.#names.length === 0 || this.#timer) return;
    await this.#refresh();
    this.#timer = setInterval(() => void this.#refresh(), this.#options.refreshMs);
    this.#timer.unref();
  }

  close(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
  }

  /**
   * A peer it does not trust may be a proxy that started after the last lookup (compose starts
   * `web` after the api that trusts it): look the names up again now, not at the next interval,
   * so its next request is believed. At most once a second, whoever asks.
   */
  #missed(): void {
    if (this.#names.length === 0 || this.#timer === null || this.#lookingUp) return;
    if (Date.now() - this.#lookedUpAt < MISS_LOOKUP_MS) return;
    void this.#refresh();
  }

  #refresh(): Promise<void> {
    this.#lookingUp ??= this.#lookUp().finally(() => {
      this.#lookingUp = null;
    });
    return this.#lookingUp;
  }

  async #lookUp(): Promise<void> {
    this.#lookedUpAt = Date.now();
    const next = new Set<string>();
    await Promise.all(
      this.#names.map(async (name) => {
        try {
          for (const address of await this.#options.resolve(name))
            next.add(normalizeAddress(address));
        } catch {
          // Not up (yet): trusted once it resolves.
        }
      }),
    );
    this.#resolved = next;
  }

  trusts(address: string): boolean {
    if (this.#empty) return false;
    const normal = normalizeAddress(address);
    const family = isIP(normal);
    if (family === 0) return false;
    if (this.#resolved.has(normal) || this.#fixed.check(normal, family === 4 ? 'ipv4' : 'ipv6')) {
      return true;
    }
    this.#missed();
    return false;
  }

  /**
   * The client's address: the TCP peer, unless the peer is a trusted proxy; then the
   * right-most X-Forwarded-For entry that is not itself a trusted proxy (entries to its left
   * were written by the client or by proxies we know nothing of). A malformed entry ends the
   * walk at the last trusted hop; all entries trusted gives the left-most.
   */
  resolve(peer: string | undefined, forwardedFor: string | undefined): string | null {
    if (peer === undefined) return null;
    const address = normalizeAddress(peer);
    if (forwardedFor === undefined || !this.trusts(address)) return address;
    const entries = forwardedFor.split(',');
    let nearest = address;
    for (let i = entries.length - 1; i >= 0; i--) {
      const entry = entryAddress(entries[i] as string);
      if (entry === null) return nearest;
      if (!this.trusts(entry)) return entry;
      nearest = entry;
    }
    return nearest;
  }

  /**
   * Who asked, over what and for which host: the connection's own facts, with a trusted
   * proxy's X-Forwarded-For, -Proto and -Host in their place (the left-most -Proto and -Host:
   * the first proxy's, which the client reached).
   */
  forwarded(
    peer: string | undefined,
    encrypted: boolean,
    headers: ForwardingHeaders,
  ): ForwardedRequest {
    const viaTrustedProxy = peer !== undefined && this.trusts(peer);
    const ownProto = encrypted ? 'https' : 'http';
    const host =
      (viaTrustedProxy ? firstValue(headers['x-forwarded-host']) : undefined) ?? headers.host;
    const claimed = viaTrustedProxy
      ? firstValue(headers['x-forwarded-proto'])?.toLowerCase()
      : undefined;
    return {
      ip: this.resolve(peer, joined(headers['x-forwarded-for'])),
      proto: claimed === 'https' || claimed === 'http' ? claimed : ownProto,
      host: host ? host.toLowerCase() : null,
      viaTrustedProxy,
    };
  }

  /** For express's `trust proxy` setting: whether the hop at `address` is one of ours. */
  readonly expressTrust = (address: string): boolean => this.trusts(address);
}
