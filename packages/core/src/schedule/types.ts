/*
 * The station's schedule as the api (storage, overlap check, week calendar) and the scheduler
 * (planner) both read it: one definition for both. Times are epoch ms; wall times are in the
 * station's zone (STATION_TIMEZONE).
 */

export type ScheduleStartMode = 'after_track' | 'interrupt';

/** What the overlap check needs of an entry. */
export interface ScheduleTiming {
  readonly id: number;
  /** Bit 0 Monday … bit 6 Sunday: the days a span starts on. */
  readonly days: number;
  /** HH:MM local time in the station's zone; end before start crosses midnight. */
  readonly startTime: string;
  readonly endTime: string;
  /** YYYY-MM-DD inclusive (the day a span starts), or null. */
  readonly startDate: string | null;
  readonly endDate: string | null;
  readonly priority: number;
}

export interface PlanScheduleEntry extends ScheduleTiming {
  /** Exactly one of playlistId and dj is set. */
  readonly playlistId: number | null;
  readonly dj: { readonly id: number; readonly name: string } | null;
  readonly title: string | null;
  readonly startMode: ScheduleStartMode;
}

/** A concrete occurrence of a schedule entry: [start, end) in epoch ms. */
export interface ScheduleSpan<E extends ScheduleTiming = PlanScheduleEntry> {
  readonly entry: E;
  readonly start: number;
  readonly end: number;
}
