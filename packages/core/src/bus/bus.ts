import type {
  CommandMessage,
  CommandPayloads,
  CommandResults,
  CommandType,
  EventMessage,
  EventPayloads,
  EventType,
  StatefulEventType,
  StateKey,
  StateValues,
} from './messages.ts';

/** Handles every command (or every command of the types it was registered for). */
export type CommandHandler = (command: CommandMessage) => Promise<unknown>;

/** One typed function per command type; types left out are not handled by this registration. */
export type CommandHandlers = {
  [K in CommandType]?: (
    payload: CommandPayloads[K],
    command: CommandMessage<K>,
  ) => Promise<CommandResults[K]> | CommandResults[K];
};

export type EventHandler<T extends EventType = EventType> = (
  event: EventMessage<T>,
) => void | Promise<void>;

export interface RequestOptions {
  /** How long to wait for an answer; the bus's `requestTimeoutMs` (5 s by default) if unset. */
  timeoutMs?: number;
  /** Stops waiting: the request rejects with the signal's reason. */
  signal?: AbortSignal;
}

export interface BusHealth {
  kind: 'redis' | 'memory';
  /** Messages can be sent and received now. */
  connected: boolean;
  closed: boolean;
  /** Epoch ms since the connection has been down; null while connected. */
  disconnectedSince: number | null;
  /** Requests of this process waiting for an answer. */
  pendingRequests: number;
  /** Events not published because the transport was down (since the bus was created). */
  droppedEvents: number;
  /** Received messages dropped because they were not JSON or did not match their schema. */
  invalidMessages: number;
}

/**
 * The event bus, the same for Redis (`createRedisBus`) and in-process (`createMemoryBus`).
 *
 * Delivery is always asynchronous: no handler runs inside the caller's stack. Handlers receive
 * validated copies of the messages (JSON round-tripped), never the sender's objects. A handler
 * that throws is logged and never affects the bus or the other handlers.
 *
 * While the transport is down (Redis restarting):
 * - `publish` resolves and the event is dropped; a warning is logged once per outage and
 *   `health().droppedEvents` counts them. Events are notifications of the present; the latest
 *   state is in the state keys, so a late event would be worse than a lost one.
 * - `setState` resolves; the value is kept and written when the connection is back (each state
 *   key has one writer, so this process's last value is the right one after a Redis restart).
 * - `request` and `getState` reject at once with `BusUnavailableError` (`BUS_UNAVAILABLE`).
 */
export interface Bus {
  /**
   * Publishes an event to every subscriber (this process included). Rejects with
   * `BusInvalidMessageError` if the payload does not match its schema, `BusClosedError` after
   * `close()`.
   */
  publish<T extends EventType>(type: T, payload: EventPayloads[T]): Promise<void>;

  /** Receives every event; returns the function that unsubscribes. */
  onEvent(handler: EventHandler): () => void;
  /** Receives the events of the given types only. */
  onEvent<T extends EventType>(handler: EventHandler<T>, types: readonly T[]): () => void;

  /**
   * Sends a command and waits for its handler's answer. Rejects with `BusTimeoutError`
   * (`BUS_TIMEOUT`) when no handler answers in time, `CommandFailedError` (the handler's code)
   * when the handler failed, `BusInvalidMessageError` when the payload or the answer does not
   * match its schema, `BusUnavailableError` while disconnected, `BusClosedError` on close.
   */
  request<T extends CommandType>(
    type: T,
    payload: CommandPayloads[T],
    options?: RequestOptions,
  ): Promise<CommandResults[T]>;

  /**
   * Answers commands. With a map, each function handles its own command type; with one
   * function, it handles the given types, or all types when none are given. A command type may
   * have one handler per bus (`BusHandlerConflictError` otherwise); commands no registration
   * covers are left to other processes. A thrown `RadioError` is answered as
   * `{ ok: false, error: { code, message } }`, any other error as code `INTERNAL`. Commands are
   * handled concurrently, in the order they arrive. Returns the function that unregisters.
   */
  handleCommands(handlers: CommandHandlers): () => void;
  handleCommands(handler: CommandHandler, types?: readonly CommandType[]): () => void;

  /**
   * Publishes an event whose payload is also state (`eventStateKeys`), then stores it under its
   * state key, so a service that starts later reads what the others last heard.
   */
  publishState<T extends StatefulEventType>(type: T, payload: EventPayloads[T]): Promise<void>;

  /** Stores the latest value of a state key for newcomers. Validated like a payload. */
  setState<K extends StateKey>(key: K, value: StateValues[K]): Promise<void>;
  /** The latest value of a state key, or null when none was set (or it is malformed). */
  getState<K extends StateKey>(key: K): Promise<StateValues[K] | null>;

  health(): BusHealth;

  /**
   * Stops the bus: pending requests reject with `BusClosedError`, handlers stop receiving,
   * connections close. Idempotent; every call returns the same promise. A closed bus is not
   * reopened; create a new one.
   */
  close(): Promise<void>;
}

export interface BusOptionsBase {
  /** Default time `request` waits for an answer, in ms (5000). */
  requestTimeoutMs?: number;
}

export const DEFAULT_REQUEST_TIMEOUT_MS = 5000;
