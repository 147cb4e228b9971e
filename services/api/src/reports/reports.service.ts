import type { ListenerClient } from '@radio/db';
import { HyperLogLog } from '../audience/hyperloglog.ts';
import type { ListenersQuery, ListenersReport } from './reports.dto.ts';
import {
  GROUP_COLUMNS,
  type GroupColumn,
  QUARTER_HOUR_MS,
  type Range,
  type ReportsRepository,
  type SessionFilter,
  type SessionTotals,
} from './reports.repository.ts';
import { ceilTo, floorTo, HOUR_MS, MINUTE_MS, overlapSeries } from './series.ts';
import type { SummedBreakdown, SumsRepository } from './sums.repository.ts';

/*
 * The listeners report. Hours the audience rollup has summed (every complete hour, a few
 * seconds after it ends) come from the sums: listener_hourly gives the series, sessions, time
 * listened, session lengths and AQH exactly as the sessions would; listener_sketches gives
 * unique listeners as merged HyperLogLog sketches (estimates within about 1 %, exact when
 * small). Only what is not summed yet (the current hour, and any hour the rollup has not
 * reached) reads the sessions, and a per-minute series (the last 48 h) reads them throughout.
 */

const DAY_MS = 86_400_000;
/** Within this much of now, the series is per minute. */
const MINUTE_SERIES_MS = 48 * HOUR_MS;

interface Group {
  key: string | null;
  sessions: number;
  listeners: number;
  listeningMs: number;
}

export interface ReportsServiceOptions {
  /** The clock (tests fix it). */
  now?: () => number;
}

const iso = (ms: number) => new Date(ms).toISOString();
const hoursOf = (ms: number) => Math.round(ms / 3_600) / 1_000;

/** A period: minutes before its first summed hour, the summed hours, the hours after. */
interface Parts {
  head: Range;
  old: Range;
  kept: Range;
}

/** What the summed hours of a period give: their listeners by sketch and their sums. */
interface Summed {
  listeners: Promise<Listeners>;
  sums: Promise<SummedBreakdown>;
}

/** The listeners of a range by sketch: in all and per mount, country and client. */
interface Listeners {
  all: HyperLogLog;
  by: Map<GroupColumn, Map<string, HyperLogLog>>;
  merged: number;
}

export class ReportsService {
  readonly #repo: ReportsRepository;
  readonly #sums: SumsRepository;
  readonly #now: () => number;

  constructor(repo: ReportsRepository, sums: SumsRepository, options: ReportsServiceOptions = {}) {
    this.#repo = repo;
    this.#sums = sums;
    this.#now = options.now ?? Date.now;
  }

  async listeners(query: ListenersQuery): Promise<ListenersReport> {
    const filter: SessionFilter = {
      mount: query.mount,
      country: query.country,
      client: query.client,
    };
    const summed = await this.#sums.summedThrough();
    const minute = query.from >= this.#now() - MINUTE_SERIES_MS;
    const step = minute ? MINUTE_MS : HOUR_MS;
    const from = floorTo(query.from, step);
    const to = ceilTo(query.to, step);
    // The whole summed hours of the period (`old`), the part before them (`head`: some minutes
    // of a per-minute period) and after them (`kept`: not summed yet) read from the sessions.
    const h0 = Math.min(ceilTo(from, HOUR_MS), to);
    const split = summed === null ? h0 : Math.min(Math.max(summed, h0), to);
    const parts: Parts =
      split > h0
        ? { head: { from, to: h0 }, old: { from: h0, to: split }, kept: { from: split, to } }
        : { head: { from, to: from }, old: { from, to: from }, kept: { from, to } };
    // One read of the summed hours' sketches serves the cume and the groups' listeners, one
    // of their sums the totals and the groups.
    const fromSums: Summed | null =
      split > h0
        ? {
            listeners: this.#listeners(parts, filter),
            sums: this.#sums.breakdown(parts.old, filter, parts.head.to <= parts.head.from),
          }
        : null;
    // Awaited below; a failure of one read is the report's error, never an unhandled one.
    fromSums?.listeners.catch(() => undefined);
    fromSums?.sums.catch(() => undefined);
    // A per-minute series reads the sessions throughout (48 h at most).
    const seriesOld = minute ? { from, to: from } : parts.old;
    const seriesKept = minute ? { from, to } : parts.kept;
    const [series, totals, groups, unique] = await Promise.all([
      this.#series(seriesOld, seriesKept, step, filter),
      this.#totals(parts, filter, fromSums),
      this.#groups(parts, filter, fromSums),
      this.#unique(
        [1, 7, 30].map((days) => to - days * DAY_MS),
        to,
        summed,
        filter,
      ),
    ]);
    let peak = { at: iso(from), listeners: 0 };
    for (const point of series) if (point.listeners > peak.listeners) peak = point;
    const quarters =
      ceilTo(to, QUARTER_HOUR_MS) / QUARTER_HOUR_MS -
      floorTo(from, QUARTER_HOUR_MS) / QUARTER_HOUR_MS;
    return {
      from: iso(from),
      to: iso(to),
      step: minute ? 'minute' : 'hour',
      series,
      peak,
      uniqueListeners: {
        day: unique.counts[0] ?? 0,
        week: unique.counts[1] ?? 0,
        month: unique.counts[2] ?? 0,
      },
      uniquesEstimated: ((await fromSums?.listeners)?.merged ?? 0) > 0 || unique.estimated,
      sessions: totals.sessions,
      listeningHours: hoursOf(totals.listeningMs),
      averageSessionSeconds:
        totals.sessions === 0 ? 0 : Math.round(totals.durationMs / totals.sessions) / 1000,
      averageQuarterHour: Math.round((totals.quarterHourListeners / quarters) * 100) / 100,
      cume: totals.listeners,
      byMount: groups.mount.map((g) => ({ mount: g.key ?? '', ...groupFigures(g) })),
      byCountry: groups.country.map((g) => ({ country: g.key || null, ...groupFigures(g) })),
      byClient: groups.client.map((g) => ({
        client: (g.key ?? 'other') as ListenerClient,
        ...groupFigures(g),
      })),
    };
  }

  async #series(old: Range, kept: Range, step: number, filter: SessionFilter) {
    const points: { at: string; listeners: number }[] = [];
    if (old.to > old.from) {
      const present = await this.#sums.present(old, filter);
      for (let at = old.from; at < old.to; at += HOUR_MS) {
        points.push({ at: iso(at), listeners: present.get(at) ?? 0 });
      }
    }
    if (kept.to > kept.from) {
      const counts = await this.#repo.seriesCounts(kept, step, filter);
      const buckets = (kept.to - kept.from) / step;
      overlapSeries(buckets, counts.before, counts.starts, counts.ends).forEach((listeners, k) => {
        points.push({ at: iso(kept.from + k * step), listeners });
      });
    }
    return points;
  }

  /** The listeners of the summed hours by sketch, with the sessions' before and after added. */
  async #listeners({ head, old, kept }: Parts, filter: SessionFilter): Promise<Listeners> {
    const [listeners, before, after] = await Promise.all([
      this.#sums.sketches(old, filter, GROUP_COLUMNS),
      head.to > head.from ? this.#repo.listenerValues(head, filter) : [],
      kept.to > kept.from ? this.#repo.listenerValues(kept, filter) : [],
    ]);
    for (const value of [...before, ...after]) {
      const hash = HyperLogLog.hash(value.who);
      listeners.all.addHash(hash);
      for (const column of GROUP_COLUMNS) {
        const sketches = listeners.by.get(column) as Map<string, HyperLogLog>;
        let sketch = sketches.get(value[column]);
        if (sketch === undefined) {
          sketch = new HyperLogLog();
          sketches.set(value[column], sketch);
        }
        sketch.addHash(hash);
      }
    }
    return listeners;
  }

  async #totals(
    { head, kept }: Parts,
    filter: SessionFilter,
    summed: Summed | null,
  ): Promise<SessionTotals> {
    const totals = await this.#repo.totals(kept, filter);
    if (summed === null) return totals;
    const firstUnderWay = head.to <= head.from;
    const [before, { totals: sums }, listeners] = await Promise.all([
      firstUnderWay ? null : this.#repo.totals(head, filter),
      summed.sums,
      summed.listeners,
    ]);
    // A session is counted once: in the first part it is under way in, else where it started.
    return {
      sessions: (before?.sessions ?? 0) + sums.sessions + totals.startedSessions,
      listeners: listeners.all.count(),
      listeningMs: (before?.listeningMs ?? 0) + sums.listeningMs + totals.listeningMs,
      durationMs: (before?.durationMs ?? 0) + sums.durationMs + totals.startedDurationMs,
      quarterHourListeners:
        (before?.quarterHourListeners ?? 0) +
        sums.quarterHourListeners +
        totals.quarterHourListeners,
      startedSessions: 0,
      startedDurationMs: 0,
    };
  }

  async #groups({ head, kept }: Parts, filter: SessionFilter, summed: Summed | null) {
    const firstUnderWay = head.to <= head.from;
    const [listeners, ...columns] = await Promise.all([
      summed?.listeners,
      ...GROUP_COLUMNS.map(async (column) => {
        const groups = new Map<string | null, Group>();
        const rows = kept.to > kept.from ? await this.#repo.groups(kept, filter, column) : [];
        for (const row of rows) {
          const sessions = summed !== null ? row.startedSessions : row.sessions;
          groups.set(row.key, { ...row, sessions });
        }
        const before = firstUnderWay ? [] : await this.#repo.groups(head, filter, column);
        for (const row of before) {
          const group = groups.get(row.key) ?? {
            key: row.key,
            sessions: 0,
            listeners: 0,
            listeningMs: 0,
          };
          group.sessions += row.sessions;
          group.listeningMs += row.listeningMs;
          groups.set(row.key, group);
        }
        const sums = summed === null ? [] : (await summed.sums).groups(column);
        for (const row of sums) {
          const key = column === 'country' && row.key === '' ? null : row.key;
          const group = groups.get(key) ?? { key, sessions: 0, listeners: 0, listeningMs: 0 };
          group.sessions += row.sessions;
          group.listeningMs += row.listeningMs;
          groups.set(key, group);
        }
        return groups;
      }),
    ]);
    const result = GROUP_COLUMNS.map((column, i) => {
      const groups = [...(columns[i] as Map<string | null, Group>).values()];
      for (const group of groups) {
        const sketch = listeners?.by.get(column)?.get(group.key ?? '');
        if (listeners) group.listeners = sketch?.count() ?? 0;
      }
      return groups.sort(
        (a, b) => b.listeningMs - a.listeningMs || String(a.key).localeCompare(String(b.key)),
      );
    });
    return { mount: result[0] ?? [], country: result[1] ?? [], client: result[2] ?? [] };
  }

  /**
   * Distinct listeners of windows ending at `to`: exact from the sessions before the rollup's
   * first run; after it, the summed hours' sketches merged with the sessions of the rest (the
   * part of the window's first hour before it, and the hours not summed yet).
   */
  async #unique(
    froms: number[],
    to: number,
    summed: number | null,
    filter: SessionFilter,
  ): Promise<{ counts: number[]; estimated: boolean }> {
    if (summed === null) {
      return { counts: await this.#repo.uniqueListeners(froms, to, filter), estimated: false };
    }
    const summedTo = Math.min(summed, to);
    let tail: ReturnType<ReportsRepository['listenerValues']> | null = null;
    // The hours not summed yet, read once for every window that needs them.
    const readTail = () => {
      tail ??=
        summedTo < to
          ? this.#repo.listenerValues({ from: summedTo, to }, filter)
          : Promise.resolve([]);
      return tail;
    };
    let estimated = false;
    const counts = await Promise.all(
      froms.map(async (from) => {
        const summedFrom = ceilTo(from, HOUR_MS);
        if (summedFrom >= summedTo) {
          return (await this.#repo.uniqueListeners([from], to, filter))[0] ?? 0;
        }
        const [{ all, merged }, head, rest] = await Promise.all([
          this.#sums.sketches({ from: summedFrom, to: summedTo }, filter, []),
          from < summedFrom ? this.#repo.listenerValues({ from, to: summedFrom }, filter) : [],
          readTail(),
        ]);
        if (merged > 0) estimated = true;
        for (const value of [...head, ...rest]) all.add(value.who);
        return all.count();
      }),
    );
    return { counts, estimated };
  }
}

function groupFigures(group: Group) {
  return {
    sessions: group.sessions,
    listeners: group.listeners,
    hours: hoursOf(group.listeningMs),
  };
}
