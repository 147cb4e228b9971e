import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';

/*
 * Webhook signing secrets at rest: AES-256-GCM under a key derived (HKDF-SHA256) from the
 * api's SESSION_SECRET, so a copy of the database alone (a backup, a dump) does not let anyone
 * sign requests as the station. Several session secrets may be configured: the first seals,
 * all open, so a rotated SESSION_SECRET keeps the webhooks working while the old one is listed.
 */

const PREFIX = 'sealed:v1:';
const SALT = 'radio webhook secrets';
const INFO = 'aes-256-gcm v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** A stored secret that none of the configured keys opens (SESSION_SECRET changed, say). */
export class UnreadableSecretError extends Error {
  constructor() {
    super(
      "the webhook's signing secret cannot be decrypted with the configured SESSION_SECRET " +
        '(was it changed?): give the webhook a new secret',
    );
  }
}

interface Key {
  /** Names the key in what it sealed, so opening needs no trial of every key. */
  id: string;
  bytes: Buffer;
}

function deriveKey(secret: string): Key {
  const bytes = Buffer.from(hkdfSync('sha256', secret, SALT, INFO, 32));
  return { id: createHash('sha256').update(bytes).digest('hex').slice(0, 8), bytes };
}

export class SecretBox {
  readonly #keys: Key[];

  constructor(secrets: readonly string[]) {
    if (secrets.length === 0) throw new TypeError('SecretBox needs at least one secret');
    this.#keys = secrets.map(deriveKey);
  }

  /** `sealed:v1:<key id>:<base64url of iv, tag and ciphertext>`, under the first key. */
  seal(plain: string): string {
    const key = this.#keys[0] as Key;
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', key.bytes, iv);
    const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    const box = Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url');
    return `${PREFIX}${key.id}:${box}`;
  }

  /**
   * The secret a stored value holds. A value from before sealing is the secret itself (the api
   * seals those at start); a sealed one that no key opens throws UnreadableSecretError.
   */
  open(stored: string): string {
    if (!stored.startsWith(PREFIX)) return stored;
    const [id, box] = stored.slice(PREFIX.length).split(':');
    const key = this.#keys.find((each) => each.id === id);
    const bytes = Buffer.from(box ?? '', 'base64url');
    if (!key || bytes.length < IV_BYTES + TAG_BYTES) throw new UnreadableSecretError();
    try {
      const decipher = createDecipheriv('aes-256-gcm', key.bytes, bytes.subarray(0, IV_BYTES));
      decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      const plain = decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES));
      return Buffer.concat([plain, decipher.final()]).toString('utf8');
    } catch {
      throw new UnreadableSecretError();
    }
  }

  /** Whether a stored value is sealed under the first key already (nothing to redo). */
  isCurrent(stored: string): boolean {
    return stored.startsWith(`${PREFIX}${(this.#keys[0] as Key).id}:`);
  }
}
