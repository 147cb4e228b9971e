import type { Bus } from '@radio/core';
import type { DbHandle } from '@radio/db';
import { Cached } from '../clients/cached.ts';
import { httpGet } from '../clients/http-get.ts';
import type { SchedulerClient } from '../clients/scheduler-client.ts';
import type { CheckDto, HealthDto } from '../dtos/status.dto.ts';

export interface HealthOptions {
  streamUrl: string;
  /** Deadline of each check (ms). */
  timeoutMs: number;
  /** Results are reused for this long, so a busy status page does not multiply the checks. */
  cacheMs: number;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

async function timed(check: () => Promise<void>): Promise<CheckDto> {
  const started = performance.now();
  const latency = () => Math.round((performance.now() - started) * 100) / 100;
  try {
    await check();
    return { ok: true, latencyMs: latency(), error: null };
  } catch (error) {
    return { ok: false, latencyMs: latency(), error: errorText(error) };
  }
}

/** The health of everything the api depends on: db, bus, stream server, scheduler. */
export class HealthService {
  readonly #db: DbHandle;
  readonly #bus: Bus;
  readonly #scheduler: SchedulerClient;
  readonly #options: HealthOptions;
  readonly #cached: Cached<HealthDto>;

  constructor(db: DbHandle, bus: Bus, scheduler: SchedulerClient, options: HealthOptions) {
    this.#db = db;
    this.#bus = bus;
    this.#scheduler = scheduler;
    this.#options = options;
    this.#cached = new Cached(() => this.#checkAll(), options.cacheMs);
  }

  check(): Promise<HealthDto> {
    return this.#cached.get();
  }

  async #checkAll(): Promise<HealthDto> {
    const { timeoutMs, streamUrl } = this.#options;
    const [db, stream, scheduler] = await Promise.all([
      this.#db.ping({ timeoutMs }),
      timed(async () => {
        const { status } = await httpGet(new URL('/health', streamUrl).toString(), timeoutMs);
        if (status !== 200) throw new Error(`the stream server answered ${status}`);
      }),
      timed(async () => {
        await this.#scheduler.request('player.status', {}, timeoutMs);
      }),
    ]);
    const bus = this.#bus.health();
    return {
      db: {
        ok: db.ok,
        latencyMs: db.latencyMs,
        error: db.ok ? null : db.error,
        dialect: this.#db.dialect,
      },
      bus: {
        ok: bus.connected && !bus.closed,
        latencyMs: null,
        error: bus.closed ? 'closed' : bus.connected ? null : 'disconnected',
        kind: bus.kind,
      },
      stream,
      scheduler,
    };
  }
}
