import { createHash, timingSafeEqual } from 'node:crypto';

/** The admin login that guards a service's /metrics. */
export interface AdminLogin {
  readonly user: string;
  readonly password: string;
}

/** Hashing first gives both sides the same length, so the comparison takes the same time. */
function sameSecret(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

/**
 * Whether a `Basic` Authorization header carries the admin's user and password. Both parts are
 * compared in constant time and always both, so a wrong user answers as fast as a wrong
 * password.
 */
export function checkBasicAuth(header: string | undefined, login: AdminLogin): boolean {
  const match = header ? /^\s*basic\s+([A-Za-z0-9+/=_-]+)\s*$/i.exec(header) : null;
  if (!match) return false;
  const decoded = Buffer.from(match[1] as string, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return false;
  const userOk = sameSecret(decoded.slice(0, colon), login.user);
  const passwordOk = sameSecret(decoded.slice(colon + 1), login.password);
  return userOk && passwordOk;
}
