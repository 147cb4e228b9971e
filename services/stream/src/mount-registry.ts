import type { Bus, Logger } from '@radio/core';
import type { DropReason, Listener } from './listener.ts';
import type { ServerLogs } from './logs.ts';
import { Mount, type MountHooks, type MountSource } from './mount.ts';
import type { MountConfig, ResolvedOptions } from './options.ts';
import type { ServerStats } from './stats.ts';

export interface MountRegistryDeps {
  options: ResolvedOptions;
  log: Logger;
  logs: ServerLogs;
  stats: ServerStats;
  /** Source events go here; the server runs without one. */
  bus: Bus | null;
  /** The listener count of some mount changed. */
  listenersChanged(): void;
  /** HLS: a mount's chunks, and the end of its stream. */
  hls?: {
    audio(mount: Mount, chunk: Buffer): void;
    streamEnded(mount: Mount): void;
  };
}

/**
 * Every mount of the server by path: the configured ones, and those sources create on
 * unconfigured paths (gone again when their grace period ends). It moves listeners between
 * mounts: to the fallback when a source leaves (Icecast's fallback-mount), back when it
 * returns (fallback-override), and where the admin's moveclients says.
 */
export class MountRegistry implements MountHooks {
  readonly #deps: MountRegistryDeps;
  readonly #mounts = new Map<string, Mount>();
  #publicBase = '';
  #closed = false;

  constructor(deps: MountRegistryDeps) {
    this.#deps = deps;
  }

  /** Creates the configured mounts once the server listens (their listen URL needs its address). */
  open(publicBase: string): void {
    this.#publicBase = publicBase;
    for (const config of this.#deps.options.mounts)
      this.#mounts.set(config.path, this.#create(config));
  }

  get(path: string): Mount | undefined {
    return this.#mounts.get(path);
  }

  has(path: string): boolean {
    return this.#mounts.has(path);
  }

  values(): IterableIterator<Mount> {
    return this.#mounts.values();
  }

  /** The mount for a source's path, created for an unconfigured one; null once closed. */
  forSource(path: string, contentType: string): Mount | null {
    const existing = this.#mounts.get(path);
    if (existing) return existing;
    if (this.#closed) return null;
    const mount = this.#create({
      path,
      contentType,
      bitrate: null,
      quality: null,
      name: null,
      description: null,
      genre: null,
      url: null,
      public: null,
      maxListeners: null,
      fallbackMount: null,
      fallbackOverride: true,
      configured: false,
    });
    this.#mounts.set(path, mount);
    return mount;
  }

  /**
   * Moves the listeners of `from` that are not being dropped to `to`; `rehome` makes `to` the
   * mount they come back from (a fallback keeps them coming home). Returns how many moved.
   */
  moveAll(from: Mount, to: Mount, rehome: boolean): number {
    const listeners = from.listeners.filter((listener) => listener.dropReason === null);
    for (const listener of listeners) {
      from.removeListener(listener, false);
      to.adoptListener(listener);
      if (rehome) listener.home = to.path;
    }
    return listeners.length;
  }

  /** Stops every mount's timers and disconnects its listeners and its source. */
  close(): void {
    this.#closed = true;
    for (const mount of this.#mounts.values()) {
      mount.close();
      for (const listener of [...mount.listeners]) listener.drop('shutdown');
      mount.source?.kill();
    }
  }

  #create(config: MountConfig): Mount {
    const { options, log } = this.#deps;
    return new Mount(config, {
      burstSize: options.burstSize,
      queueLimit: options.queueLimit,
      sourceGraceMs: options.sourceGraceMs,
      chunkMs: options.chunkMs,
      publicBase: this.#publicBase,
      log,
      hooks: this,
    });
  }

  // ---- mount hooks ---------------------------------------------------------------------------

  listenersChanged(): void {
    this.#deps.listenersChanged();
  }

  audioAppended(mount: Mount, chunk: Buffer): void {
    this.#deps.hls?.audio(mount, chunk);
  }

  sourceChanged(mount: Mount, source: MountSource, connected: boolean): void {
    if (connected) {
      this.#deps.logs.event('info', 'source', `source connected to ${mount.path}`, {
        ip: source.ip,
        userAgent: source.userAgent,
        contentType: source.contentType,
      });
      this.#bringBackListeners(mount);
    } else {
      this.#moveToFallback(mount, false);
    }
    this.#publishSource(mount, source, connected);
  }

  graceEnded(mount: Mount): void {
    this.#deps.hls?.streamEnded(mount);
    this.#moveToFallback(mount, true);
    for (const listener of [...mount.listeners]) listener.drop('source-gone');
    if (mount.listenerCount > 0) {
      this.#deps.logs.event(
        'info',
        'source',
        `no source came back to ${mount.path}: listeners dropped`,
        { listeners: mount.listenerCount },
      );
    }
    if (!mount.config.configured) this.#mounts.delete(mount.path);
  }

  listenerDropped(mount: Mount, listener: Listener, reason: DropReason): void {
    this.#deps.stats.record('slow-listener-dropped');
    this.#deps.logs.event(
      'warn',
      'listener',
      `listener ${listener.id} on ${mount.path} dropped: ${reason}`,
      { ip: listener.ip, bytesSent: listener.bytesSent },
    );
  }

  /** Icecast's fallback-mount: listeners go to the fallback when it has a source. */
  #moveToFallback(mount: Mount, graceOver: boolean): void {
    const fallbackPath = mount.config.fallbackMount;
    const fallback = fallbackPath ? this.#mounts.get(fallbackPath) : undefined;
    if (fallback?.state !== 'live' || mount.listenerCount === 0) return;
    if (fallback.format.kind !== mount.format.kind) return;
    const moved = this.moveAll(mount, fallback, false);
    this.#deps.logs.event(
      'info',
      'source',
      `${moved} listeners of ${mount.path} moved to fallback ${fallback.path}`,
      { graceOver },
    );
  }

  /** Icecast's fallback-override: listeners of a mount come back when its source does. */
  #bringBackListeners(mount: Mount): void {
    if (!mount.config.fallbackOverride) return;
    for (const other of this.#mounts.values()) {
      if (other === mount) continue;
      for (const listener of [...other.listeners]) {
        if (listener.home === mount.path && listener.dropReason === null) {
          other.removeListener(listener, false);
          mount.adoptListener(listener);
        }
      }
    }
  }

  #publishSource(mount: Mount, source: MountSource, connected: boolean): void {
    const { bus, log } = this.#deps;
    if (bus === null) return;
    const bitrate = mount.snapshot().bitrate;
    bus
      .publish('stream.source', {
        mount: mount.path,
        connected,
        contentType: source.contentType,
        ...(bitrate ? { bitrate } : {}),
      })
      .catch((error: unknown) => log.warn({ err: error }, 'cannot publish source event'));
  }
}
