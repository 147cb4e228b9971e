import { BlockList, isIP } from 'node:net';
import { StreamConfigError } from '../errors.ts';

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

/**
 * TRUSTED_PROXIES: the peers whose X-Forwarded-For names the listener. From anyone else the
 * header is ignored, since any client can send it.
 */
export class TrustedProxies {
  readonly #list = new BlockList();
  readonly #empty: boolean;

  /** `entries`: addresses and CIDRs (`10.0.0.0/8`, `::1`); throws StreamConfigError on a bad one. */
  constructor(entries: readonly string[]) {
    this.#empty = entries.length === 0;
    for (const entry of entries) {
      const [address = '', bits, extra] = entry.trim().split('/');
      const family = isIP(address);
      const prefix = bits === undefined ? (family === 4 ? 32 : 128) : Number(bits);
      const max = family === 4 ? 32 : 128;
      if (
        family === 0 ||
        extra !== undefined ||
        (bits !== undefined && !/^\d{1,3}$/.test(bits)) ||
        prefix > max
      ) {
        throw new StreamConfigError(`trustedProxies: "${entry}" is not an address or CIDR`);
      }
      this.#list.addSubnet(normalizeAddress(address), prefix, family === 4 ? 'ipv4' : 'ipv6');
    }
  }

  trusts(address: string): boolean {
    if (this.#empty) return false;
    const family = isIP(address);
    return family !== 0 && this.#list.check(address, family === 4 ? 'ipv4' : 'ipv6');
  }

  /**
   * The listener's address: the TCP peer, unless the peer is a trusted proxy; then the
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
}
