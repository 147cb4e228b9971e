import { createHash } from 'node:crypto';

/*
 * A HyperLogLog sketch of distinct values (Flajolet et al. 2007, with the 64-bit hash of
 * Heule et al. 2013 so no large-range correction is needed): precision 14, so 16,384 one-byte
 * registers and a standard error of 1.04/√16384 ≈ 0.8 %. Small cardinalities use linear
 * counting, which is exact but for the rare hash collision. Sketches of disjoint or
 * overlapping sets merge by taking each register's maximum: the merge of the hours' sketches
 * is the sketch of the listeners of all of them.
 */

export const HLL_PRECISION = 14;
export const HLL_REGISTERS = 1 << HLL_PRECISION;
/** The bits of the hash left after the register index. */
const RANK_BITS = 64 - HLL_PRECISION;
const ALPHA = 0.7213 / (1 + 1.079 / HLL_REGISTERS);
/** Below this estimate, linear counting is the more accurate. */
const LINEAR_LIMIT = 2.5 * HLL_REGISTERS;

/** Stored forms: every register, or the non-zero ones as (index u16, value u8) triples. */
const DENSE = 0;
const SPARSE = 1;

export interface ValueHash {
  high: number;
  low: number;
}

export class HyperLogLog {
  readonly registers: Uint8Array;

  constructor(registers: Uint8Array = new Uint8Array(HLL_REGISTERS)) {
    if (registers.length !== HLL_REGISTERS) {
      throw new RangeError(`HyperLogLog: ${HLL_REGISTERS} registers expected`);
    }
    this.registers = registers;
  }

  /** Adds a value (a listener's stored value, or a stand-in for one without). */
  add(value: string): void {
    this.addHash(HyperLogLog.hash(value));
  }

  /** The 64-bit hash of a value, as two 32-bit halves: hash once, add to many sketches. */
  static hash(value: string): ValueHash {
    const digest = createHash('md5').update(value).digest();
    return { high: digest.readUInt32BE(0), low: digest.readUInt32BE(4) };
  }

  addHash({ high, low }: ValueHash): void {
    const index = high >>> (32 - HLL_PRECISION);
    // The rank is the position of the first 1 in the 50 bits after the index.
    const rest = (high << HLL_PRECISION) >>> 0;
    const rank =
      rest !== 0
        ? Math.clz32(rest) + 1
        : low !== 0
          ? 32 - HLL_PRECISION + Math.clz32(low) + 1
          : RANK_BITS + 1;
    if (rank > (this.registers[index] as number)) this.registers[index] = rank;
  }

  /** Takes in another sketch: afterwards this one counts the union. */
  merge(other: HyperLogLog): void {
    const mine = this.registers;
    const theirs = other.registers;
    for (let i = 0; i < HLL_REGISTERS; i++) {
      if ((theirs[i] as number) > (mine[i] as number)) mine[i] = theirs[i] as number;
    }
  }

  /** The estimated number of distinct values added. */
  count(): number {
    let sum = 0;
    let zeros = 0;
    for (let i = 0; i < HLL_REGISTERS; i++) {
      const register = this.registers[i] as number;
      sum += 2 ** -register;
      if (register === 0) zeros += 1;
    }
    const estimate = (ALPHA * HLL_REGISTERS * HLL_REGISTERS) / sum;
    if (estimate <= LINEAR_LIMIT && zeros > 0) {
      return Math.round(HLL_REGISTERS * Math.log(HLL_REGISTERS / zeros));
    }
    return Math.round(estimate);
  }

  /** The stored form: sparse while few registers are set (an hour of a small country), else dense. */
  toBytes(): Uint8Array {
    let used = 0;
    for (let i = 0; i < HLL_REGISTERS; i++) if (this.registers[i] !== 0) used += 1;
    if (used * 3 >= HLL_REGISTERS) {
      const bytes = new Uint8Array(HLL_REGISTERS + 1);
      bytes[0] = DENSE;
      bytes.set(this.registers, 1);
      return bytes;
    }
    const bytes = new Uint8Array(1 + used * 3);
    bytes[0] = SPARSE;
    let at = 1;
    for (let i = 0; i < HLL_REGISTERS; i++) {
      const register = this.registers[i] as number;
      if (register === 0) continue;
      bytes[at] = i >>> 8;
      bytes[at + 1] = i & 0xff;
      bytes[at + 2] = register;
      at += 3;
    }
    return bytes;
  }

  static fromBytes(bytes: Uint8Array): HyperLogLog {
    const sketch = new HyperLogLog();
    sketch.mergeBytes(bytes);
    return sketch;
  }

  /** Takes a stored sketch into this one without building it first. */
  mergeBytes(bytes: Uint8Array): void {
    if (bytes[0] === DENSE) {
      this.merge(new HyperLogLog(bytes.subarray(1)));
      return;
    }
    if (bytes[0] !== SPARSE || (bytes.length - 1) % 3 !== 0) {
      throw new RangeError('HyperLogLog: not a stored sketch');
    }
    const registers = this.registers;
    for (let at = 1; at < bytes.length; at += 3) {
      const index = ((bytes[at] as number) << 8) | (bytes[at + 1] as number);
      const value = bytes[at + 2] as number;
      if (value > (registers[index] as number)) registers[index] = value;
    }
  }
}
