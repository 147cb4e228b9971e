import { hostname } from 'node:os';
import type { Bus, EdgeListeners, Logger } from '@radio/core';
import type { ServerContext } from '../context.ts';
import { HLS_PREFIX } from '../hls/serve.ts';
import { EDGE_AGENT } from './audience.ts';
import type { EdgeDirectory } from './edge-directory.ts';
import { EdgeReporter } from './edge-reporter.ts';
import { fetchOriginList, OriginError, type OriginList } from './origin-list.ts';
import { RelayMount } from './relay-mount.ts';

export interface EdgeRelayInit {
  ctx: ServerContext;
  bus: Bus | null;
  directory: EdgeDirectory;
  origin: URL;
  log: Logger;
}

/** Reconnect delays of a relayed mount: 0.5 s doubling up to 30 s, jittered. */
const RETRY = { base: 500, max: 30_000 };

/**
 * An edge: relays every mount its origin lists (asking again every `relayPollMs` for mounts
 * that came or went), reports its listeners, and knows where to send listeners when full.
 * Credentials are this server's own admin user and password, which must be the origin's.
 */
export class EdgeRelay {
  readonly #init: EdgeRelayInit;
  readonly #authorization: string;
  readonly #mounts = new Map<string, RelayMount>();
  /** Where each relayed mount is heard on the origin (its `listenurl`). */
  readonly #originUrls = new Map<string, string>();
  readonly #skipped = new Set<string>();
  #reporter: EdgeReporter | null = null;
  #timer: NodeJS.Timeout | null = null;
  #failing: string | null = null;
  #closed = false;
  #node = '';

  constructor(init: EdgeRelayInit) {
    this.#init = init;
    const { adminUser, adminPassword } = init.ctx.options;
    this.#authorization = `Basic ${Buffer.from(`${adminUser}:${adminPassword}`).toString('base64')}`;
  }

  /** Starts relaying and reporting, once the server listens at `url`. */
  start(url: string, port: number): void {
    const { ctx, bus, directory, origin, log } = this.#init;
    this.#node = `${hostname()}:${port}`;
    directory.self = this.#node;
    this.#reporter = new EdgeReporter({
      origin,
      authorization: this.#authorization,
      bus,
      directory,
      intervalMs: ctx.options.edgeReportMs,
      log,
      read: () => this.#report(url),
    });
    this.#reporter.start();
    void this.#poll();
  }

  close(): void {
    this.#closed = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#reporter?.close();
    for (const mount of this.#mounts.values()) mount.stop();
    this.#mounts.clear();
  }

  /**
   * Where a full edge sends a listener: the edge with most room, else the origin itself (a
   * mount at its listen URL; an HLS path at the same path where the origin's mounts are heard).
   */
  elsewhere(path: string): string | null {
    const edge = this.#init.directory.withRoom();
    if (edge) return `${edge.url}${path}`;
    const mountUrl = this.#originUrls.get(path);
    if (mountUrl !== undefined) return mountUrl;
    const anyUrl = this.#originUrls.values().next().value;
    return path.startsWith(HLS_PREFIX) && anyUrl !== undefined ? new URL(path, anyUrl).href : null;
  }

  #report(url: string): EdgeListeners {
    const mounts = [...this.#init.ctx.mounts.values()]
      .filter((mount) => mount.active)
      // HLS sessions are listeners of the mount too.
      .map((mount) => ({ mount: mount.path, listeners: mount.listenerCount + mount.hlsListeners }));
    return {
      node: this.#node,
      url,
      mounts,
      maxListeners: this.#init.ctx.options.maxListeners,
      ts: Date.now(),
    };
  }

  async #poll(): Promise<void> {
    const { origin, ctx } = this.#init;
    try {
      this.#apply(await fetchOriginList(origin.href, this.#authorization));
      if (this.#failing !== null)
        ctx.logs.event('info', 'relay', `origin ${origin.href} answers again`);
      this.#failing = null;
    } catch (error) {
      if (!(error instanceof OriginError)) throw error;
      // Logged once per kind of trouble; the poll keeps retrying.
      if (this.#failing !== error.kind) ctx.logs.event('warn', 'relay', error.message);
      this.#failing = error.kind;
      // An origin that refuses the credentials does not want this edge: stop relaying, so the
      // listeners get the grace's silence and are then let go.
      if (error.kind === 'refused') this.#apply({ mounts: [], skipped: [] });
    }
    if (this.#closed) return;
    this.#timer = setTimeout(() => void this.#poll(), ctx.options.relayPollMs);
    this.#timer.unref();
  }

  /** Starts pulls for mounts that appeared, stops those of mounts that are gone. */
  #apply(list: OriginList): void {
    if (this.#closed) return;
    const { ctx, origin, log } = this.#init;
    for (const skipped of list.skipped) {
      if (this.#skipped.has(skipped.path)) continue;
      this.#skipped.add(skipped.path);
      ctx.logs.event('warn', 'relay', `origin mount ${skipped.path} skipped: ${skipped.why}`);
    }
    const listed = new Set(list.mounts.map((mount) => mount.path));
    for (const [path, relay] of this.#mounts) {
      if (listed.has(path)) continue;
      relay.stop();
      this.#mounts.delete(path);
      ctx.logs.event('info', 'relay', `origin no longer lists ${path}: relay stopped`);
    }
    for (const mount of list.mounts) {
      this.#originUrls.set(mount.path, mount.listenUrl ?? new URL(mount.path, origin).href);
      if (this.#mounts.has(mount.path)) continue;
      const relay = new RelayMount({
        ctx,
        origin,
        mount,
        authorization: this.#authorization,
        userAgent: `${EDGE_AGENT} (${this.#node})`,
        log,
        backoffMs: RETRY,
      });
      this.#mounts.set(mount.path, relay);
      relay.start();
    }
  }
}
