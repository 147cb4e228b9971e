import type { Bus, Logger } from '@radio/core';
import type { StatusDto } from '../dtos/status.dto.ts';
import { fallbackOnAir } from './bus-state.ts';
import type { HealthService } from './health.service.ts';

/** Where the status reads what is on air. */
export interface OnAirSource {
  bus: Bus;
  logger: Logger;
}

export class StatusService {
  readonly #health: HealthService;
  readonly #version: string;
  readonly #startedAt: number;
  readonly #onAir: OnAirSource;

  constructor(health: HealthService, version: string, startedAt: number, onAir: OnAirSource) {
    this.#health = health;
    this.#version = version;
    this.#startedAt = startedAt;
    this.#onAir = onAir;
  }

  uptimeSeconds(): number {
    return Math.round((Date.now() - this.#startedAt) / 10) / 100;
  }

  async status(): Promise<StatusDto> {
    const [health, fallback] = await Promise.all([
      this.#health.check(),
      fallbackOnAir(this.#onAir.bus, this.#onAir.logger),
    ]);
    const ok = Object.values(health).every((check) => check.ok);
    return {
      service: 'api',
      version: this.#version,
      uptime: this.uptimeSeconds(),
      status: ok ? 'ok' : 'degraded',
      health,
      fallback,
    };
  }
}
