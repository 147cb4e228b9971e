import { describe, expect, it } from '@jest/globals';
import {
  credentialOf,
  DEFAULT_SCRYPT_COST,
  hashPassword,
  needsRehash,
  verifyPassword,
} from './passwords.ts';

describe('passwords', () => {
  it('verifies the right password only, with a fresh salt each time', async () => {
    const hash = await hashPassword('pässwörd 123', 10);
    expect(hash).toMatch(/^scrypt\$10\$8\$1\$[\w-]+\$[\w-]+$/);
    expect(await verifyPassword('pässwörd 123', hash)).toBe(true);
    expect(await verifyPassword('pässwörd 124', hash)).toBe(false);
    expect(await hashPassword('pässwörd 123', 10)).not.toBe(hash);
  });

  it('treats a composed and a decomposed accent as the same password', async () => {
    const hash = await hashPassword('caf\u00e9 au lait', 10);
    expect(await verifyPassword('cafe\u0301 au lait', hash)).toBe(true);
  });

  it('refuses hashes it cannot read instead of throwing', async () => {
    expect(await verifyPassword('x', 'bcrypt$whatever')).toBe(false);
    expect(await verifyPassword('x', '')).toBe(false);
  });

  it('gives a different credential fingerprint for each hash', async () => {
    const a = await hashPassword('one password', 10);
    const b = await hashPassword('one password', 10);
    expect(credentialOf(a)).toBe(credentialOf(a));
    expect(credentialOf(a)).not.toBe(credentialOf(b));
  });

  it("hashes at OWASP's cost by default, which the memory limit allows", async () => {
    expect(DEFAULT_SCRYPT_COST).toBe(17);
    const hash = await hashPassword('a long passphrase');
    expect(hash).toMatch(/^scrypt\$17\$8\$1\$/);
    expect(await verifyPassword('a long passphrase', hash)).toBe(true);
  });

  it('asks for a new hash of a cheaper or foreign one only', async () => {
    const cheap = await hashPassword('one password', 10);
    expect(needsRehash(cheap, 12)).toBe(true);
    expect(needsRehash(cheap, 10)).toBe(false);
    expect(needsRehash(cheap, 9)).toBe(false);
    expect(needsRehash('scrypt$17$4$1$salt$key', 17)).toBe(true);
    expect(needsRehash('bcrypt$whatever', 10)).toBe(true);
  });
});
