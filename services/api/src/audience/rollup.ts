import type { Logger } from '@radio/core';
import type { PlayCounter } from '../reports/play-reports.ts';
import type { AudienceRepository, RollupState } from './audience.repository.ts';
import { DAY_MS, HOUR_MS, HourSums } from './hour-sums.ts';
import { HyperLogLog } from './hyperloglog.ts';
import { listenerValue, SketchSums } from './sketch-sums.ts';

export interface RollupOptions {
  retentionDays: number;
  intervalMs: number;
  /** The clock (tests move it). */
  now?: () => number;
}

/** What a run did, for logs and tests. */
export interface RollupResult {
  /** Hours (re)summed: [from, to) as hour starts; from === to when none. */
  from: number;
  to: number;
  days: number;
  /** Plays whose audience was counted (again). */
  plays: number;
  deleted: number;
}

/**
 * How long after an hour ends it is summed: a session is stored when it ends, and the stream
 * servers send their sessions every 2 s, so the hour's last ones are in by then.
 */
const HOUR_END_DELAY_MS = 10_000;

const floorTo = (ms: number, step: number) => Math.floor(ms / step) * step;
const ceilTo = (ms: number, step: number) => Math.ceil(ms / step) * step;

/**
 * The retention job, hourly. It sums every hour that has ended into listener_hourly and the
 * listeners of every day that has ended into a sketch, counts the audience of every play that
 * ended in those hours, then removes the sessions that ended more than
 * LISTENER_RETENTION_DAYS ago (their hours, days and plays are counted by then).
 *
 * A session reaches the api when it ends, which may be hours after it began (a long listen,
 * or a stream server that waited out an outage). So a run sums again from the earliest start
 * of the sessions stored since the last run (found by id), and sums replace what was there.
 * Hours and days that sessions removed by an earlier run overlapped are never summed again.
 */
export class AudienceRollup {
  readonly #repo: AudienceRepository;
  readonly #plays: PlayCounter;
  readonly #options: RollupOptions;
  readonly #log: Logger;
  readonly #now: () => number;
  #timer: NodeJS.Timeout | null = null;
  #started = false;
  #running: Promise<RollupResult | null> | null = null;

  constructor(repo: AudienceRepository, plays: PlayCounter, options: RollupOptions, log: Logger) {
    this.#repo = repo;
    this.#plays = plays;
    this.#options = options;
    this.#log = log;
    this.#now = options.now ?? Date.now;
  }

  /**
   * Runs now, then every interval and shortly after each hour ends, so the sums reach the
   * last complete hour a few seconds after it ends (the reports read sessions only after it).
   */
  start(): void {
    if (this.#started) return;
    this.#started = true;
    void this.runSafely();
    this.#schedule();
  }

  #schedule(): void {
    if (!this.#started) return;
    const now = Date.now();
    const afterHour = floorTo(now, HOUR_MS) + HOUR_MS + HOUR_END_DELAY_MS;
    const delay = Math.min(this.#options.intervalMs, afterHour - now);
    this.#timer = setTimeout(() => {
      void this.runSafely().then(() => this.#schedule());
    }, delay);
    this.#timer.unref();
  }

  async stop(): Promise<void> {
    this.#started = false;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    await this.#running;
  }

  /** A run whose failure is logged (the next one catches up); one at a time. */
  runSafely(): Promise<RollupResult | null> {
    this.#running ??= this.run()
      .catch((error: unknown) => {
        this.#log.warn({ err: error }, 'listener sums not brought up to date');
        return null;
      })
      .finally(() => {
        this.#running = null;
      });
    return this.#running;
  }

  async run(): Promise<RollupResult> {
    const now = this.#now();
    const currentHour = floorTo(now, HOUR_MS);
    const cutoff = now - this.#options.retentionDays * DAY_MS;
    const maxId = await this.#repo.maxSessionId();
    const state = await this.#repo.rollupState();
    // Sessions that ended before this are gone: what they overlapped is never summed again.
    const gone = state?.deletedBefore ?? 0;
    const from = Math.max(
      await this.#startOfWork(state, currentHour, maxId),
      ceilTo(gone, HOUR_MS),
    );
    let days = 0;
    for (let dayStart = floorTo(from, DAY_MS); dayStart < currentHour; dayStart += DAY_MS) {
      if (await this.#sumDay(dayStart, from, currentHour, gone)) days += 1;
    }
    const plays = await this.#plays.keepCounts(
      Math.min(from, await this.#playsFrom(state, currentHour)),
      currentHour,
      gone,
    );
    // Saved before the removal: a run that stops in between removes them next time.
    await this.#repo.saveRollupState({
      summedThrough: currentHour,
      lastId: maxId,
      deletedBefore: Math.max(gone, cutoff),
      playsCountedThrough: currentHour,
    });
    const deleted = await this.#repo.deleteEndedBefore(cutoff);
    const result = { from: Math.min(from, currentHour), to: currentHour, days, plays, deleted };
    if (from < currentHour || plays > 0 || deleted > 0)
      this.#log.info(result, 'listener sums brought up to date');
    return result;
  }

  /**
   * Sums the hours of the day from `from` to `currentHour`, and the day itself when it has
   * ended and none of its sessions can be gone; says whether the day was summed.
   */
  async #sumDay(dayStart: number, from: number, currentHour: number, gone: number) {
    const dayEnd = dayStart + DAY_MS;
    const hoursFrom = Math.max(dayStart, from);
    const hoursTo = Math.min(dayEnd, currentHour);
    const wholeDay = dayEnd <= currentHour && dayStart >= gone;
    const hours = new HourSums(hoursFrom, hoursTo);
    const sketches = new SketchSums();
    for await (const page of this.#repo.overlapping(wholeDay ? dayStart : hoursFrom, hoursTo)) {
      for (const session of page) {
        const summed = hours.add(session);
        const inDay = wholeDay && session.started < dayEnd && session.ended > dayStart;
        if (summed.length === 0 && !inDay) continue;
        const hash = HyperLogLog.hash(listenerValue(session));
        for (const hour of summed) sketches.add('hour', hour, session, hash);
        if (inDay) sketches.add('day', dayStart, session, hash);
      }
    }
    await this.#repo.replaceHourly(hoursFrom, hoursTo, hours.rows(), sketches.rows('hour'));
    if (!wholeDay) return false;
    await this.#repo.replaceDaySketches(dayStart, sketches.rows('day'));
    return true;
  }

  /** Where counting plays starts besides the hours summed: the oldest session's, after an upgrade. */
  async #playsFrom(state: RollupState | null, currentHour: number): Promise<number> {
    if (state?.playsCountedThrough !== undefined) return state.playsCountedThrough;
    const oldest = await this.#repo.oldestStart();
    return oldest === null ? currentHour : floorTo(oldest, HOUR_MS);
  }

  /** Where summing starts: the last run's end, or earlier for sessions stored since. */
  async #startOfWork(
    state: RollupState | null,
    currentHour: number,
    maxId: number,
  ): Promise<number> {
    if (state === null) {
      const oldest = await this.#repo.oldestStart();
      return oldest === null ? currentHour : floorTo(oldest, HOUR_MS);
    }
    const late = await this.#repo.earliestStartAfter(state.lastId, maxId);
    return late === null
      ? state.summedThrough
      : Math.min(state.summedThrough, floorTo(late, HOUR_MS));
  }
}
