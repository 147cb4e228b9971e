/**
 * The handling side of commands: one registration per command type, running the handler of each
 * command this bus covers and answering on the requester's reply channel.
 */
import { randomUUID } from 'node:crypto';
import { RadioError } from '../errors.ts';
import type { CommandHandler, CommandHandlers } from './bus.ts';
import { checkOutgoing, decodeCommand } from './codec.ts';
import { type BusContext, errorMessage } from './context.ts';
import { BusHandlerConflictError, BusInvalidMessageError } from './errors.ts';
import {
  type CommandMessage,
  type CommandType,
  commandResultSchemas,
  isCommandType,
  type ReplyError,
  type ReplyPayload,
} from './messages.ts';

interface CommandRegistration {
  handler: CommandHandler;
  /** null: every command type. */
  types: ReadonlySet<CommandType> | null;
}

/** What a failed handler answers: its own code for a RadioError, `INTERNAL` otherwise. */
function toReplyError(error: unknown): ReplyError {
  if (error instanceof RadioError) return { code: error.code, message: error.message };
  return { code: 'INTERNAL', message: errorMessage(error) || 'internal error' };
}

function checkCommandTypes(types: Iterable<string>): void {
  for (const type of types) {
    if (!isCommandType(type)) throw new TypeError(`unknown command type "${type}"`);
  }
}

/** One function for the given types (all of them when none are given). */
function handlerRegistration(
  handler: CommandHandler,
  types: readonly CommandType[] | undefined,
): CommandRegistration {
  if (types !== undefined) {
    checkCommandTypes(types);
    if (types.length === 0) throw new TypeError('handleCommands: no command types given');
  }
  return { handler, types: types ? new Set(types) : null };
}

/** A map of one function per command type, as one handler for the map's keys. */
function mapRegistration(map: CommandHandlers): CommandRegistration {
  const keys = Object.keys(map);
  checkCommandTypes(keys);
  if (keys.length === 0) throw new TypeError('handleCommands: no command handlers given');
  const handler: CommandHandler = async (command) => {
    const fn = map[command.type] as
      | ((payload: unknown, message: CommandMessage) => unknown)
      | undefined;
    // Unreachable: the registration only covers the map's keys.
    if (!fn) throw new BusInvalidMessageError(`no handler for "${command.type}"`);
    return fn(command.payload, command);
  };
  return { handler, types: new Set(keys as CommandType[]) };
}

export class CommandHandling {
  readonly #context: BusContext;
  readonly #registrations = new Set<CommandRegistration>();

  constructor(context: BusContext) {
    this.#context = context;
  }

  register(
    handlers: CommandHandlers | CommandHandler,
    types: readonly CommandType[] | undefined,
  ): () => void {
    this.#context.open('handle commands');
    const registration =
      typeof handlers === 'function'
        ? handlerRegistration(handlers, types)
        : mapRegistration(handlers);
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

  receive(raw: string): void {
    if (this.#context.closed) return;
    const decoded = decodeCommand(raw);
    if (!decoded.ok) {
      this.#context.dropInvalid('command', decoded.reason, raw);
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
      this.#context.dropInvalid(
        'command',
        `replyTo "${command.replyTo}" is not a reply channel`,
        raw,
      );
      return;
    }
    void this.#run(registration.handler, command);
  }

  clear(): void {
    this.#registrations.clear();
  }

  #registrationFor(type: CommandType): CommandRegistration | undefined {
    for (const registration of this.#registrations) {
      if (registration.types === null || registration.types.has(type)) return registration;
    }
    return undefined;
  }

  #isReplyChannel(channel: string): boolean {
    const { replyPrefix } = this.#context.names;
    return channel.startsWith(replyPrefix) && channel.length > replyPrefix.length;
  }

  async #run(handler: CommandHandler, command: CommandMessage): Promise<void> {
    const started = Date.now();
    const context = { commandType: command.type, commandId: command.id };
    const log = this.#context.log;
    let payload: ReplyPayload;
    try {
      const result = await handler(command);
      const checked = checkOutgoing(
        commandResultSchemas[command.type],
        result,
        `result of command "${command.type}"`,
      );
      payload = { ok: true, result: checked };
      log.debug({ ...context, ms: Date.now() - started }, 'command handled');
    } catch (error) {
      payload = { ok: false, error: toReplyError(error) };
      if (error instanceof RadioError && !(error instanceof BusInvalidMessageError)) {
        log.info({ ...context, code: error.code, reason: error.message }, 'command failed');
      } else {
        log.error({ ...context, err: error }, 'command handler failed');
      }
    }
    if (this.#context.closed) {
      log.debug(context, 'bus closed before the command was answered');
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
    const transport = this.#context.transport;
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
      this.#context.log.warn(
        { commandType: type, commandId: inReplyTo, err: error },
        'could not send the answer to a command',
      );
    }
  }
}
