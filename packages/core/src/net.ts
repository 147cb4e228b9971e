import type { AddressInfo } from 'node:net';

/**
 * The URL a process on this machine opens to reach a server listening on `address`: a
 * wildcard address (0.0.0.0, ::) becomes 127.0.0.1, and IPv6 hosts get their brackets.
 */
export function localUrl(address: AddressInfo | string | null, protocol = 'http'): string {
  if (address === null || typeof address === 'string') {
    throw new TypeError('localUrl: the server is not listening on a TCP port');
  }
  const wildcard = address.address === '0.0.0.0' || address.address === '::';
  const host = wildcard
    ? '127.0.0.1'
    : address.family === 'IPv6'
      ? `[${address.address}]`
      : address.address;
  return `${protocol}://${host}:${address.port}`;
}
