import type { Bus, Logger, Timeline } from '@radio/core';
import type { SchedulerClient } from '../clients/scheduler-client.ts';
import type { ComingUpDto } from '../dtos/timeline.dto.ts';
import { RawJson } from '../routing.ts';
import { readState } from './bus-state.ts';

/** How many entries "Coming up" lists. */
const COMING_UP = 3;
/** A plan is asked for again after this long even without an event (a missed one). */
const MAX_AGE_MS = 60_000;

interface Cached {
  /** Serialized once: a day's plan is a few hundred entries, the same for every client. */
  json: Promise<RawJson>;
  at: number;
}

/**
 * The scheduler's plan, asked for over the bus (`schedule.timeline`) and kept per length until
 * the plan changes: every re-plan publishes a `schedule.timeline` event with a new revision,
 * which clears the cache, so many clients polling the same view cost the scheduler one plan.
 * Clients asking at the same time share one command.
 */
export class TimelineService {
  readonly #scheduler: SchedulerClient;
  readonly #bus: Bus;
  readonly #logger: Logger;
  /** STATION_TIMEZONE, sent with the plan so pages show its times as the schedule's. */
  readonly #timeZone: string;
  readonly #cache = new Map<number, Cached>();
  #revision: number | null = null;
  #unsubscribe: (() => void) | null = null;

  constructor(scheduler: SchedulerClient, bus: Bus, logger: Logger, timeZone: string) {
    this.#scheduler = scheduler;
    this.#bus = bus;
    this.#logger = logger;
    this.#timeZone = timeZone;
  }

  start(): void {
    this.#unsubscribe = this.#bus.onEvent(
      (event) => {
        if (event.payload.revision === this.#revision) return;
        this.#revision = event.payload.revision;
        this.#cache.clear();
      },
      ['schedule.timeline'],
    );
  }

  stop(): void {
    this.#unsubscribe?.();
    this.#unsubscribe = null;
    this.#cache.clear();
  }

  /** The next `hours` hours of the plan, as the JSON of a Timeline and the station's zone. */
  timeline(hours: number): Promise<RawJson> {
    const cached = this.#cache.get(hours);
    if (cached && Date.now() - cached.at < MAX_AGE_MS) return cached.json;
    const entry: Cached = { json: this.#ask(hours), at: Date.now() };
    this.#cache.set(hours, entry);
    entry.json.catch(() => this.#forget(hours, entry));
    return entry.json;
  }

  async #ask(hours: number): Promise<RawJson> {
    const plan: Timeline = await this.#scheduler.request('schedule.timeline', { hours });
    // An event of a newer plan may have come in while this one travelled: keep only the
    // answer that is still the latest.
    if (this.#revision !== null && plan.revision < this.#revision) {
      const stale = this.#cache.get(hours);
      if (stale) this.#forget(hours, stale);
    } else {
      this.#revision = plan.revision;
    }
    return new RawJson(JSON.stringify({ ...plan, timeZone: this.#timeZone }));
  }

  /** The next few tracks for listeners, from the plan's first entries kept on the bus. */
  async comingUp(): Promise<ComingUpDto> {
    const plan = await readState(this.#bus, 'timeline', this.#logger);
    const now = Date.now();
    // A plan left behind by a scheduler that stopped has only the past in it.
    const entries = (plan?.entries ?? [])
      .filter((entry) => entry.track !== null && !entry.jingle && entry.at > now)
      .slice(0, COMING_UP)
      .map((entry) => ({
        at: entry.at,
        // Filtered above: a track entry.
        track: entry.track as NonNullable<typeof entry.track>,
        source: entry.source,
      }));
    return { entries };
  }

  #forget(hours: number, entry: Cached): void {
    if (this.#cache.get(hours) === entry) this.#cache.delete(hours);
  }
}
