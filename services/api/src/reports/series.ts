/* The arithmetic of the listeners series, apart from the database. */

export const MINUTE_MS = 60_000;
export const HOUR_MS = 3_600_000;

export function floorTo(time: number, step: number): number {
  return Math.floor(time / step) * step;
}

export function ceilTo(time: number, step: number): number {
  return Math.ceil(time / step) * step;
}

/**
 * Per bucket, the sessions connected at some time within it: those under way at the first
 * bucket's start, plus every start up to and including the bucket, less every end before it.
 * `starts`/`ends` are counts per bucket index (see ReportsRepository.seriesCounts).
 */
export function overlapSeries(
  buckets: number,
  before: number,
  starts: ReadonlyMap<number, number>,
  ends: ReadonlyMap<number, number>,
): number[] {
  const values: number[] = [];
  let open = before;
  for (let k = 0; k < buckets; k++) {
    open += starts.get(k) ?? 0;
    values.push(open);
    // Ends within the bucket still overlapped it; they leave before the next one.
    open -= ends.get(k) ?? 0;
  }
  return values;
}
