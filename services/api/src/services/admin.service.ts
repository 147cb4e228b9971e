import type { Bus, Logger } from '@radio/core';
import type { DbHandle } from '@radio/db';
import type { Redis } from 'ioredis';
import type { SchedulerClient } from '../clients/scheduler-client.ts';
import type { ScanStatusDto, SystemDto } from '../dtos/admin.dto.ts';
import type { TracksRepository } from '../repositories/tracks.repository.ts';
import { readState } from './bus-state.ts';
import type { HealthService } from './health.service.ts';
import type { LiveEvents } from './live-events.service.ts';
import type { StatusService } from './status.service.ts';

export interface AdminDeps {
  scheduler: SchedulerClient;
  bus: Bus;
  db: DbHandle;
  redis: Redis | undefined;
  tracks: TracksRepository;
  health: HealthService;
  status: StatusService;
  events: LiveEvents;
  sessionStore: 'redis' | 'db';
  version: string;
  logger: Logger;
}

const REDIS_PING_TIMEOUT_MS = 2000;

export class AdminService {
  readonly #deps: AdminDeps;

  constructor(deps: AdminDeps) {
    this.#deps = deps;
  }

  /** Asks the scheduler for a rescan; it answers at once with the scan's id. */
  startScan(): Promise<{ scanId: string }> {
    return this.#deps.scheduler.request('library.rescan', {});
  }

  async scanStatus(): Promise<ScanStatusDto> {
    const { bus, logger } = this.#deps;
    const [scan, analysis, library] = await Promise.all([
      readState(bus, 'library-scan', logger),
      readState(bus, 'library-analysis', logger),
      this.#deps.tracks.counts(),
    ]);
    return { scan, analysis, library };
  }

  async system(): Promise<SystemDto> {
    const { db, health, tracks, status, events } = this.#deps;
    const [checks, library, ping, redis] = await Promise.all([
      health.check(),
      tracks.counts(),
      db.ping(),
      this.#redisStatus(),
    ]);
    const memory = process.memoryUsage();
    return {
      versions: {
        api: this.#deps.version,
        node: process.version,
        platform: `${process.platform}-${process.arch}`,
      },
      uptime: { process: Math.round(process.uptime() * 100) / 100, api: status.uptimeSeconds() },
      memory: {
        rss: memory.rss,
        heapUsed: memory.heapUsed,
        heapTotal: memory.heapTotal,
        external: memory.external,
      },
      health: checks,
      library,
      db: { dialect: db.dialect, target: db.target, ok: ping.ok, latencyMs: ping.latencyMs },
      redis,
      sessions: { store: this.#deps.sessionStore },
      sse: { clients: events.clients },
    };
  }

  async #redisStatus(): Promise<SystemDto['redis']> {
    const redis = this.#deps.redis;
    if (!redis) return { used: false, ok: null, latencyMs: null, error: null };
    const started = performance.now();
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        redis.ping(),
        new Promise((_, reject) => {
          timer = setTimeout(
            () => reject(new Error(`no answer within ${REDIS_PING_TIMEOUT_MS} ms`)),
            REDIS_PING_TIMEOUT_MS,
          );
        }),
      ]);
      return {
        used: true,
        ok: true,
        latencyMs: Math.round((performance.now() - started) * 100) / 100,
        error: null,
      };
    } catch (error) {
      return {
        used: true,
        ok: false,
        latencyMs: null,
        error: error instanceof Error ? error.message : String(error),
      };
    } finally {
      clearTimeout(timer);
    }
  }
}
