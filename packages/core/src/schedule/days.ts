/** ISO weekdays (1 Monday … 7 Sunday) to the schedules.days bitmask (bit 0 Monday). */
export function daysToMask(days: readonly number[]): number {
  let mask = 0;
  for (const day of days) {
    if (!Number.isInteger(day) || day < 1 || day > 7) throw new RangeError(`weekday ${day}: 1-7`);
    mask |= 1 << (day - 1);
  }
  return mask;
}

/** The bitmask back to ISO weekdays, ascending. */
export function maskToDays(mask: number): number[] {
  const days: number[] = [];
  for (let day = 1; day <= 7; day++) if (mask & (1 << (day - 1))) days.push(day);
  return days;
}
