export { CommandRegistry, type ControlCommand, type ControlHandler } from './control/registry.ts';
export { SchedulerError, type SchedulerErrorCode } from './errors.ts';
export { SchedulerMetrics } from './metrics/scheduler-metrics.ts';
export {
  DEFAULT_STATION,
  type SchedulerOptions,
  schedulerOptionsFromConfig,
} from './options.ts';
export type { MountStatus, StationInfo } from './outputs/mount-output.ts';
export * from './programming/index.ts';
export {
  createScheduler,
  type Scheduler,
  type SchedulerDeps,
  type SchedulerStatus,
} from './scheduler.ts';
// The runtime's mapping of a planned entry onto the bus's timeline entry (the api's bench uses it).
export { type TimelineLookup, toTimelineEntry } from './sources/programme-inputs.ts';
export { SCHEDULER_NAME, SCHEDULER_VERSION } from './version.ts';
