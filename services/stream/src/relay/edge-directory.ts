import type { EdgeListeners } from '@radio/core';

/** An edge as the directory knows it: its last report and when that arrived here. */
export interface EdgeEntry extends EdgeListeners {
  /** Local time of arrival: expiry does not depend on the edge's clock. */
  receivedAt: number;
  /** The edge's listeners, all mounts. */
  listeners: number;
}

/**
 * The edges a node has heard from (through the bus or the origin's admin API), each kept until
 * it misses its reports for `ttlMs`: the origin adds their listeners to its counts, and a full
 * node looks here for one with room.
 */
export class EdgeDirectory {
  readonly #ttlMs: number;
  readonly #changed: () => void;
  readonly #entries = new Map<string, EdgeEntry>();
  /** This node's own id: its reports come back on the bus and are not an edge to send to. */
  #self: string | null = null;

  /** `changed` runs after each report (the origin republishes its counts). */
  constructor(ttlMs: number, changed: () => void) {
    this.#ttlMs = ttlMs;
    this.#changed = changed;
  }

  set self(node: string) {
    this.#self = node;
    this.#entries.delete(node);
  }

  update(report: EdgeListeners, now = Date.now()): void {
    if (report.node === this.#self) return;
    const listeners = report.mounts.reduce((sum, mount) => sum + mount.listeners, 0);
    this.#entries.set(report.node, { ...report, listeners, receivedAt: now });
    this.#changed();
  }

  /** The edges heard from within the time to live, by node id. */
  edges(now = Date.now()): EdgeEntry[] {
    for (const [node, entry] of this.#entries) {
      if (now - entry.receivedAt > this.#ttlMs) this.#entries.delete(node);
    }
    return [...this.#entries.values()].sort((a, b) => (a.node < b.node ? -1 : 1));
  }

  /** The edge with the most room left (unlimited ones first), or null when all are full. */
  withRoom(now = Date.now()): EdgeEntry | null {
    let best: EdgeEntry | null = null;
    let bestRoom = 0;
    for (const entry of this.edges(now)) {
      const room =
        entry.maxListeners === null
          ? Number.POSITIVE_INFINITY
          : entry.maxListeners - entry.listeners;
      if (room > bestRoom) {
        best = entry;
        bestRoom = room;
      }
    }
    return best;
  }
}
