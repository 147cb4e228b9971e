import type { Socket } from 'node:net';

/**
 * Open connections per client address, capped: one address (a script, a botnet's member, a
 * client stuck in a reconnect loop) cannot hold every socket the server can have. A connection
 * counts from `take` until its socket closes.
 */
export class ClientConnections {
  readonly #limit: number;
  readonly #open = new Map<string, number>();

  constructor(limit: number) {
    this.#limit = limit;
  }

  /** Counts `socket` as one of `client`'s; false (nothing counted) when `client` is at the cap. */
  take(client: string, socket: Socket): boolean {
    const open = this.#open.get(client) ?? 0;
    if (open >= this.#limit) return false;
    this.#open.set(client, open + 1);
    socket.once('close', () => this.#release(client));
    return true;
  }

  #release(client: string): void {
    const open = (this.#open.get(client) ?? 1) - 1;
    if (open > 0) this.#open.set(client, open);
    else this.#open.delete(client);
  }
}
