import { createHmac, randomBytes } from 'node:crypto';
import { link, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** LISTENER_PRIVACY: how a listener's address is kept. */
export type PrivacyMode = 'hashed' | 'full' | 'none';

const SALT_FILE = 'listener-salt';
const SALT_BYTES = 32;

/**
 * What is stored of a listener's address: `hashed` (default) is HMAC-SHA256 of the address
 * under a salt of this station's (32 random bytes, hex in DATA_DIR/listener-salt, mode 0600,
 * made on first use), cut to 32 hex characters: the same listener is the same value, for
 * unique counts, and the address cannot be read back without the salt; `full` keeps the
 * address; `none` keeps nothing.
 */
export class ListenerPrivacy {
  readonly #mode: PrivacyMode;
  readonly #dataDir: string;
  #salt: Promise<Buffer> | null = null;

  constructor(mode: PrivacyMode, dataDir: string) {
    this.#mode = mode;
    this.#dataDir = dataDir;
  }

  get mode(): PrivacyMode {
    return this.#mode;
  }

  async listener(address: string | null): Promise<string | null> {
    if (address === null || this.#mode === 'none') return null;
    if (this.#mode === 'full') return address;
    const salt = await this.#loadSalt();
    return createHmac('sha256', salt).update(address).digest('hex').slice(0, 32);
  }

  #loadSalt(): Promise<Buffer> {
    this.#salt ??= readOrCreateSalt(this.#dataDir).catch((error: unknown) => {
      this.#salt = null;
      throw error;
    });
    return this.#salt;
  }
}

async function readSalt(file: string): Promise<Buffer> {
  const text = (await readFile(file, 'utf8')).trim();
  if (!/^[0-9a-f]{64}$/.test(text)) {
    throw new Error(`${file} is not a listener salt (64 hex characters); delete it to make one`);
  }
  return Buffer.from(text, 'hex');
}

/**
 * The salt, made on first use. Written under a temporary name and linked into place, so two
 * api processes starting together never read a half-written file: the second link fails and
 * that process reads the first one's salt.
 */
async function readOrCreateSalt(dataDir: string): Promise<Buffer> {
  const file = join(dataDir, SALT_FILE);
  try {
    return await readSalt(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  await mkdir(dataDir, { recursive: true });
  const temporary = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  await writeFile(temporary, `${randomBytes(SALT_BYTES).toString('hex')}\n`, { mode: 0o600 });
  try {
    await link(temporary, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    await rm(temporary, { force: true });
  }
  return readSalt(file);
}
