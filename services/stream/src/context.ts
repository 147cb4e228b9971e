import type { FailureLimiter, Logger, TrustedProxies } from '@radio/core';
import type { ServerLogs } from './logs.ts';
import type { MountRegistry } from './mount-registry.ts';
import type { ResolvedOptions } from './options.ts';
import type { EdgeDirectory } from './relay/edge-directory.ts';
import type { SessionRecorder } from './sessions/session-recorder.ts';
import type { ServerStats } from './stats.ts';

/** What the server shares with the parts serving its connections (sources, listeners, admin). */
export interface ServerContext {
  readonly options: ResolvedOptions;
  /** The service's root logger (each source gets a component logger of its own). */
  readonly rootLog: Logger;
  /** The server component's logger. */
  readonly log: Logger;
  readonly logs: ServerLogs;
  readonly stats: ServerStats;
  readonly mounts: MountRegistry;
  /** The edges heard from: an origin counts their listeners, a full node sends listeners on. */
  readonly edges: EdgeDirectory;
  /** Where a full server sends a new listener of a mount (a URL); null when nowhere has room. */
  elsewhere(path: string): string | null;
  /** Whose X-Forwarded-For names the client (TRUSTED_PROXIES). */
  readonly proxies: TrustedProxies;
  /**
   * Failed logins per client, of the admin and of sources: after 10 in 10 minutes the client
   * is refused (429) until its window ends, so the passwords cannot be guessed at network speed.
   */
  readonly logins: FailureLimiter;
  /** Finished listener sessions, on their way to the api. */
  readonly sessions: SessionRecorder;
  /** Sources and listeners share one id sequence, as Icecast's client ids do. */
  nextId(): number;
}
