import { RadioError } from '@radio/core';

/**
 * The scheduler's error codes. The control port prints `ERROR: <message>` and the bus answers
 * `{ code, message }`; tests compare the code.
 */
export type SchedulerErrorCode =
  | 'SCHEDULER_INVALID_OPTIONS'
  | 'SCHEDULER_NOT_STARTED'
  | 'SCHEDULER_STOPPED'
  | 'SCHEDULER_TRACK_NOT_FOUND'
  | 'SCHEDULER_TRACK_INVALID'
  | 'SCHEDULER_FILE_NOT_FOUND'
  | 'SCHEDULER_PATH_OUTSIDE_LIBRARY'
  | 'SCHEDULER_BAD_URI'
  | 'SCHEDULER_PLAYLIST_NOT_FOUND'
  | 'SCHEDULER_PLAYLIST_EMPTY'
  | 'SCHEDULER_REQUEST_NOT_FOUND'
  | 'SCHEDULER_NOTHING_ON_AIR'
  | 'SCHEDULER_BAD_VALUE'
  | 'SCHEDULER_UNKNOWN_VARIABLE'
  | 'SCHEDULER_CONTROL_LISTEN_FAILED'
  | 'SCHEDULER_COMMAND_EXISTS'
  | 'SCHEDULER_SOURCE_REJECTED';

export class SchedulerError extends RadioError {
  declare readonly code: SchedulerErrorCode;

  constructor(code: SchedulerErrorCode, message: string, options?: ErrorOptions) {
    super(code, message, options);
  }
}
