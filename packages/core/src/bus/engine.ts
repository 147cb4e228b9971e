/**
 * The bus itself, over any transport: it puts together the parts that do the work (event
 * fan-out, requests, command handling, state keys) and owns the connection's lifecycle and the
 * close. `createRedisBus` and `createMemoryBus` only differ in the transport they give it, so
 * both behave the same down to the error codes.
 */
import type { Logger } from '../logging/logger.ts';
import {
  type Bus,
  type BusHealth,
  type CommandHandler,
  type CommandHandlers,
  DEFAULT_REQUEST_TIMEOUT_MS,
  type EventHandler,
  type RequestOptions,
} from './bus.ts';
import { CommandHandling } from './command-handling.ts';
import { BusContext } from './context.ts';
import { EventFanout } from './event-fanout.ts';
import {
  type CommandPayloads,
  type CommandResults,
  type CommandType,
  type EventPayloads,
  type EventType,
  eventStateKeys,
  type StatefulEventType,
  type StateKey,
  type StateValues,
} from './messages.ts';
import { Requests } from './requests.ts';
import { StateKeys } from './state-keys.ts';
import type { BusNames, ChannelListener, Transport } from './transport.ts';

export interface EngineOptions {
  kind: 'redis' | 'memory';
  names: BusNames;
  logger: Logger;
  requestTimeoutMs?: number | undefined;
}

export class BusEngine implements Bus {
  readonly #kind: 'redis' | 'memory';
  readonly #context: BusContext;
  readonly #events: EventFanout;
  readonly #requests: Requests;
  readonly #commands: CommandHandling;
  readonly #state: StateKeys;

  #closing: Promise<void> | null = null;
  #everConnected = false;
  #disconnectedSince: number | null = Date.now();

  constructor(options: EngineOptions) {
    this.#kind = options.kind;
    this.#context = new BusContext(options.names, options.logger);
    this.#requests = new Requests(
      this.#context,
      options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
    );
    this.#events = new EventFanout(this.#context);
    this.#commands = new CommandHandling(this.#context);
    this.#state = new StateKeys(this.#context);
  }

  /** The channels the transport must subscribe to, with their listeners. */
  channelListeners(): Map<string, ChannelListener> {
    return new Map<string, ChannelListener>([
      [this.#context.names.events, (data) => this.#events.receive(data)],
      [this.#context.names.commands, (data) => this.#commands.receive(data)],
      [this.#requests.replyChannel, (data) => this.#requests.receiveReply(data)],
    ]);
  }

  attach(transport: Transport): void {
    this.#context.transport = transport;
    transport.onConnectionChange((connected) => this.#connectionChanged(connected));
    if (transport.isConnected()) this.#connectionChanged(true);
  }

  publish<T extends EventType>(type: T, payload: EventPayloads[T]): Promise<void> {
    return this.#events.publish(type, payload);
  }

  onEvent(handler: EventHandler): () => void;
  onEvent<T extends EventType>(handler: EventHandler<T>, types: readonly T[]): () => void;
  onEvent(handler: EventHandler, types?: readonly EventType[]): () => void {
    return this.#events.subscribe(handler, types);
  }

  request<T extends CommandType>(
    type: T,
    payload: CommandPayloads[T],
    options: RequestOptions = {},
  ): Promise<CommandResults[T]> {
    return this.#requests.send(type, payload, options);
  }

  handleCommands(handlers: CommandHandlers): () => void;
  handleCommands(handler: CommandHandler, types?: readonly CommandType[]): () => void;
  handleCommands(
    handlers: CommandHandlers | CommandHandler,
    types?: readonly CommandType[],
  ): () => void {
    return this.#commands.register(handlers, types);
  }

  async publishState<T extends StatefulEventType>(
    type: T,
    payload: EventPayloads[T],
  ): Promise<void> {
    await this.publish(type, payload);
    const key = eventStateKeys[type];
    // A paired event and state key share one schema (messages.ts); setState checks it again.
    await this.setState(key, payload as unknown as StateValues[typeof key]);
  }

  setState<K extends StateKey>(key: K, value: StateValues[K]): Promise<void> {
    return this.#state.set(key, value);
  }

  getState<K extends StateKey>(key: K): Promise<StateValues[K] | null> {
    return this.#state.get(key);
  }

  health(): BusHealth {
    const closed = this.#context.closed;
    return {
      kind: this.#kind,
      connected: !closed && (this.#context.transport?.isConnected() ?? false),
      closed,
      disconnectedSince: closed ? null : this.#disconnectedSince,
      pendingRequests: this.#requests.size,
      droppedEvents: this.#events.dropped,
      invalidMessages: this.#context.invalidMessages,
    };
  }

  close(): Promise<void> {
    this.#closing ??= this.#close();
    return this.#closing;
  }

  async #close(): Promise<void> {
    this.#context.markClosed();
    this.#requests.rejectAll();
    this.#events.clear();
    this.#commands.clear();
    try {
      await this.#context.transport?.close();
    } catch (error) {
      this.#context.log.warn({ err: error }, 'error while closing the bus transport');
    }
  }

  #connectionChanged(connected: boolean): void {
    if (this.#context.closed) return;
    if (!connected) {
      this.#disconnectedSince ??= Date.now();
      return;
    }
    this.#disconnectedSince = null;
    this.#events.endDropStreak();
    const transport = this.#context.transport;
    if (this.#everConnected && transport) {
      // After a Redis restart the keys are gone; this process's values are still the latest.
      void this.#state.restore(transport);
    }
    this.#everConnected = true;
  }
}
