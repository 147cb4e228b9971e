import type { Bus, Logger } from '@radio/core';
import type { ServerContext } from '../context.ts';
import type { EdgeDirectory } from './edge-directory.ts';
import { EdgeRelay } from './edge-relay.ts';

/**
 * This server's place among origin and edges. Every node hears the edges' reports (on the bus,
 * or as the origin through its admin API); an origin counts their listeners and sends
 * listeners to them when full; with `relayFrom` the server is itself an edge.
 */
export class EdgeNetwork {
  readonly #directory: EdgeDirectory;
  readonly #bus: Bus | null;
  readonly #edge: EdgeRelay | null;
  readonly #intervalMs: number;
  readonly #changed: () => void;
  #unsubscribe: (() => void) | null = null;
  #timer: NodeJS.Timeout | null = null;

  /** `changed` runs when the edges' counts may have changed (one expired). */
  constructor(
    ctx: ServerContext,
    deps: { bus: Bus | null; directory: EdgeDirectory; log: Logger; changed: () => void },
  ) {
    this.#directory = deps.directory;
    this.#bus = deps.bus;
    this.#changed = deps.changed;
    this.#intervalMs = ctx.options.edgeReportMs;
    const from = ctx.options.relayFrom;
    this.#edge = from
      ? new EdgeRelay({
          ctx,
          bus: deps.bus,
          directory: deps.directory,
          origin: new URL(from),
          log: deps.log,
        })
      : null;
  }

  get isEdge(): boolean {
    return this.#edge !== null;
  }

  start(url: string, port: number): void {
    this.#unsubscribe =
      this.#bus?.onEvent((event) => this.#directory.update(event.payload), ['edge.listeners']) ??
      null;
    this.#edge?.start(url, port);
    if (this.#edge === null) {
      // Reports keep coming while edges live; this notices the ones that stopped.
      this.#timer = setInterval(() => {
        this.#directory.edges();
        this.#changed();
      }, this.#intervalMs);
      this.#timer.unref();
    }
  }

  close(): void {
    this.#unsubscribe?.();
    if (this.#timer) clearInterval(this.#timer);
    this.#edge?.close();
  }

  /** Where a full node sends a new listener of `path`; null when nowhere has room. */
  elsewhere(path: string): string | null {
    if (this.#edge) return this.#edge.elsewhere(path);
    const edge = this.#directory.withRoom();
    return edge ? `${edge.url}${path}` : null;
  }
}
