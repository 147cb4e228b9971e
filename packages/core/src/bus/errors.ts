import { RadioError } from '../errors.ts';

/** Base class of the errors the bus raises itself; `code` is one of the `BUS_*` codes. */
export class BusError extends RadioError {}

/** No handler answered a command in time. */
export class BusTimeoutError extends BusError {
  readonly commandType: string;
  readonly timeoutMs: number;

  constructor(commandType: string, timeoutMs: number) {
    super(
      'BUS_TIMEOUT',
      `no handler answered command "${commandType}" within ${timeoutMs} ms (is the service that handles it running?)`,
    );
    this.commandType = commandType;
    this.timeoutMs = timeoutMs;
  }
}

/** The bus was closed: a request still pending, or a call made after `close()`. */
export class BusClosedError extends BusError {
  constructor(message = 'the bus is closed') {
    super('BUS_CLOSED', message);
  }
}

/** The transport (Redis) cannot be reached right now; the call may succeed later. */
export class BusUnavailableError extends BusError {
  constructor(message: string, options?: ErrorOptions) {
    super('BUS_UNAVAILABLE', message, options);
  }
}

/**
 * A payload, result or state value does not match its schema. Raised to the caller that tried
 * to send it (a bug on the caller's side), and used as the error of a command whose handler
 * answered with a malformed result.
 */
export class BusInvalidMessageError extends BusError {
  constructor(message: string) {
    super('BUS_INVALID_MESSAGE', message);
  }
}

/** A second command handler was registered for a command type that already has one. */
export class BusHandlerConflictError extends BusError {
  constructor(message: string) {
    super('BUS_HANDLER_CONFLICT', message);
  }
}

/**
 * The handler of a command answered with an error. `code` is the handler's own code (for
 * example `SCHEDULER_TRACK_NOT_FOUND`, or `INTERNAL` for an unexpected failure) and the message
 * is the handler's message, so callers can map it straight to a user-facing answer.
 */
export class CommandFailedError extends RadioError {
  readonly commandType: string;

  constructor(commandType: string, code: string, message: string) {
    super(code, message);
    this.commandType = commandType;
  }
}
