/**
 * The bus itself, over any transport: validation, event fan-out, request/reply, command
 * handlers, state keys and close. `createRedisBus` and `createMemoryBus` only differ in the
 * transport they give it, so both behave the same down to the error codes.
 */
import { randomUUID } from 'node:crypto';
import { RadioError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import {
  type Bus,
  type BusHealth,
  type CommandHandler,
  type CommandHandlers,
  DEFAULT_REQUEST_TIMEOUT_MS,
  type EventHandler,
  type RequestOptions,
} from './bus.ts';
import {
  checkOutgoing,
  decodeCommand,
  decodeEvent,
  decodeReply,
  describeIssues,
  excerpt,
} from './codec.ts';
import {
  BusClosedError,
  BusHandlerConflictError,
  BusInvalidMessageError,
  BusTimeoutError,
  BusUnavailableError,
  CommandFailedError,
} from './errors.ts';
import {
  type CommandMessage,
  type CommandPayloads,
  type CommandResults,
  type CommandType,
  commandPayloadSchemas,
  commandResultSchemas,
  type EventPayloads,
  type EventType,
  eventPayloadSchemas,
  eventStateKeys,
  isCommandType,
  isEventType,
  isStateKey,
  type ReplyError,
  type ReplyPayload,
  type StatefulEventType,
  type StateKey,
  type StateValues,
  stateSchemas,
} from './messages.ts';
import type { BusNames, ChannelListener, Transport } from './transport.ts';

export interface EngineOptions {
  kind: 'redis' | 'memory';
  names: BusNames;
  logger: Logger;
  requestTimeoutMs?: number | undefined;
}

interface PendingRequest {
  type: CommandType;
  resolve(result: unknown): void;
  reject(error: unknown): void;
}

interface EventSubscription {
  handler: EventHandler;
  types: ReadonlySet<EventType> | null;
}

interface CommandRegistration {
  handler: CommandHandler;
  /** null: every command type. */
  types: ReadonlySet<CommandType> | null;
}

/** What a failed handler answers: its own code for a RadioError, `INTERNAL` otherwise. */
function toReplyError(error: unknown): ReplyError {
  if (error instanceof RadioError) return { code: error.code, message: error.message };
  const message = error instanceof Error ? error.message : String(error);
  return { code: 'INTERNAL', message: message || 'internal error' };
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function checkTimeout(value: number, name: string): number {
  if (!Number.isFinite(value) || value <= 0) {
    throw new RangeError(`${name} must be a positive number of milliseconds, got ${value}`);
  }
  return value;
}

export class BusEngine implements Bus {
  readonly #kind: 'redis' | 'memory';
  readonly #names: BusNames;
  readonly #log: Logger;
  readonly #timeoutMs: number;
  readonly #replyChannel: string;
  #transport: Transport | null = null;

  readonly #subscriptions = new Set<EventSubscription>();
  readonly #registrations = new Set<CommandRegistration>();
  readonly #pending = new Map<string, PendingRequest>();
  /** The last value this process set per state key (raw JSON), rewritten after a reconnect. */
  readonly #ownedState = new Map<StateKey, string>();

  #closed = false;
  #closing: Promise<void> | null = null;
  #everConnected = false;
  #disconnectedSince: number | null = Date.now();
  #droppedEvents = 0;
  #dropStreak = 0;
  #invalidMessages = 0;

  constructor(options: EngineOptions) {
    this.#kind = options.kind;
    this.#names = options.names;
    this.#log = options.logger;
    this.#timeoutMs = checkTimeout(
      options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
      'requestTimeoutMs',
    );
    this.#replyChannel = `${options.names.replyPrefix}${randomUUID()}`;
  }

  /** The channels the transport must subscribe to, with their listeners. */
  channelListeners(): Map<string, ChannelListener> {
    return new Map<string, ChannelListener>([
      [this.#names.events, (data) => this.#receiveEvent(data)],
      [this.#names.commands, (data) => this.#receiveCommand(data)],
      [this.#replyChannel, (data) => this.#receiveReply(data)],
    ]);
  }

  attach(transport: Transport): void {
    this.#transport = transport;
    transport.onConnectionChange((connected) => this.#connectionChanged(connected));
    if (transport.isConnected()) this.#connectionChanged(true);
  }

  // ------------------------------------------------------------------------------------------
  // Events

  async publish<T extends EventType>(type: T, payload: EventPayloads[T]): Promise<void> {
    const transport = this.#open(`publish "${type}"`);
    if (!isEventType(type)) throw new BusInvalidMessageError(`unknown event type "${type}"`);
    const checked = checkOutgoing(
      eventPayloadSchemas[type],
      payload,
      `payload for event "${type}"`,
    );
    const raw = JSON.stringify({ type, id: randomUUID(), ts: Date.now(), payload: checked });
    if (!transport.isConnected()) {
      this.#dropEvent(type, null);
      return;
    }
    try {
      await transport.publish(this.#names.events, raw);
    } catch (error) {
      this.#dropEvent(type, error);
      return;
    }
    if (this.#dropStreak > 0) this.#endDropStreak();
  }

  onEvent(handler: EventHandler): () => void;
  onEvent<T extends EventType>(handler: EventHandler<T>, types: readonly T[]): () => void;
  onEvent(handler: EventHandler, types?: readonly EventType[]): () => void {
    this.#open('subscribe to events');
    if (types !== undefined) {
      for (const type of types) {
        if (!isEventType(type)) throw new TypeError(`unknown event type "${type}"`);
      }
    }
    const subscription: EventSubscription = { handler, types: types ? new Set(types) : null };
    this.#subscriptions.add(subscription);
    return () => {
      this.#subscriptions.delete(subscription);
    };
  }

  #receiveEvent(raw: string): void {
    if (this.#closed) return;
    const decoded = decodeEvent(raw);
    if (!decoded.ok) {
      this.#dropInvalid('event', decoded.reason, raw);
      return;
    }
    const event = decoded.message;
    for (const subscription of [...this.#subscriptions]) {
      // A handler may unsubscribe another one while this event is being delivered.
      if (!this.#subscriptions.has(subscription)) continue;
      if (subscription.types && !subscription.types.has(event.type)) continue;
      try {
        const done = subscription.handler(event);
        if (done instanceof Promise) {
          done.catch((error: unknown) => this.#handlerFailed(event.type, event.id, error));
        }
      } catch (error) {
        this.#handlerFailed(event.type, event.id, error);
      }
    }
  }

  #handlerFailed(type: EventType, id: string, error: unknown): void {
    this.#log.error({ err: error, eventType: type, eventId: id }, 'event handler failed');
  }

  #dropEvent(type: EventType, error: unknown): void {
    this.#droppedEvents += 1;
    this.#dropStreak += 1;
    if (this.#dropStreak === 1) {
      this.#log.warn(
        { eventType: type, err: error ?? undefined },
        'bus unreachable: dropping events until it is back',
      );
    }
  }

  #endDropStreak(): void {
    this.#log.info({ dropped: this.#dropStreak }, 'publishing events again');
    this.#dropStreak = 0;
  }

  // ------------------------------------------------------------------------------------------
  // Commands: the requesting side

  async request<T extends CommandType>(
    type: T,
    payload: CommandPayloads[T],
    options: RequestOptions = {},
  ): Promise<CommandResults[T]> {
    const transport = this.#open(`send command "${type}"`);
    if (!isCommandType(type)) throw new BusInvalidMessageError(`unknown command type "${type}"`);
    const timeoutMs = checkTimeout(options.timeoutMs ?? this.#timeoutMs, 'timeoutMs');
    const { signal } = options;
    signal?.throwIfAborted();
    const checked = checkOutgoing(
      commandPayloadSchemas[type],
      payload,
      `payload for command "${type}"`,
    );
    if (!transport.isConnected()) {
      throw new BusUnavailableError(`cannot send command "${type}": the bus is disconnected`);
    }

    const id = randomUUID();
    const answer = new Promise<unknown>((resolve, reject) => {
      const settle = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        this.#pending.delete(id);
      };
      const timer = setTimeout(() => {
        settle();
        reject(new BusTimeoutError(type, timeoutMs));
      }, timeoutMs);
      const onAbort = () => {
        settle();
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#pending.set(id, {
        type,
        resolve: (result) => {
          settle();
          resolve(result);
        },
        reject: (error) => {
          settle();
          reject(error);
        },
      });
    });
    // The answer may fail (close, abort) while the publish below is still in flight; it is
    // returned to the caller afterwards, so keep Node from reporting it as unhandled meanwhile.
    answer.catch(() => {});

    const raw = JSON.stringify({
      type,
      id,
      ts: Date.now(),
      replyTo: this.#replyChannel,
      payload: checked,
    });
    try {
      await transport.publish(this.#names.commands, raw);
    } catch (error) {
      this.#pending.get(id)?.reject(
        new BusUnavailableError(`cannot send command "${type}": ${errorMessage(error)}`, {
          cause: error,
        }),
      );
    }
    return answer as Promise<CommandResults[T]>;
  }

  #receiveReply(raw: string): void {
    if (this.#closed) return;
    const decoded = decodeReply(raw);
    if (!decoded.ok) {
      this.#dropInvalid('reply', decoded.reason, raw);
      return;
    }
    const reply = decoded.message;
    const pending = this.#pending.get(reply.inReplyTo);
    if (!pending) {
      // Timed out or aborted already, or a second handler answered too.
      this.#log.debug({ inReplyTo: reply.inReplyTo }, 'reply to no pending request');
      return;
    }
    if (!reply.payload.ok) {
      const { code, message } = reply.payload.error;
      pending.reject(new CommandFailedError(pending.type, code, message));
      return;
    }
    const result = commandResultSchemas[pending.type].safeParse(reply.payload.result);
    if (!result.success) {
      const reason = `invalid result for command "${pending.type}": ${describeIssues(result.error)}`;
      this.#dropInvalid('reply', reason, raw);
      pending.reject(new BusInvalidMessageError(reason));
      return;
    }
    pending.resolve(result.data);
  }

  // ------------------------------------------------------------------------------------------
  // Commands: the handling side

  handleCommands(handlers: CommandHandlers): () => void;
  handleCommands(handler: CommandHandler, types?: readonly CommandType[]): () => void;
  handleCommands(
    handlers: CommandHandlers | CommandHandler,
    types?: readonly CommandType[],
  ): () => void {
    this.#open('handle commands');
    let registration: CommandRegistration;
    if (typeof handlers === 'function') {
      if (types !== undefined) {
        for (const type of types) {
          if (!isCommandType(type)) throw new TypeError(`unknown command type "${type}"`);
        }
        if (types.length === 0) throw new TypeError('handleCommands: no command types given');
      }
      registration = { handler: handlers, types: types ? new Set(types) : null };
    } else {
      const map = handlers;
      const keys = Object.keys(map);
      for (const type of keys) {
        if (!isCommandType(type)) throw new TypeError(`unknown command type "${type}"`);
      }
      if (keys.length === 0) throw new TypeError('handleCommands: no command handlers given');
      const handler: CommandHandler = async (command) => {
        const fn = map[command.type] as
          | ((payload: unknown, message: CommandMessage) => unknown)
          | undefined;
        // Unreachable: the registration only covers the map's keys.
        if (!fn) throw new BusInvalidMessageError(`no handler for "${command.type}"`);
        return fn(command.payload, command);
      };
      registration = { handler, types: new Set(keys as CommandType[]) };
    }

    for (const existing of this.#registrations) {
      const overlap =
        existing.types === null || registration.types === null
          ? ['(all)']
          : [...registration.types].filter((type) => existing.types?.has(type));
      if (overlap.length > 0) {
        throw new BusHandlerConflictError(
          `a command handler is already registered for ${overlap.join(', ')}`,
        );
      }
    }
    this.#registrations.add(registration);
    return () => {
      this.#registrations.delete(registration);
    };
  }

  #registrationFor(type: CommandType): CommandRegistration | undefined {
    for (const registration of this.#registrations) {
      if (registration.types === null || registration.types.has(type)) return registration;
    }
    return undefined;
  }

  #receiveCommand(raw: string): void {
    if (this.#closed) return;
    const decoded = decodeCommand(raw);
    if (!decoded.ok) {
      this.#dropInvalid('command', decoded.reason, raw);
      // Answer what can be answered, so the requester fails now rather than at its timeout.
      const answerable = decoded.answerable;
      if (
        answerable &&
        this.#registrationFor(answerable.type) &&
        this.#isReplyChannel(answerable.replyTo)
      ) {
        void this.#reply(answerable.replyTo, answerable.id, answerable.type, {
          ok: false,
          error: { code: 'BUS_INVALID_MESSAGE', message: decoded.reason },
        });
      }
      return;
    }
    const command = decoded.message;
    const registration = this.#registrationFor(command.type);
    if (!registration) return; // another process handles it
    if (!this.#isReplyChannel(command.replyTo)) {
      this.#dropInvalid('command', `replyTo "${command.replyTo}" is not a reply channel`, raw);
      return;
    }
    void this.#runCommand(registration.handler, command);
  }

  #isReplyChannel(channel: string): boolean {
    return (
      channel.startsWith(this.#names.replyPrefix) && channel.length > this.#names.replyPrefix.length
    );
  }

  async #runCommand(handler: CommandHandler, command: CommandMessage): Promise<void> {
    const started = Date.now();
    const context = { commandType: command.type, commandId: command.id };
    let payload: ReplyPayload;
    try {
      const result = await handler(command);
      const checked = checkOutgoing(
        commandResultSchemas[command.type],
        result,
        `result of command "${command.type}"`,
      );
      payload = { ok: true, result: checked };
      this.#log.debug({ ...context, ms: Date.now() - started }, 'command handled');
    } catch (error) {
      payload = { ok: false, error: toReplyError(error) };
      if (error instanceof RadioError && !(error instanceof BusInvalidMessageError)) {
        this.#log.info({ ...context, code: error.code, reason: error.message }, 'command failed');
      } else {
        this.#log.error({ ...context, err: error }, 'command handler failed');
      }
    }
    if (this.#closed) {
      this.#log.debug(context, 'bus closed before the command was answered');
      return;
    }
    await this.#reply(command.replyTo, command.id, command.type, payload);
  }

  async #reply(
    replyTo: string,
    inReplyTo: string,
    type: CommandType,
    payload: ReplyPayload,
  ): Promise<void> {
    const transport = this.#transport;
    if (!transport) return;
    const raw = JSON.stringify({
      type: 'reply',
      id: randomUUID(),
      ts: Date.now(),
      inReplyTo,
      payload,
    });
    try {
      if (!transport.isConnected()) throw new Error('the bus is disconnected');
      await transport.publish(replyTo, raw);
    } catch (error) {
      this.#log.warn(
        { commandType: type, commandId: inReplyTo, err: error },
        'could not send the answer to a command',
      );
    }
  }

  // ------------------------------------------------------------------------------------------
  // State

  async publishState<T extends StatefulEventType>(
    type: T,
    payload: EventPayloads[T],
  ): Promise<void> {
    await this.publish(type, payload);
    const key = eventStateKeys[type];
    // A paired event and state key share one schema (messages.ts); setState checks it again.
    await this.setState(key, payload as unknown as StateValues[typeof key]);
  }

  async setState<K extends StateKey>(key: K, value: StateValues[K]): Promise<void> {
    const transport = this.#open(`set state "${key}"`);
    if (!isStateKey(key)) throw new BusInvalidMessageError(`unknown state key "${key}"`);
    const checked = checkOutgoing(stateSchemas[key], value, `value for state "${key}"`);
    const raw = JSON.stringify(checked);
    this.#ownedState.set(key, raw);
    if (!transport.isConnected()) {
      this.#log.debug({ stateKey: key }, 'bus is disconnected: state kept until it is back');
      return;
    }
    try {
      await transport.setKey(this.#names.stateKey(key), raw);
    } catch (error) {
      this.#log.warn(
        { stateKey: key, err: error },
        'could not write state; will retry on reconnect',
      );
    }
  }

  async getState<K extends StateKey>(key: K): Promise<StateValues[K] | null> {
    const transport = this.#open(`read state "${key}"`);
    if (!isStateKey(key)) throw new BusInvalidMessageError(`unknown state key "${key}"`);
    if (!transport.isConnected()) {
      throw new BusUnavailableError(`cannot read state "${key}": the bus is disconnected`);
    }
    let raw: string | null;
    try {
      raw = await transport.getKey(this.#names.stateKey(key));
    } catch (error) {
      throw new BusUnavailableError(`cannot read state "${key}": ${errorMessage(error)}`, {
        cause: error,
      });
    }
    if (raw === null) return null;
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch (error) {
      this.#dropInvalid('state', `state "${key}" is not JSON: ${errorMessage(error)}`, raw);
      return null;
    }
    const parsed = stateSchemas[key].safeParse(json);
    if (!parsed.success) {
      this.#dropInvalid('state', `invalid state "${key}": ${describeIssues(parsed.error)}`, raw);
      return null;
    }
    return parsed.data as StateValues[K];
  }

  async #restoreState(transport: Transport): Promise<void> {
    const entries = [...this.#ownedState];
    if (entries.length === 0) return;
    const results = await Promise.allSettled(
      entries.map(([key, raw]) => transport.setKey(this.#names.stateKey(key), raw)),
    );
    const failed = results.filter((result) => result.status === 'rejected').length;
    this.#log.info({ restored: entries.length - failed, failed }, 'state keys written again');
  }

  // ------------------------------------------------------------------------------------------
  // Lifecycle

  health(): BusHealth {
    return {
      kind: this.#kind,
      connected: !this.#closed && (this.#transport?.isConnected() ?? false),
      closed: this.#closed,
      disconnectedSince: this.#closed ? null : this.#disconnectedSince,
      pendingRequests: this.#pending.size,
      droppedEvents: this.#droppedEvents,
      invalidMessages: this.#invalidMessages,
    };
  }

  close(): Promise<void> {
    this.#closing ??= this.#close();
    return this.#closing;
  }

  async #close(): Promise<void> {
    this.#closed = true;
    for (const pending of [...this.#pending.values()]) {
      pending.reject(
        new BusClosedError(`the bus was closed before command "${pending.type}" was answered`),
      );
    }
    this.#subscriptions.clear();
    this.#registrations.clear();
    try {
      await this.#transport?.close();
    } catch (error) {
      this.#log.warn({ err: error }, 'error while closing the bus transport');
    }
  }

  #connectionChanged(connected: boolean): void {
    if (this.#closed) return;
    if (!connected) {
      this.#disconnectedSince ??= Date.now();
      return;
    }
    this.#disconnectedSince = null;
    if (this.#dropStreak > 0) this.#endDropStreak();
    const transport = this.#transport;
    if (this.#everConnected && transport) {
      // After a Redis restart the keys are gone; this process's values are still the latest.
      void this.#restoreState(transport);
    }
    this.#everConnected = true;
  }

  /** The transport, or BusClosedError for an operation on a closed bus. */
  #open(operation: string): Transport {
    if (this.#closed || !this.#transport) {
      throw new BusClosedError(`cannot ${operation}: the bus is closed`);
    }
    return this.#transport;
  }

  #dropInvalid(kind: 'event' | 'command' | 'reply' | 'state', reason: string, raw: string): void {
    this.#invalidMessages += 1;
    this.#log.warn(
      { messageKind: kind, reason, raw: excerpt(raw) },
      'dropped a malformed bus message',
    );
  }
}
