export { activeSpan, nextBoundary } from './active.ts';
export { daysToMask, maskToDays } from './days.ts';
export {
  type EntryWindow,
  entryWindow,
  expandSchedules,
  localInstant,
  startsOn,
} from './expand.ts';
export { findOverlap } from './overlap.ts';
export type {
  PlanScheduleEntry,
  ScheduleSpan,
  ScheduleStartMode,
  ScheduleTiming,
} from './types.ts';
export {
  type CivilDate,
  civilDate,
  dayNumber,
  fromLocal,
  isValidTimeZone,
  type LocalDateTime,
  localDayNumber,
  parseDate,
  parseTime,
  toLocal,
  weekdayAt,
  weekdayOfDay,
  zoneOffset,
} from './zoned-time.ts';
