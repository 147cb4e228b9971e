/** What to do with a new connection from an address. */
export type ShareVerdict = 'serve' | 'refuse' | 'drop';

/**
 * Each client address's share of the live port's connection slots: a DJ needs one for the source
 * and a moment of another for each title update, so `perClient` (4) is plenty, and one address
 * can no longer hold every slot. A connection over the share is refused with an answer, which
 * still holds its slot for a moment; past twice the share the address's new connections are
 * dropped at once, so even a flood from one address holds at most 2 × `perClient` slots.
 */
export class ClientShare {
  readonly #perClient: number;
  readonly #open = new Map<string, number>();

  constructor(perClient: number) {
    if (!(perClient > 0)) throw new RangeError('ClientShare: perClient must be positive');
    this.#perClient = perClient;
  }

  get perClient(): number {
    return this.#perClient;
  }

  /** Counts a new connection from `address` (call `release` when it closes, whatever the verdict). */
  open(address: string): ShareVerdict {
    const open = this.#open.get(address) ?? 0;
    this.#open.set(address, open + 1);
    if (open < this.#perClient) return 'serve';
    return open < 2 * this.#perClient ? 'refuse' : 'drop';
  }

  release(address: string): void {
    const open = (this.#open.get(address) ?? 0) - 1;
    if (open > 0) this.#open.set(address, open);
    else this.#open.delete(address);
  }
}
