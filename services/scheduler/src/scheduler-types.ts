import type { Bus, LibraryScan, Logger, PlayerStatus, Service } from '@radio/core';
import type { DbHandle } from '@radio/db';
import type { CommandRegistry } from './control/registry.ts';
import type { MountStatus } from './outputs/mount-output.ts';
import type { Db } from './repositories/db.ts';

export interface SchedulerDeps {
  /** The database (`createDb(...)` handle or its Kysely instance), migrated. */
  db: DbHandle | Db;
  bus: Bus;
  logger: Logger;
}

export interface SchedulerStatus {
  readonly player: PlayerStatus;
  readonly mounts: readonly MountStatus[];
  readonly library: { readonly tracks: number; readonly lastScan: LibraryScan | null };
  readonly controlPort: number;
  /** The live input's port (the real one when LIVE_PORT was 0); 0 without a live input. */
  readonly livePort: number;
}

export interface Scheduler extends Service {
  /** Loads the library, starts playout, outputs, control port and bus handlers; resolves after the first full scan. */
  start(): Promise<void>;
  /**
   * Stops everything in reverse order; every call returns the first call's promise. A closed
   * scheduler is not restarted.
   */
  close(): Promise<void>;
  /** The control port's TCP port (the real one when CONTROL_PORT was 0); 0 before start. */
  readonly controlPort: number;
  readonly controlHost: string;
  /** The live input's port; 0 before start or without a live input. */
  readonly livePort: number;
  /** The control port's command table, for components that add their own commands. */
  readonly commands: CommandRegistry;
  status(): SchedulerStatus;
}
