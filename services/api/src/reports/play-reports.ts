import type { PlayReport, PlaysQuery } from './reports.dto.ts';
import type { PlayRow, ReportsRepository } from './reports.repository.ts';
import { floorTo } from './series.ts';
import type { SumsRepository } from './sums.repository.ts';

/*
 * Per play of the log (jingles left out): the listeners when it started and ended, how many
 * sessions ended while it played (the tune-out), and how many heard some of it (the count a
 * royalty report asks for). The audience rollup counts a play once the hours it spans are
 * summed and keeps the counts (play_listeners); the rest are counted from the sessions.
 */

export const CSV_HEADER = ['time', 'artist', 'title', 'album', 'isrc', 'duration', 'listeners'];

const DAY_MS = 86_400_000;

interface Counted {
  row: PlayRow;
  report: PlayReport;
  /** Seconds: the play's own length, else the track's. */
  duration: number | null;
}

/** The plays' audiences in the hours the rollup sums: what it calls after summing them. */
export interface PlayCounter {
  /**
   * Counts the plays that ended in (from, to] and started at `notBefore` or later (no session
   * of theirs is removed yet) and keeps the counts; returns how many.
   */
  keepCounts(from: number, to: number, notBefore: number): Promise<number>;
}

export class PlayReports implements PlayCounter {
  readonly #repo: ReportsRepository;
  readonly #sums: SumsRepository;
  readonly #now: () => number;

  constructor(repo: ReportsRepository, sums: SumsRepository, now: () => number = Date.now) {
    this.#repo = repo;
    this.#sums = sums;
    this.#now = now;
  }

  async tracks(query: PlaysQuery): Promise<{ plays: PlayReport[] }> {
    return { plays: (await this.#count(query)).map((play) => play.report) };
  }

  /** The play log as RFC 4180 CSV (CRLF line ends), one line per play. */
  async csv(query: PlaysQuery): Promise<string> {
    const lines = [CSV_HEADER.join(',')];
    for (const { row, report, duration } of await this.#count(query)) {
      // Tags are anyone's text: a cell a spreadsheet would run as a formula is neutralised.
      // The numbers are ours and stay numbers.
      const tags = [row.artist ?? '', row.title, row.album ?? '', row.isrc ?? ''].map(csvText);
      const numbers = [duration, report.listeners].map((n) => (n === null ? '' : String(n)));
      lines.push([csvField(report.playedAt), ...tags, ...numbers.map(csvField)].join(','));
    }
    return `${lines.join('\r\n')}\r\n`;
  }

  async keepCounts(from: number, to: number, notBefore: number): Promise<number> {
    if (to <= from) return 0;
    const plays = await this.#repo.endedPlays(from, to, notBefore);
    // A day's plays at a time: one read of the sessions stays a day's, however far back.
    const days = Map.groupBy(plays, (play) => floorTo(play.end, DAY_MS));
    for (const day of days.values()) {
      const spans = await this.#repo.spans({
        from: Math.min(...day.map((play) => play.start)),
        to: Math.max(...day.map((play) => play.end)) + 1,
      });
      await this.#repo.saveCounts(
        day.map((play) => ({
          id: play.id,
          audience: spans.audience(play.start, play.end, play.end),
        })),
      );
    }
    return plays.length;
  }

  async #count(query: PlaysQuery): Promise<Counted[]> {
    const now = this.#now();
    const [rows, summed] = await Promise.all([
      this.#repo.plays(new Date(query.from).toISOString(), new Date(query.to).toISOString()),
      this.#sums.summedThrough(),
    ]);
    const plays = rows.map((row) => {
      const start = Date.parse(row.startedAt);
      const end = row.endedAt === null ? null : Date.parse(row.endedAt);
      // A count holds while no session stored since reaches back into the play (the sums
      // reach only as far as those sessions' hours then, and the next run counts it again).
      const counted = summed !== null && end !== null && end <= summed ? row.counted : null;
      return { row, start, end, counted };
    });
    const uncounted = plays.filter((play) => play.counted === null);
    const [keptSince, spans] =
      uncounted.length === 0
        ? [null, null]
        : await Promise.all([
            this.#repo.sessionsKeptSince(),
            this.#repo.spans({
              from: Math.min(...uncounted.map((play) => play.start)),
              to: Math.max(...uncounted.map((play) => play.end ?? now)) + 1,
            }),
          ]);
    return plays.map(({ row, start, end, counted }) => {
      const known = keptSince === null || start >= keptSince;
      const audience = counted ?? (known ? spans?.audience(start, end, now) : null) ?? null;
      const played = end === null ? null : Math.round((end - start) / 1000);
      return {
        row,
        duration: played ?? (row.duration === null ? null : Math.round(row.duration)),
        report: {
          playedAt: row.startedAt,
          endedAt: row.endedAt,
          track: { id: row.trackId, title: row.title, artist: row.artist },
          listenersAtStart: audience?.listenersAtStart ?? null,
          listenersAtEnd: audience?.listenersAtEnd ?? null,
          leftDuring: audience?.leftDuring ?? null,
          listeners: audience?.listeners ?? null,
        },
      };
    });
  }
}

/** One CSV field: quoted when it holds a comma, quote or line break; quotes doubled. */
export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** What a spreadsheet reads as the start of a formula (OWASP's list, line feed too). */
const FORMULA_START = /^[=+\-@\t\r\n]/;

/**
 * A field of text from outside (tags): one that starts like a formula gets a leading `'`, as
 * OWASP advises for CSV injection, so a spreadsheet shows it as text and runs nothing.
 */
export function csvText(value: string): string {
  return csvField(FORMULA_START.test(value) ? `'${value}` : value);
}
