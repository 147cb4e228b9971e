import { createHash, randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from 'node:crypto';

/*
 * Password hashes with Node's scrypt (no native addon). The stored form carries its own
 * parameters, `scrypt$<log2 N>$<r>$<p>$<salt>$<key>` (base64url), so the cost can be raised
 * later without breaking existing hashes.
 */

const KEY_LENGTH = 64;
const SALT_LENGTH = 16;
const R = 8;
const P = 1;
/**
 * 2^17 with r=8, p=1: OWASP's recommendation for scrypt (Password Storage Cheat Sheet). Each
 * hash takes 128 MiB of memory and most of a second of one core (0.6-0.9 s measured on the
 * project's 2-core test machine).
 */
export const DEFAULT_SCRYPT_COST = 17;

function derive(
  password: string,
  salt: Buffer,
  cost: number,
  r: number,
  p: number,
): Promise<Buffer> {
  const N = 2 ** cost;
  const options: ScryptOptions = { N, r, p, maxmem: 256 * N * r + 1024 * 1024 };
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, KEY_LENGTH, options, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

export async function hashPassword(password: string, cost = DEFAULT_SCRYPT_COST): Promise<string> {
  if (!Number.isInteger(cost) || cost < 1 || cost > 20)
    throw new RangeError(`bad scrypt cost ${cost}`);
  const salt = randomBytes(SALT_LENGTH);
  const key = await derive(password, salt, cost, R, P);
  return ['scrypt', cost, R, P, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** False for a wrong password and for a hash this module cannot read. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, cost, r, p, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !cost || !r || !p || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64url');
  const actual = await derive(
    password,
    Buffer.from(salt, 'base64url'),
    Number(cost),
    Number(r),
    Number(p),
  );
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/**
 * Whether `stored` was made cheaper than `cost` (or with other parameters, or in a form this
 * module does not write): such a hash is replaced at the next successful login, when the
 * password is at hand.
 */
export function needsRehash(stored: string, cost = DEFAULT_SCRYPT_COST): boolean {
  const [scheme, storedCost, r, p] = stored.split('$');
  return scheme !== 'scrypt' || Number(storedCost) < cost || Number(r) !== R || Number(p) !== P;
}

/**
 * A short fingerprint of a password hash, kept in the session at login. A session whose
 * fingerprint no longer matches (the password changed, an admin reset it) is not accepted, so
 * a password change ends the other sessions of that account without a table of sessions per user.
 */
export function credentialOf(passwordHash: string): string {
  return createHash('sha256').update(passwordHash).digest('base64url').slice(0, 22);
}

/**
 * A hash of a random password at the given cost: login verifies against it when the user
 * does not exist, so the answer takes as long as for a wrong password.
 */
export function dummyHash(cost = DEFAULT_SCRYPT_COST): Promise<string> {
  return hashPassword(randomBytes(16).toString('hex'), cost);
}
