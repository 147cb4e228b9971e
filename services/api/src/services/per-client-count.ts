/**
 * How many of something (open event streams) each client address holds, with a cap per client:
 * one address cannot take all of a shared limit from everyone else.
 */
export class PerClientCount {
  readonly #max: number;
  readonly #held = new Map<string, number>();

  constructor(max: number) {
    this.#max = max;
  }

  /** Takes one for `client`; false (nothing taken) when it holds `max` already. */
  take(client: string): boolean {
    const held = this.#held.get(client) ?? 0;
    if (held >= this.#max) return false;
    this.#held.set(client, held + 1);
    return true;
  }

  /** Gives back one that `take` gave. */
  release(client: string): void {
    const held = this.#held.get(client) ?? 0;
    if (held <= 1) this.#held.delete(client);
    else this.#held.set(client, held - 1);
  }
}
