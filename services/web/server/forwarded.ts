import type { IncomingHttpHeaders, IncomingMessage, OutgoingHttpHeaders } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { ForwardedRequest, TrustedProxies } from '@radio/core';

/** Headers that describe one connection, not the message: never forwarded (RFC 9110 7.6.1). */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/** One year: browsers then refuse plain HTTP to this host until it passes without a visit. */
export const STRICT_TRANSPORT_SECURITY = 'max-age=31536000';

export function withoutHopByHop(headers: IncomingHttpHeaders): OutgoingHttpHeaders {
  const named = new Set(HOP_BY_HOP);
  // `Connection: x-foo` makes x-foo hop-by-hop too.
  const connection = headers.connection;
  if (typeof connection === 'string') {
    for (const name of connection.split(',')) named.add(name.trim().toLowerCase());
  }
  const out: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || named.has(name)) continue;
    out[name] = value;
  }
  return out;
}

/** Who asked, over what and for which host: a trusted proxy's word, else the socket's. */
export function forwardedRequest(req: IncomingMessage, trusted: TrustedProxies): ForwardedRequest {
  const encrypted = (req.socket as TLSSocket).encrypted === true;
  return trusted.forwarded(req.socket.remoteAddress, encrypted, req.headers);
}

/** The port the client reached: a trusted proxy's X-Forwarded-Port, the Host's, or the scheme's. */
function forwardedPort(req: IncomingMessage, seen: ForwardedRequest): string {
  const claimed = req.headers['x-forwarded-port'];
  const first = (Array.isArray(claimed) ? claimed[0] : claimed)?.split(',')[0]?.trim();
  if (seen.viaTrustedProxy && first && /^\d{1,5}$/.test(first)) return first;
  return seen.host?.match(/:(\d+)$/)?.[1] ?? (seen.proto === 'https' ? '443' : '80');
}

/**
 * The headers the api gets: the client's, less hop-by-hop ones, with X-Forwarded-For, -Proto,
 * -Host and -Port saying who really asked. What a trusted proxy in front of us sent is kept (the
 * peer appended to its X-Forwarded-For), so the browser's https survives this plain-HTTP hop;
 * from anyone else those headers are replaced by what the socket says, since any client can
 * write them.
 */
export function forwardedHeaders(
  req: IncomingMessage,
  trusted: TrustedProxies,
): OutgoingHttpHeaders {
  const headers = withoutHopByHop(req.headers);
  const seen = forwardedRequest(req, trusted);
  const peer = req.socket.remoteAddress ?? '';
  const prior = seen.viaTrustedProxy ? req.headers['x-forwarded-for'] : undefined;
  const priorText = Array.isArray(prior) ? prior.join(', ') : prior;
  headers['x-forwarded-for'] = priorText ? `${priorText}, ${peer}` : peer;
  headers['x-forwarded-proto'] = seen.proto;
  if (seen.host) headers['x-forwarded-host'] = seen.host;
  else delete headers['x-forwarded-host'];
  headers['x-forwarded-port'] = forwardedPort(req, seen);
  // The Host stays the browser's: the api compares it with Origin to refuse cross-site writes,
  // and the page and the api are one origin through this proxy.
  return headers;
}
