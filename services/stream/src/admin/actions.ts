import type { FailureLimiter, ListenerCounts } from '@radio/core';
import type { ServerContext } from '../context.ts';
import { StreamError } from '../errors.ts';
import type { ServerLogs } from '../logs.ts';
import type { MountRegistry } from '../mount-registry.ts';
import type { ResolvedOptions } from '../options.ts';
import { countsWithEdges, withEdges } from '../relay/audience.ts';
import type { EdgeDirectory } from '../relay/edge-directory.ts';
import type { ListenerSnapshot, MountSnapshot, ServerSnapshot, ServerStats } from '../stats.ts';

/** Where the server listens; known once it has started. */
export interface ListenAddress {
  readonly port: number;
  /** `http://host:port`, or the public URL when one is configured. */
  readonly url: string;
}

/**
 * What the admin commands, the public pages and the bus read and do: stats snapshots, the
 * configuration, and the listener and source actions of Icecast's admin interface.
 */
export class AdminActions {
  readonly options: ResolvedOptions;
  readonly logs: ServerLogs;
  /** Failed admin logins per client (shared with the sources' logins). */
  readonly logins: FailureLimiter;
  readonly #stats: ServerStats;
  readonly #mounts: MountRegistry;
  readonly #address: ListenAddress;
  readonly #edges: EdgeDirectory;

  constructor(ctx: ServerContext, address: ListenAddress) {
    this.options = ctx.options;
    this.logs = ctx.logs;
    this.logins = ctx.logins;
    this.#stats = ctx.stats;
    this.#mounts = ctx.mounts;
    this.#address = address;
    this.#edges = ctx.edges;
  }

  /** The edges heard from (their reports arrive at /admin/edge-listeners or on the bus). */
  get edges(): EdgeDirectory {
    return this.#edges;
  }

  /**
   * The current stats, as stats.xml shows them (`includeIdle` adds mounts without a source);
   * an origin's count its edges' listeners instead of their pulls.
   */
  snapshot(includeIdle = false): ServerSnapshot {
    const local = this.#localSnapshot(includeIdle);
    if (this.options.relayFrom !== null) return local;
    return withEdges(local, this.#edges.edges(), (path) => this.#mounts.get(path));
  }

  #localSnapshot(includeIdle: boolean): ServerSnapshot {
    const mounts: MountSnapshot[] = [];
    let hls = 0;
    for (const mount of this.#mounts.values()) {
      hls += mount.hlsListeners;
      if (includeIdle || mount.active) mounts.push(mount.snapshot());
    }
    return {
      serverId: this.options.serverId,
      admin: this.options.adminEmail,
      host: this.options.hostname ?? new URL(this.#address.url || 'http://localhost').hostname,
      location: this.options.location,
      serverStart: this.#stats.startedAt,
      counters: this.#stats.counters,
      listeners: this.#stats.listeners + hls,
      sources: this.#stats.sources,
      mounts,
    };
  }

  /** The mount if it has a source or is in its grace period (what Icecast calls a source). */
  activeMount(path: string): MountSnapshot | null {
    const mount = this.#mounts.get(path);
    return mount?.active ? mount.snapshot() : null;
  }

  /** A configured or active mount. */
  findMount(path: string): MountSnapshot | null {
    return this.#mounts.get(path)?.snapshot() ?? null;
  }

  /** Base URL for playlists: the public URL, or what the client used to reach us. */
  baseUrl(host: string | undefined): string {
    if (this.options.publicUrl) return this.options.publicUrl;
    return host && /^[\w.:[\]-]+$/.test(host) ? `http://${host}` : this.#address.url;
  }

  listeners(path: string): ListenerSnapshot[] {
    return this.#mounts.get(path)?.listenerSnapshots() ?? [];
  }

  killClient(path: string, id: number): boolean {
    const listener = this.#mounts.get(path)?.findListener(id);
    if (!listener || listener.dropReason !== null) return false;
    listener.drop('kicked');
    this.logs.event('info', 'admin', `listener ${id} on ${path} kicked`, { ip: listener.ip });
    return true;
  }

  /** Throws StreamError (no such source or destination, same mount, other content type). */
  moveClients(from: string, to: string): number {
    const source = this.#mounts.get(from);
    const destination = this.#mounts.get(to);
    if (!source?.active) throw new StreamError('ADMIN_NO_SUCH_SOURCE');
    if (!destination?.active) throw new StreamError('ADMIN_NO_SUCH_DESTINATION');
    if (source === destination) throw new StreamError('ADMIN_SAME_MOUNT');
    if (source.format.kind !== destination.format.kind)
      throw new StreamError('ADMIN_FORMAT_MISMATCH');
    const moved = this.#mounts.moveAll(source, destination, true);
    this.logs.event('info', 'admin', `${moved} listeners moved from ${from} to ${to}`);
    return moved;
  }

  killSource(path: string): boolean {
    const source = this.#mounts.get(path)?.source;
    if (!source) return false;
    this.logs.event('info', 'admin', `source on ${path} kicked`, { ip: source.ip });
    source.kill();
    return true;
  }

  /** Sets a mount's title as `/admin/metadata?mode=updinfo` does; false if it has no source. */
  setMetadata(path: string, title: string, url = ''): boolean {
    const mount = this.#mounts.get(path);
    if (!mount?.active) return false;
    mount.setMetadata(title, url);
    this.logs.event('info', 'admin', `metadata on ${path} updated`, { title });
    return true;
  }

  /** The configuration table of the admin page: the service's settings, then the server's. */
  configuration(): [string, string][] {
    const o = this.options;
    const rows: [string, string][] = [];
    for (const [key, value] of Object.entries(o.runningConfig ?? {}))
      rows.push([key, String(value)]);
    rows.push(
      ['listen', `${o.host}:${this.#address.port}`],
      ['public URL', this.#address.url],
      ['burst size', `${o.burstSize} bytes`],
      ['queue limit', `${o.queueLimit} bytes`],
      ['source grace', `${o.sourceGraceMs} ms`],
      ['source timeout', `${o.sourceTimeoutMs} ms`],
      ['stall timeout', `${o.stallTimeoutMs} ms`],
      ['max listeners', o.maxListeners === null ? 'unlimited' : String(o.maxListeners)],
      [
        'max listeners per mount',
        o.maxListenersPerMount === null ? 'unlimited' : String(o.maxListenersPerMount),
      ],
      ['admin user', o.adminUser],
      ['admin password', '********'],
      ['source password', '********'],
      ['log directory', o.dataDir === null ? '(memory only)' : `${o.dataDir}/logs`],
    );
    for (const mount of o.mounts) {
      const parts = [
        mount.contentType,
        mount.bitrate === null ? null : `${mount.bitrate} kbit/s`,
        mount.quality,
      ];
      if (mount.fallbackMount) parts.push(`fallback ${mount.fallbackMount}`);
      if (mount.maxListeners !== null) parts.push(`max ${mount.maxListeners} listeners`);
      rows.push([`mount ${mount.path}`, parts.filter(Boolean).join(', ')]);
    }
    return rows;
  }

  /** What goes out on the bus as `stream.listeners`: configured or active mounts, and the total. */
  listenerCounts(): ListenerCounts {
    const local = this.#localCounts();
    if (this.options.relayFrom !== null) return local;
    return countsWithEdges(local, this.#edges.edges(), (path) => this.#mounts.get(path));
  }

  #localCounts(): ListenerCounts {
    const mounts = [...this.#mounts.values()]
      .filter((mount) => mount.config.configured || mount.active)
      .map((mount) => ({
        mount: mount.path,
        listeners: mount.listenerCount + mount.hlsListeners,
        peak: mount.peak,
      }));
    let hls = 0;
    for (const mount of this.#mounts.values()) hls += mount.hlsListeners;
    return { mounts, total: this.#stats.listeners + hls };
  }
}
