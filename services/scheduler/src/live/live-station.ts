import { join } from 'node:path';
import { type Bus, componentLogger, FailureLimiter, type Logger } from '@radio/core';
import { nowIso } from '@radio/db';
import type { CommandRegistry } from '../control/registry.ts';
import type { ResolvedLiveOptions } from '../options.ts';
import type { Db } from '../repositories/db.ts';
import type { AutoDj } from './air-mixer.ts';
import { DjCredentials } from './dj-credentials.ts';
import { HarborServer } from './harbor-server.ts';
import { registerLiveCommands } from './live-commands.ts';
import { LiveInput, type LiveTitles } from './live-input.ts';

export interface LiveParts {
  options: ResolvedLiveOptions;
  /** DATA_DIR (recordings go under it), or undefined: shows are not recorded. */
  dataDir: string | undefined;
  ffmpegPath: string;
  db: Db;
  bus: Bus;
  /** The scheduler's root logger. */
  logger: Logger;
  titles: LiveTitles;
  autoDj: AutoDj;
  commands: CommandRegistry;
}

/** The scheduler's live input as one part: the live port, its input and its commands. */
export interface LiveStation {
  /** Fills a playout block: the AutoDJ, a DJ, or a handover between them. */
  readonly produce: AutoDj;
  readonly port: number;
  close(): Promise<void>;
}

/** Opens the live port; the playout calls `produce` for each block from then on. */
export async function openLive(parts: LiveParts): Promise<LiveStation> {
  const { options, logger } = parts;
  const log = componentLogger(logger, 'live');
  const input = new LiveInput({
    ffmpegPath: parts.ffmpegPath,
    db: parts.db,
    bus: parts.bus,
    logger: log,
    titles: parts.titles,
    autoDj: parts.autoDj,
    fadeSeconds: options.fadeSeconds,
    silenceSeconds: options.silenceSeconds,
    recordingsDir: parts.dataDir ? join(parts.dataDir, 'recordings') : null,
    idleTimeoutMs: options.idleTimeoutMs,
  });
  const harbor = new HarborServer({
    host: options.host,
    port: options.port,
    input,
    credentials: new DjCredentials(parts.db),
    limiter: new FailureLimiter(options.loginLimit),
    logger: log,
    headerTimeoutMs: options.headerTimeoutMs,
    // The live port is the scheduler's one HTTP port: its metrics are served there.
    metrics: options.metrics?.endpoint,
  });
  options.metrics?.readLive(() => {
    const state = input.state();
    return state.onAir !== null && !state.silent;
  });
  // Shows a previous run left open (it stopped without ending them) end now.
  await parts.db
    .updateTable('live_shows')
    .set({ ended_at: nowIso() })
    .where('ended_at', 'is', null)
    .execute();
  try {
    await harbor.start();
  } catch (error) {
    await input.close();
    throw error;
  }
  const unregister = registerLiveCommands(parts.commands, parts.bus, input);
  log.info({ host: options.host, port: harbor.port, mount: '/live' }, 'live input listening');
  return {
    produce: (out, frames, startFrame) => input.produce(out, frames, startFrame),
    get port() {
      return harbor.port;
    },
    async close() {
      unregister();
      await harbor.stop();
      await input.close();
    },
  };
}
