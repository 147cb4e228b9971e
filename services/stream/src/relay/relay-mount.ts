import type { Logger } from '@radio/core';
import type { ServerContext } from '../context.ts';
import { Backoff } from './backoff.ts';
import type { OriginMount } from './origin-list.ts';
import { pull, RelaySource } from './relay-source.ts';

export interface RelayMountInit {
  ctx: ServerContext;
  origin: URL;
  mount: OriginMount;
  authorization: string;
  userAgent: string;
  log: Logger;
  backoffMs: { base: number; max: number };
}

/**
 * One mount the edge relays: a pull that is kept connected. When the origin's stream ends or
 * cannot be had, the edge's mount gives its listeners silence (the grace every mount gives on
 * source loss) while the pull retries after a jittered, growing delay; a pull back within the
 * grace continues the same stream, so the listeners hear nothing but the gap.
 */
export class RelayMount {
  readonly path: string;
  readonly #init: RelayMountInit;
  readonly #backoff: Backoff;
  #source: RelaySource | null = null;
  #timer: NodeJS.Timeout | null = null;
  #stopped = false;
  #failures = 0;

  constructor(init: RelayMountInit) {
    this.#init = init;
    this.path = init.mount.path;
    this.#backoff = new Backoff(init.backoffMs.base, init.backoffMs.max);
  }

  start(): void {
    void this.#connect();
  }

  /** Stops pulling; the mount's grace then runs out as after any source loss. */
  stop(): void {
    this.#stopped = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    this.#source?.kill();
  }

  async #connect(): Promise<void> {
    const { ctx, origin, mount, log } = this.#init;
    const result = await pull({
      url: new URL(mount.path, origin),
      authorization: this.#init.authorization,
      userAgent: this.#init.userAgent,
      timeoutMs: ctx.options.sourceTimeoutMs,
    });
    if (this.#stopped) {
      if (result.ok) result.response.destroy();
      return;
    }
    if (!result.ok) {
      this.#retry(result.refused ? `origin refused the relay: ${result.why}` : result.why);
      return;
    }
    const local = ctx.mounts.forSource(mount.path, mount.contentType);
    if (local === null || local.source !== null) {
      result.response.destroy();
      this.#retry(local === null ? 'server closing' : 'a local source has the mount');
      return;
    }
    const source = new RelaySource(local, result.response, origin, ctx.options.chunkMs);
    this.#source = source;
    local.attachSource(source);
    ctx.stats.record('source-connected');
    this.#backoff.reset();
    this.#failures = 0;
    log.info({ mount: mount.path }, 'relaying from the origin');
    source.run(ctx.options.sourceTimeoutMs, (why) => {
      this.#source = null;
      ctx.stats.record('source-left');
      if (!this.#stopped) this.#retry(why);
    });
  }

  #retry(why: string): void {
    const delay = this.#backoff.next();
    this.#failures += 1;
    const { ctx, mount, log } = this.#init;
    // The first failure of an outage is an event; the retries after it are noise.
    if (this.#failures === 1) {
      ctx.logs.event('warn', 'relay', `relay of ${mount.path} lost: ${why}`, { retryMs: delay });
    } else {
      log.debug({ mount: mount.path, why, retryMs: delay }, 'relay retry failed');
    }
    this.#timer = setTimeout(() => {
      this.#timer = null;
      if (!this.#stopped) void this.#connect();
    }, delay);
    this.#timer.unref();
  }
}
