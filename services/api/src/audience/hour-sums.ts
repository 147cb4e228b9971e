import type { ListenerHourlyTable } from '@radio/db';
import type { SessionSlice } from './audience.repository.ts';

export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;
const QUARTER_MS = 15 * 60_000;
const QUARTER_MIN_MS = 5 * 60_000;

interface Bucket {
  row: ListenerHourlyTable;
  /** Start (+1) and end (-1) times of the sessions' parts in the hour, for the peak. */
  events: number[];
}

/**
 * The hourly sums of sessions over the hours of [from, to), per mount, country ('' unknown)
 * and client family: `sessions` started in the hour (so sums over hours count each session
 * once), `listening_ms` the part of every session inside the hour (so hours add up to the
 * time listened), `peak` the most of the group's sessions open at once in the hour.
 */
export class HourSums {
  readonly #from: number;
  readonly #to: number;
  readonly #buckets = new Map<string, Bucket>();

  constructor(from: number, to: number) {
    this.#from = from;
    this.#to = to;
  }

  /** Adds a session to the hours it overlaps or starts in; returns those hours. */
  add(session: SessionSlice): number[] {
    const country = session.country ?? '';
    const hours: number[] = [];
    const first = Math.max(this.#from, Math.floor(session.started / HOUR_MS) * HOUR_MS);
    for (let hour = first; hour < this.#to && hour <= session.ended; hour += HOUR_MS) {
      const start = Math.max(session.started, hour);
      const end = Math.min(session.ended, hour + HOUR_MS);
      const startsHere = session.started >= hour && session.started < hour + HOUR_MS;
      if (end <= start && !startsHere) continue;
      hours.push(hour);
      const key = `${hour}\n${session.mount}\n${country}\n${session.client}`;
      let bucket = this.#buckets.get(key);
      if (bucket === undefined) {
        bucket = { row: emptyRow(hour, session.mount, country, session.client), events: [] };
        this.#buckets.set(key, bucket);
      }
      const row = bucket.row;
      row.present += 1;
      row.present_duration_ms += session.duration;
      if (startsHere) {
        row.sessions += 1;
        row.started_duration_ms += session.duration;
      }
      if (end > start) {
        row.listening_ms += end - start;
        row.quarter_listeners += quartersListened(start, end);
        // Ends are odd and starts even at the same time, so a sort puts ends first: a listener
        // who leaves as another arrives is never counted twice.
        bucket.events.push(start * 2, end * 2 - 1);
      }
    }
    return hours;
  }

  rows(): ListenerHourlyTable[] {
    const rows: ListenerHourlyTable[] = [];
    for (const { row, events } of this.#buckets.values()) {
      events.sort((a, b) => a - b);
      let open = 0;
      for (const event of events) {
        open += event % 2 === 0 ? 1 : -1;
        if (open > row.peak) row.peak = open;
      }
      rows.push(row);
    }
    return rows;
  }
}

function emptyRow(
  hour: number,
  mount: string,
  country: string,
  client: string,
): ListenerHourlyTable {
  return {
    hour_ms: hour,
    mount,
    country,
    client,
    sessions: 0,
    listening_ms: 0,
    peak: 0,
    present: 0,
    quarter_listeners: 0,
    started_duration_ms: 0,
    present_duration_ms: 0,
  };
}

/**
 * The quarter hours (from the epoch, UTC) in which [start, end) lasts 5 minutes or more, as
 * the reports count them for the average quarter-hour audience.
 */
export function quartersListened(start: number, end: number): number {
  let quarters = 0;
  for (let q = Math.floor(start / QUARTER_MS) * QUARTER_MS; q < end; q += QUARTER_MS) {
    if (Math.min(end, q + QUARTER_MS) - Math.max(start, q) >= QUARTER_MIN_MS) quarters += 1;
  }
  return quarters;
}
