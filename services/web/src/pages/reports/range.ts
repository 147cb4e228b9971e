/* The period a report covers, as the page keeps it and as the inputs show it. */

export interface Period {
  /** Epoch ms. */
  from: number;
  to: number;
}

const HOUR = 3_600_000;

export const PRESETS = [
  { label: '24 hours', ms: 24 * HOUR },
  { label: '7 days', ms: 7 * 24 * HOUR },
  { label: '30 days', ms: 30 * 24 * HOUR },
] as const;

/** The per-play report and the CSV cover at most this much (the api's limit). */
export const MAX_PLAYS_MS = 31 * 24 * HOUR;

/** The last `ms` up to the next whole minute. */
export function lastPeriod(ms: number, now = Date.now()): Period {
  const to = Math.ceil(now / 60_000) * 60_000;
  return { from: to - ms, to };
}

/** `YYYY-MM-DDTHH:mm` in local time, as a datetime-local input shows it. */
export function toLocalInput(ms: number): string {
  const date = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, '0');
  return (
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}` +
    `T${pad(date.getHours())}:${pad(date.getMinutes())}`
  );
}

/** A datetime-local value (local time) as epoch ms; NaN when empty or malformed. */
export function fromLocalInput(value: string): number {
  return value ? new Date(value).getTime() : Number.NaN;
}

/** The flag emoji of an ISO 3166-1 alpha-2 code: its two regional indicator symbols. */
export function flagOf(code: string): string {
  if (!/^[A-Z]{2}$/.test(code)) return '';
  return String.fromCodePoint(...[...code].map((c) => 0x1f1e6 + c.charCodeAt(0) - 65));
}

let regions: Intl.DisplayNames | null = null;

/** A country's name in the browser's language, or the code when it has none. */
export function countryName(code: string): string {
  regions ??= new Intl.DisplayNames(undefined, { type: 'region' });
  try {
    return regions.of(code) ?? code;
  } catch {
    return code;
  }
}
