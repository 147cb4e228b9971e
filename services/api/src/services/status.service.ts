import type { StatusDto } from '../dtos/status.dto.ts';
import type { HealthService } from './health.service.ts';

export class StatusService {
  readonly #health: HealthService;
  readonly #version: string;
  readonly #startedAt: number;

  constructor(health: HealthService, version: string, startedAt: number) {
    this.#health = health;
    this.#version = version;
    this.#startedAt = startedAt;
  }

  uptimeSeconds(): number {
    return Math.round((Date.now() - this.#startedAt) / 10) / 100;
  }

  async status(): Promise<StatusDto> {
    const health = await this.#health.check();
    const ok = Object.values(health).every((check) => check.ok);
    return {
      service: 'api',
      version: this.#version,
      uptime: this.uptimeSeconds(),
      status: ok ? 'ok' : 'degraded',
      health,
    };
  }
}
