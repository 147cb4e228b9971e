import type { Bus, Logger, SongRequestUpdate } from '@radio/core';
import type { SchedulerClient } from '../clients/scheduler-client.ts';

/**
 * Tells the scheduler that what programming is made of has changed (schedules, playlists'
 * programming fields or on-air items, requests, request settings), and listeners that their
 * requests have. The change is saved before this runs and stays saved when the scheduler is
 * away: it reads everything again when it starts, so a failed reload is only logged.
 */
export class ProgrammingChanges {
  readonly #scheduler: SchedulerClient;
  readonly #bus: Bus;
  readonly #logger: Logger;

  constructor(scheduler: SchedulerClient, bus: Bus, logger: Logger) {
    this.#scheduler = scheduler;
    this.#bus = bus;
    this.#logger = logger;
  }

  /**
   * Sends `schedule.reload` without holding up the answer to the change: a scheduler that is
   * down would otherwise make every edit wait for the command timeout.
   */
  reload(cause: string): void {
    this.#scheduler.request('schedule.reload', {}).then(
      (result) => this.#logger.debug({ cause, revision: result.revision }, 'schedule reloaded'),
      (error: unknown) =>
        this.#logger.warn(
          { err: error, cause },
          'the scheduler did not reload the schedule; it reads the change when it starts',
        ),
    );
  }

  /** Publishes `requests.updated` for changes the api made; a bus failure is logged. */
  async requestsUpdated(requests: SongRequestUpdate[]): Promise<void> {
    if (requests.length === 0) return;
    try {
      await this.#bus.publish('requests.updated', { requests });
    } catch (error) {
      this.#logger.warn({ err: error }, 'could not publish a request update');
    }
  }
}
