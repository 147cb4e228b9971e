import type { Bus, CommandPayloads, CommandResults, CommandType } from '@radio/core';

/**
 * Commands to the scheduler over the bus, with the api's timeout. A scheduler that does not
 * answer in time rejects with BUS_TIMEOUT, which the error handler turns into a 503 that says so.
 */
export class SchedulerClient {
  readonly #bus: Bus;
  readonly #timeoutMs: number;

  constructor(bus: Bus, timeoutMs: number) {
    if (!(timeoutMs > 0)) throw new RangeError('the command timeout must be positive');
    this.#bus = bus;
    this.#timeoutMs = timeoutMs;
  }

  request<T extends CommandType>(
    type: T,
    payload: CommandPayloads[T],
    timeoutMs = this.#timeoutMs,
  ): Promise<CommandResults[T]> {
    return this.#bus.request(type, payload, { timeoutMs });
  }
}
