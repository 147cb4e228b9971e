import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** 32 symbols without the look-alikes 0/O and 1/I: 5 bits each, read aloud or typed easily. */
const ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';
const GROUPS = 3;
const GROUP_LENGTH = 4;

/** A new code such as `7KQM-R2XD-HW9P`: 12 symbols, 60 random bits. */
export function generateSetupCode(): string {
  const bytes = randomBytes(GROUPS * GROUP_LENGTH);
  // 256 is a multiple of 32: the low five bits of a random byte are uniform.
  const symbols = [...bytes].map((byte) => ALPHABET[byte & 31]).join('');
  const groups = [];
  for (let i = 0; i < symbols.length; i += GROUP_LENGTH) {
    groups.push(symbols.slice(i, i + GROUP_LENGTH));
  }
  return groups.join('-');
}

/** What a typed code is compared as: case, spaces and dashes do not matter. */
function normalized(code: string): Buffer {
  const text = code.normalize('NFKC').replace(/[\s-]/g, '').toUpperCase();
  return createHash('sha256').update(text).digest();
}

/** Whether `given` is `expected`, in time independent of where they differ. */
export function isSetupCode(given: string, expected: string): boolean {
  return timingSafeEqual(normalized(given), normalized(expected));
}
