/*
 * The week calendar's arithmetic, kept free of React so it is tested alone: dates as
 * `YYYY-MM-DD` text (a calendar day, no time zone), times as minutes after midnight, and the
 * station's wall clock read from the occurrences the api expanded in STATION_TIMEZONE.
 */

export const MINUTES_PER_DAY = 1440;
/** Dragging and new entries snap to this many minutes. */
export const SNAP_MINUTES = 15;

export interface WallTime {
  /** `YYYY-MM-DD` in the station's time zone. */
  date: string;
  /** Minutes after that day's midnight, 0-1439. */
  minutes: number;
}

function pad(value: number): string {
  return String(value).padStart(2, '0');
}

function dateText(utc: Date): string {
  return `${utc.getUTCFullYear()}-${pad(utc.getUTCMonth() + 1)}-${pad(utc.getUTCDate())}`;
}

function parseDate(date: string): Date {
  return new Date(`${date}T00:00:00Z`);
}

/** `date` moved by `days` calendar days. */
export function addDays(date: string, days: number): string {
  const utc = parseDate(date);
  utc.setUTCDate(utc.getUTCDate() + days);
  return dateText(utc);
}

/** 1 = Monday … 7 = Sunday, as schedules number days. */
export function weekday(date: string): number {
  const day = parseDate(date).getUTCDay();
  return day === 0 ? 7 : day;
}

/** The Monday of the week `date` is in. */
export function weekStart(date: string): string {
  return addDays(date, 1 - weekday(date));
}

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return Math.round((parseDate(to).getTime() - parseDate(from).getTime()) / 86_400_000);
}

/** Today's date on the wall clock of `timeZone` at `now`. */
export function todayIn(timeZone: string, now: number): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).formatToParts(new Date(now));
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')}`;
}

/**
 * The wall clock an ISO time stands for. An offset in the text (`+01:00`) is the station's own
 * (the api writes occurrences in STATION_TIMEZONE), so its digits are read as they are; a `Z`
 * time is read on the wall clock of `timeZone`.
 */
export function wallClock(iso: string, timeZone = 'UTC'): WallTime {
  const local = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})(?::[\d.]+)?[+-]\d{2}:?\d{2}$/.exec(iso);
  if (local) {
    return { date: local[1] as string, minutes: Number(local[2]) * 60 + Number(local[3]) };
  }
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
  }).formatToParts(new Date(iso));
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '0';
  return {
    date: `${part('year')}-${part('month')}-${part('day')}`,
    minutes: Number(part('hour')) * 60 + Number(part('minute')),
  };
}

/** `HH:MM` of minutes after midnight (wrapped into one day). */
export function formatHm(minutes: number): string {
  const wrapped = ((Math.round(minutes) % MINUTES_PER_DAY) + MINUTES_PER_DAY) % MINUTES_PER_DAY;
  return `${pad(Math.floor(wrapped / 60))}:${pad(wrapped % 60)}`;
}

/** Minutes after midnight of `HH:MM`, or null when it is not a time of day. */
export function parseHm(text: string): number | null {
  const match = /^(\d{1,2}):(\d{2})$/.exec(text.trim());
  if (!match) return null;
  const hours = Number(match[1]);
  const minutes = Number(match[2]);
  if (hours > 23 || minutes > 59) return null;
  return hours * 60 + minutes;
}

export interface Geometry {
  /** Height of one hour row, px. */
  hourHeight: number;
  /** Width of one day column, px. */
  dayWidth: number;
}

/** The wall time under a point of the grid (`y` from the top of the day columns). */
export function pointToMinutes(y: number, geometry: Geometry, step = SNAP_MINUTES): number {
  const minutes = Math.floor(((y / geometry.hourHeight) * 60) / step) * step;
  return Math.min(MINUTES_PER_DAY - step, Math.max(0, minutes));
}

/** How far a drag moved an entry: whole steps of minutes and whole days, to the nearest. */
export function dragDelta(
  dx: number,
  dy: number,
  geometry: Geometry,
  step = SNAP_MINUTES,
): { minutes: number; days: number } {
  const minutes = Math.round(((dy / geometry.hourHeight) * 60) / step) * step;
  const days = Math.round(dx / geometry.dayWidth);
  // `+ 0` turns a rounded −0 into 0.
  return { minutes: minutes + 0, days: days + 0 };
}

export interface ScheduleTimes {
  days: number[];
  startTime: string;
  endTime: string;
}

function shiftDays(days: readonly number[], by: number): number[] {
  const shifted = days.map((day) => ((((day - 1 + by) % 7) + 7) % 7) + 1);
  return [...new Set(shifted)].sort((a, b) => a - b);
}

/**
 * An entry moved by a drag: its start and end by `minutes`, its days by `days` when it has one
 * day only (a drag across columns of a many-day entry moves its times alone). A start pushed
 * over midnight moves the days with it, so the entry keeps its place in the week.
 */
export function moveSchedule(
  entry: ScheduleTimes,
  delta: { minutes: number; days: number },
): ScheduleTimes {
  const start = parseHm(entry.startTime) ?? 0;
  const end = parseHm(entry.endTime) ?? 0;
  const moved = start + delta.minutes;
  const wrap = Math.floor(moved / MINUTES_PER_DAY);
  const dayShift = wrap + (entry.days.length === 1 ? delta.days : 0);
  return {
    days: shiftDays(entry.days, dayShift),
    startTime: formatHm(moved),
    endTime: formatHm(end + delta.minutes),
  };
}

export interface Occurrence {
  scheduleId: number;
  start: string;
  end: string;
}

export interface Block<O extends Occurrence> {
  occurrence: O;
  /** 0 = Monday … 6 = Sunday of the week shown. */
  column: number;
  /** Minutes after the column's midnight. */
  top: number;
  bottom: number;
  /** The block goes on from the day before (a span across midnight). */
  continued: boolean;
  /** Side by side with the blocks it overlaps: its lane of `lanes`. */
  lane: number;
  lanes: number;
}

type Piece<O extends Occurrence> = Omit<Block<O>, 'lane' | 'lanes'>;

export interface Span {
  start: WallTime;
  end: WallTime;
}

const MAX_OFFSET_MINUTES = 14 * 60;

/**
 * The wall-clock span of an occurrence of `entry` that starts at the instant `startMs`. The api
 * answers instants (UTC); the entry's own times are the station's wall clock, so only the day
 * is to be found: the one whose `startTime` lies within a time zone's reach of the instant
 * (±14 h) and is one of the entry's days (the nearest when two are).
 */
export function entrySpan(startMs: number, entry: ScheduleTimes): Span {
  const start = parseHm(entry.startTime) ?? 0;
  const end = parseHm(entry.endTime) ?? 0;
  const utcDate = new Date(startMs).toISOString().slice(0, 10);
  let best: { date: string; score: number } | null = null;
  for (const shift of [-1, 0, 1]) {
    const date = addDays(utcDate, shift);
    const offset = (parseDate(date).getTime() + start * 60_000 - startMs) / 60_000;
    if (Math.abs(offset) > MAX_OFFSET_MINUTES) continue;
    const score = (entry.days.includes(weekday(date)) ? 0 : 10_000) + Math.abs(offset);
    if (!best || score < best.score) best = { date, score };
  }
  const date = best?.date ?? utcDate;
  return {
    start: { date, minutes: start },
    end: { date: end > start ? date : addDays(date, 1), minutes: end },
  };
}

/** A span cut at each midnight into the pieces that fall in the week from `monday`. */
function pieces<O extends Occurrence>(occurrence: O, span: Span, monday: string): Piece<O>[] {
  const { start, end } = span;
  const out: Piece<O>[] = [];
  const firstDay = daysBetween(monday, start.date);
  const lastDay = daysBetween(monday, end.date) - (end.minutes === 0 ? 1 : 0);
  for (let day = Math.max(0, firstDay); day <= Math.min(6, lastDay); day += 1) {
    const first = day === firstDay;
    const top = first ? start.minutes : 0;
    const bottom = day === daysBetween(monday, end.date) ? end.minutes : MINUTES_PER_DAY;
    if (bottom > top) out.push({ occurrence, column: day, top, bottom, continued: !first });
  }
  return out;
}

/** Lanes for the blocks of one column: overlapping blocks sit side by side. */
function assignLanes<O extends Occurrence>(column: Piece<O>[]): Block<O>[] {
  const sorted = [...column].sort((a, b) => a.top - b.top || b.bottom - a.bottom);
  const blocks: Block<O>[] = [];
  let group: Block<O>[] = [];
  let groupEnd = -1;
  const closeGroup = () => {
    const lanes = Math.max(1, ...group.map((block) => block.lane + 1));
    for (const block of group) block.lanes = lanes;
    group = [];
  };
  for (const piece of sorted) {
    if (piece.top >= groupEnd) closeGroup();
    const laneEnds = new Map<number, number>();
    for (const block of group) {
      laneEnds.set(block.lane, Math.max(laneEnds.get(block.lane) ?? 0, block.bottom));
    }
    let lane = 0;
    while ((laneEnds.get(lane) ?? -1) > piece.top) lane += 1;
    const block = { ...piece, lane, lanes: 1 };
    group.push(block);
    blocks.push(block);
    groupEnd = Math.max(groupEnd, piece.bottom);
  }
  closeGroup();
  return blocks;
}

/** Where each occurrence is drawn in the week from `monday` (Monday's date). */
export function layoutWeek<O extends Occurrence>(
  occurrences: readonly O[],
  monday: string,
  spanOf: (occurrence: O) => Span,
): Block<O>[] {
  const columns: Piece<O>[][] = [[], [], [], [], [], [], []];
  for (const occurrence of occurrences) {
    for (const piece of pieces(occurrence, spanOf(occurrence), monday)) {
      columns[piece.column]?.push(piece);
    }
  }
  return columns.flatMap(assignLanes);
}
