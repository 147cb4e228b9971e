import { createHash, timingSafeEqual } from 'node:crypto';

export interface Credentials {
  user: string;
  password: string;
}

/** The user and password of a `Basic` Authorization header, or null. */
export function parseBasicAuth(header: string | undefined): Credentials | null {
  if (!header) return null;
  const match = /^\s*basic\s+([A-Za-z0-9+/=_-]+)\s*$/i.exec(header);
  if (!match) return null;
  const decoded = Buffer.from(match[1] as string, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return null;
  return { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/** Compares secrets in constant time (hashing first makes the lengths equal). */
export function secretEquals(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

function matches(credentials: Credentials | null, user: string, password: string): boolean {
  if (credentials === null) return false;
  // Evaluate both so a wrong user takes as long as a wrong password.
  const userOk = secretEquals(credentials.user, user);
  const passwordOk = secretEquals(credentials.password, password);
  return userOk && passwordOk;
}

/** Source clients log in as user `source` with the source password (as with Icecast). */
export function checkSourceAuth(header: string | undefined, sourcePassword: string): boolean {
  return matches(parseBasicAuth(header), 'source', sourcePassword);
}

export function checkAdminAuth(
  header: string | undefined,
  user: string,
  password: string,
): boolean {
  return matches(parseBasicAuth(header), user, password);
}
