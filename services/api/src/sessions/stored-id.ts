import { createHash } from 'node:crypto';

/**
 * What a session is stored under: a SHA-256 of its id (base64url), never the id itself, so a
 * dump of the database or of Redis holds no session a cookie could be made from.
 */
export function storedSessionId(sid: string): string {
  return createHash('sha256').update(sid).digest('base64url');
}
